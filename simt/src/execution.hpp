/**
 * @file
 * @brief État d'un lancement en cours, partagé par les fichiers du moteur : la grille
 *        (Launch), le bloc qu'exécute un thread du système (Block) et ses threads CUDA
 *        (ThreadSlot, une fibre chacun). Chaque fonction déclarée ici est définie dans le
 *        fichier de son métier, indiqué au-dessus d'elle.
 */
#pragma once

#include "simt/engine.hpp"

#include <boost/context/fiber.hpp>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <source_location>
#include <string>
#include <vector>

namespace simt::detail {

inline constexpr unsigned kWarpSize = 32;

/** @brief Taille de la mémoire partagée dynamique d'un thread du système : 227 Kio, le plafond de Hopper. */
inline constexpr std::size_t kSharedWindowBytes = 227 * 1024;
/** @brief Alignement de cette mémoire : celui qu'exige le swizzle de 128 octets. */
inline constexpr std::size_t kSharedWindowAlignment = 1024;

/** @brief Levée dans une fibre pour la dérouler quand le noyau est interrompu. */
struct KernelAbort {};

/** @brief Où en est un thread CUDA : prêt, arrêté à un point d'attente, ou terminé. */
enum class State { ready, at_barrier, at_warp, at_grid, at_warpgroup, at_cluster, at_tile, done };

/** @brief Ce qu'une lane dépose pour une opération de warp, et ce qu'elle en reçoit. */
struct WarpRequest {
    WarpOp op{};
    unsigned mask = 0;
    std::size_t size = 0;
    int parameter = 0;
    int width = 32;
    unsigned char value[16]{};
    unsigned char result[16]{};
    const char* name = nullptr;        // WarpOp::exchange : l'instruction
    WarpExchange exchange = nullptr;   // WarpOp::exchange : le calcul
    void* data = nullptr;              // WarpOp::exchange : opérandes et résultats de la lane
};

/**
 * @brief Ce qu'un thread dépose à une instruction de groupe de warps (warpgroup.cpp) : son
 *        nom PTX, pour les diagnostics, et ses opérandes, sur sa pile (valides pendant l'attente).
 */
struct WarpgroupRequest {
    const char* name = nullptr;
    void* operands = nullptr;
};

/** @brief Une copie cp.async en attente. */
struct AsyncCopy {
    void* destination;
    const void* source;
    std::size_t size;
    std::size_t zero_fill;
};

/** @brief Un thread CUDA : sa fibre, son état, ce qu'il attend. */
struct ThreadSlot {
    uint3 index{};
    unsigned linear = 0;
    State state = State::ready;
    bool in_noexcept_yield = false;  // suspendu dans yield_point_noexcept : ne pas dérouler
    bool started = false;            // a commencé le noyau (sa fibre existe, ou il a terminé)
    boost::context::fiber fiber;
    boost::context::fiber* sink = nullptr;  // continuation de l'ordonnanceur, sur la pile de la fibre
    BarrierKind barrier_kind = BarrierKind::sync;
    int predicate = 0;
    int barrier_result = 0;
    std::source_location where;
    WarpRequest warp;                                 // aussi la valeur d'une opération de tuile
    WarpgroupRequest warpgroup;
    std::uint64_t call_path = 0;                      // pile d'appels de coalesced_threads() (warp.cpp)
    TileOp tile_op = TileOp::sync;                    // opération de tuile attendue (at_tile)
    unsigned tile_size = 0;
    TileCombine combine = nullptr;
    const void* combine_op = nullptr;
    std::vector<AsyncCopy> open_group;                // copies depuis le dernier commit
    std::vector<std::vector<AsyncCopy>> committed;    // groupes fermés, du plus ancien au plus récent
    unsigned cluster_arrivals = 0;  // barrier.cluster.arrive faits par ce thread (cluster.cpp)
    bool cluster_exit_noted = false;  // sa sortie a été comptée par le cluster (run_block)
    unsigned cluster_waits = 0;     // barrier.cluster.wait achevés par ce thread
};

/** @brief Barrière entre les blocs d'un lancement coopératif, interruptible (barrier.cpp). */
class GridBarrier {
public:
    explicit GridBarrier(unsigned count) : count_(count) {}
    /** @return false si le lancement a été interrompu pendant l'attente. */
    bool arrive_and_wait(const std::atomic<bool>& aborted);
    void wake_all();

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    unsigned count_;
    unsigned arrived_ = 0;
    unsigned generation_ = 0;
};

/**
 * @brief Octets touchés par des atomiques pendant les ordres d'un lancement rejoué (mode
 *        « courses de données ») : un écart entre ordres limité à ces octets n'est pas une
 *        course de données, mais le non-déterminisme propre aux atomiques.
 */
class AtomicFootprint {
public:
    void note(const void* address, std::size_t size);
    bool covers(const void* address) const;
    bool empty() const { return ranges_.empty(); }

private:
    mutable std::mutex mutex_;
    std::map<const std::byte*, std::size_t> ranges_;  // début → taille
};

/** @brief Un bloc d'un cluster, vu des autres blocs (cluster.cpp). */
struct ClusterMember {
    uint3 block_index{};
    const std::byte* tls_begin = nullptr;  // TLS de l'exécutable dans le thread du système du bloc
    const std::byte* tls_end = nullptr;
    std::byte* window = nullptr;           // sa mémoire partagée dynamique, origine de ses adresses partagées
    bool finished = false;                 // le bloc a terminé (sous Cluster::mutex)
    unsigned finished_phase = 0;           // phases de la barrière achevées à sa fin
    unsigned live = 0;                     // ses threads non terminés
    unsigned pending = 0;                  // ses threads non terminés pas encore arrivés dans la phase en cours
};

/**
 * @brief Un cluster de blocs en cours d'exécution : ses blocs, chacun sur son thread du
 *        système, et la barrière matérielle du cluster (barrier.cluster), par phases.
 */
struct Cluster {
    struct Launch* launch = nullptr;
    uint3 index{};                         // indice du cluster dans la grille
    std::vector<ClusterMember> members;    // par rang
    std::mutex mutex;
    std::condition_variable changed;       // une phase de la barrière s'achève
    unsigned phase = 0;                    // phases achevées
    unsigned pending = 0;                  // threads non terminés pas encore arrivés dans la phase en cours
    // needed[de * taille + vers] : phase que le bloc « vers » doit voir s'achever avant de terminer,
    // parce que le bloc « de » a désigné sa mémoire partagée (0 : aucune).
    std::vector<unsigned> needed;
};

/** @brief Un lancement : sa forme, le corps des threads, la distribution des blocs. */
struct Launch {
    const char* kernel_name;
    LaunchShape shape;
    const ThreadBody* body;
    int order;  // 0 : croissant, 1 : décroissant, au-delà : mélanges
    unsigned block_count;
    std::atomic<unsigned> next_block{0};
    std::atomic<bool> aborted{false};
    std::atomic<unsigned long long> progress{0};  // lu par le chien de garde (watchdog.cpp)
    std::unique_ptr<GridBarrier> grid_barrier;
    std::atomic<unsigned> finished_blocks{0};  // blocs terminés : le chien de garde compte les résidents
    AtomicFootprint* atomics = nullptr;        // mode « courses de données » seulement
    std::mutex clusters_mutex{};               // clusters en cours, lus par le chien de garde
    std::vector<Cluster*> clusters{};
};

/** @brief État d'un groupe de warps : registres, opérations wgmma en attente (warpgroup.hpp). */
struct WarpgroupState;

/** @brief Le bloc qu'exécute un thread du système. */
struct Block {
    Launch* launch;
    uint3 index{};
    std::vector<ThreadSlot> threads;
    std::byte* dynamic_shared = nullptr;
    bool aborted = false;
    unsigned pass = 0;
    std::vector<std::shared_ptr<WarpgroupState>> warpgroups{};  // créés au premier usage (warpgroup.cpp)
    Cluster* cluster = nullptr;             // son cluster (créé à la demande hors lancement à clusters)
    unsigned cluster_rank = 0;
    std::unique_ptr<Cluster> own_cluster{}; // cluster implicite d'un seul bloc
    std::vector<unsigned> order;       // ordre de reprise de la passe en cours (pass_order)
    std::size_t cursor = 0;            // position dans order du thread en cours
    unsigned long long finished_threads = 0;  // terminés, pas encore comptés dans Launch::progress
    bool spun = false;  // un thread a cédé la main à un point d'attente (atomique, attente active)
};

// Le bloc et le thread CUDA en cours sur ce thread du système (block.cpp).
extern thread_local constinit Block* current_block;
extern thread_local constinit ThreadSlot* current_thread;

// ---- block.cpp : ordonnancement des threads d'un bloc -------------------------------------

/**
 * @brief Exécute le bloc @p linear_block de @p launch jusqu'au bout, ou jusqu'à une faute, avec
 *        pour mémoire partagée dynamique celle du thread du système appelant (dynamic_shared_window).
 */
void run_block(Launch& launch, unsigned linear_block);

// ---- shared_window.cpp : mémoire partagée dynamique et adresses partagées ------------------

/** @brief La mémoire partagée dynamique du thread du système appelant (kSharedWindowBytes octets). */
std::byte* dynamic_shared_window();

/** @brief Le segment TLS de l'exécutable (les `__shared__` statiques, la fenêtre) pour le thread du système appelant. */
void executable_tls(const std::byte*& begin, const std::byte*& end);

// ---- cluster.cpp : clusters de blocs --------------------------------------------------------

/** @brief Vrai si @p shape groupe ses blocs en clusters de plus d'un bloc. */
bool clustered(const LaunchShape& shape);

/**
 * @brief Exécute une grille à clusters : chaque cluster a ses blocs sur autant de threads du
 *        système neuf, tous démarrés avant que l'un d'eux n'exécute le noyau (co-résidence) ;
 *        le mode « courses de données » n'a donc rien à y ajouter.
 */
void run_clusters(Launch& launch, unsigned resident_blocks);

/** @brief Rattache le bloc qui démarre sur ce thread du système à son cluster. */
void join_cluster(Block& block);

/**
 * @brief Le thread @p slot du bloc vient de terminer : il n'est plus attendu par la barrière du
 *        cluster. Le dernier du bloc vérifie qu'aucun autre bloc ne lit encore sa mémoire partagée.
 */
void cluster_thread_exited(Block& block, const ThreadSlot& slot);

/**
 * @brief Plus aucune fibre prête et certaines attendent barrier.cluster.wait : attend la fin de
 *        la phase (les autres blocs tournent sur leurs threads), puis les rend prêtes.
 * @return false si aucune fibre n'attend la barrière du cluster.
 */
bool wait_for_cluster(Block& block);

/**
 * @brief Sans attendre : rend prêtes les fibres de @p block arrêtées à barrier.cluster.wait dont
 *        la phase est achevée. Pour run_block quand d'autres fibres tournent encore (attente
 *        active d'une mbarrier, par exemple), sans quoi elles ne seraient jamais reprises.
 * @return true si au moins une fibre a été rendue prête.
 */
bool release_cluster_waiters(Block& block);

/** @brief Pour le chien de garde : les blocs qu'attend la barrière de chaque cluster, vide sinon. */
std::string cluster_deadlock_text(Launch& launch);

// ---- fiber.cpp : les threads CUDA en fibres --------------------------------------------------

/**
 * @brief Reprend la fibre de @p slot (la crée s'il n'a pas démarré) jusqu'à son prochain point
 *        d'attente. Un thread qui termine sans céder la main est suivi, sur la même fibre, des
 *        threads suivants de la passe jamais démarrés (Block::order, Block::cursor).
 */
void resume(ThreadSlot& slot);

/** @brief Rend la main à l'ordonnanceur ; déroule la fibre si le noyau est interrompu. */
void suspend(ThreadSlot& slot);

/**
 * @brief Avant la destruction de la fibre de @p slot (qui la déroule, destructeurs compris) : une
 *        fibre suspendue dans une fonction noexcept est retirée du slot et abandonnée avec sa
 *        pile, la dérouler appellerait std::terminate.
 */
void destroy_fiber(ThreadSlot& slot);

// ---- barrier.cpp : barrières de bloc et de grille --------------------------------------------

/**
 * @brief Toutes les fibres attendent à la même barrière : la libère (réduction du prédicat,
 *        ou attente des autres blocs pour grid.sync()).
 * @return false si le bloc a été interrompu pendant l'attente de la grille.
 */
bool release_barrier(Block& block);

// ---- warp.cpp : shuffles, votes, __syncwarp -------------------------------------------------

const char* warp_op_name(WarpOp op);

/** @brief Nom de l'opération qu'attend une lane (celui de l'instruction pour WarpOp::exchange). */
const char* warp_request_name(const WarpRequest& request);

/**
 * @brief Plus aucune fibre n'est prête : termine les opérations de warp dont les lanes
 *        manquantes ont toutes terminé (le matériel n'attend pas les threads terminés).
 * @return true si au moins une opération a été terminée (des fibres sont de nouveau prêtes).
 */
bool complete_pending_warps(Block& block);

/**
 * @brief Bloc où plus rien n'avance : une lane attend une opération de warp pendant qu'une
 *        lane de son masque en attend une autre. La signale (fail) et rend true ; sinon false.
 */
bool report_warp_discord(Block& block);

// ---- warpgroup.cpp : instructions de groupe de warps (4 warps, 128 threads) -----------------

inline constexpr unsigned kWarpgroupSize = 128;

/** @brief Les 128 threads d'un groupe de warps arrivés au rendez-vous, dans l'ordre des lanes. */
using WarpgroupThreads = ThreadSlot* const (&)[kWarpgroupSize];

/**
 * @brief Rendez-vous d'une instruction `.sync.aligned` de groupe de warps : le thread courant
 *        dépose @p operands et attend les 127 autres threads de son groupe (4 warps consécutifs
 *        alignés) ; le dernier arrivé appelle @p complete avec les 128 threads, puis tous
 *        repartent. Un groupe incomplet, ou des threads à une autre instruction de groupe, sont
 *        des fautes.
 */
void warpgroup_rendezvous(const char* name, void* operands,
                          const std::function<void(Block&, WarpgroupThreads)>& complete,
                          const std::source_location& where);

/**
 * @brief Plus aucune fibre n'est prête et @p waiting attend une instruction de groupe de
 *        warps : nomme les warps du groupe qui ne l'ont pas atteinte, et arrête le bloc.
 */
void report_missing_warps(Block& block, const ThreadSlot& waiting);

/** @brief État du groupe de warps de @p slot, créé au premier usage. */
WarpgroupState& warpgroup_state(Block& block, const ThreadSlot& slot);

/** @brief Fin du bloc : des wgmma jamais attendus par wgmma.wait_group sont une faute (wgmma.cpp). */
void check_warpgroups_at_exit(Block& block);
// ---- tiles.cpp : tuiles de plusieurs warps -------------------------------------------------

/** @brief Nom d'une opération de tuile pour un diagnostic (« thread_block_tile<64>::sync() »). */
std::string tile_op_name(TileOp op, unsigned tile_size);

/**
 * @brief Le bloc est bloqué et @p waiting attend une opération de tuile : nomme les threads de
 *        la tuile qui n'y viendront pas (faute).
 */
void report_incomplete_tile(Block& block, const ThreadSlot& waiting);

// ---- diagnostics.cpp : rédaction et émission des fautes -------------------------------------

std::string coordinates(uint3 v);
std::string location(const std::source_location& where);
std::string mask_text(unsigned mask);
/** @brief Ce que fait un thread, pour un diagnostic (« attend __syncthreads (f.cu:12) »). */
std::string state_text(const ThreadSlot& slot);

/** @brief Interrompt le bloc (et le lancement) avec un diagnostic. */
void fail(Block& block, const ThreadSlot& slot, const std::string& problem);

/**
 * @brief Comportement indéfini que le matériel tolère de façon constante : par défaut, un
 *        avertissement (une fois par site, @p kind et @p where) qui cite la règle @p rule
 *        du guide de programmation CUDA, et l'exécution continue comme sur GPU ; en mode
 *        strict (SIMT_STRICT=1, simt::set_strict), une faute qui arrête le bloc.
 * @return true si l'exécution continue.
 */
bool tolerate(Block& block, const ThreadSlot& slot, const std::source_location& where,
              const char* kind, const std::string& problem, const std::string& rule);

/** @brief Mode strict : les comportements indéfinis tolérés deviennent des fautes. */
bool strict_mode();

/** @brief Interrompt le lancement pour une faute du bloc entier (ses threads ont terminé). */
void fail_block(Block& block, const std::string& problem);

/** @brief Interrompt le bloc depuis le thread CUDA courant, et déroule sa fibre. */
[[noreturn]] void fail_current(const std::string& problem);

// ---- divergence.cpp : barrières et masques qui ne concordent pas ----------------------------

/**
 * @brief Toutes les fibres du bloc sont bloquées : vérifie qu'elles attendent toutes à la
 *        même barrière. Sinon (une lane manque à une opération de warp, un thread a terminé
 *        sans atteindre la barrière, deux barrières différentes), signale la faute.
 * @return true si la barrière peut être libérée.
 */
bool all_at_same_barrier(Block& block);

// ---- watchdog.cpp : interblocages ----------------------------------------------------------

/**
 * @brief Attend que les @p workers threads du système aient fini ; sans progrès pendant
 *        SIMT_DELAI secondes, déclare le lancement interbloqué et l'interrompt.
 */
void watch_for_deadlock(Launch& launch, const std::atomic<unsigned>& finished, unsigned workers);

// ---- mbarrier.cpp : barrières asynchrones de PTX ----------------------------------------------

/**
 * @brief Pour le diagnostic d'interblocage : les threads de @p launch qui attendent encore une
 *        phase de mbarrier, avec l'état de la barrière (vide si aucun).
 */
std::string mbarrier_waits_text(const Launch& launch);

// ---- launch.cpp : exécution d'une grille -----------------------------------------------------

/** @brief Exécute toute la grille une fois, dans l'ordre de threads @p order. */
void run_grid(const char* name, const LaunchShape& shape, unsigned resident_blocks,
              const ThreadBody& body, int order, bool replayed, AtomicFootprint* atomics = nullptr);

// ---- races.cpp : courses de données ----------------------------------------------------------

/**
 * @brief Exécute la grille dans @p orders ordres de threads à partir de la même mémoire, et
 *        signale une course de données si les résultats diffèrent.
 */
void run_in_several_orders(const char* name, const LaunchShape& shape, unsigned resident_blocks,
                           const ThreadBody& body, int orders);

}  // namespace simt::detail
