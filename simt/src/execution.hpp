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

/** @brief Levée dans une fibre pour la dérouler quand le noyau est interrompu. */
struct KernelAbort {};

/** @brief Où en est un thread CUDA : prêt, arrêté à un point d'attente, ou terminé. */
enum class State { ready, at_barrier, at_warp, at_grid, at_tile, done };

/** @brief Ce qu'une lane dépose pour une opération de warp, et ce qu'elle en reçoit. */
struct WarpRequest {
    WarpOp op{};
    unsigned mask = 0;
    std::size_t size = 0;
    int parameter = 0;
    int width = 32;
    unsigned char value[16]{};
    unsigned char result[16]{};
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
    std::uint64_t call_path = 0;                      // pile d'appels de coalesced_threads() (warp.cpp)
    TileOp tile_op = TileOp::sync;                    // opération de tuile attendue (at_tile)
    unsigned tile_size = 0;
    TileCombine combine = nullptr;
    const void* combine_op = nullptr;
    std::vector<AsyncCopy> open_group;                // copies depuis le dernier commit
    std::vector<std::vector<AsyncCopy>> committed;    // groupes fermés, du plus ancien au plus récent
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
};

/** @brief Le bloc qu'exécute un thread du système. */
struct Block {
    Launch* launch;
    uint3 index{};
    std::vector<ThreadSlot> threads;
    std::byte* dynamic_shared = nullptr;
    bool aborted = false;
    unsigned pass = 0;
    std::vector<unsigned> order;       // ordre de reprise de la passe en cours (pass_order)
    std::size_t cursor = 0;            // position dans order du thread en cours
    unsigned long long finished_threads = 0;  // terminés, pas encore comptés dans Launch::progress
    bool spun = false;  // un thread a cédé la main à un point d'attente (atomique, attente active)
};

// Le bloc et le thread CUDA en cours sur ce thread du système (block.cpp).
extern thread_local constinit Block* current_block;
extern thread_local constinit ThreadSlot* current_thread;

// ---- block.cpp : ordonnancement des threads d'un bloc -------------------------------------

/** @brief Exécute le bloc @p linear_block de @p launch jusqu'au bout, ou jusqu'à une faute. */
void run_block(Launch& launch, unsigned linear_block, std::byte* dynamic_shared);

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

/**
 * @brief Plus aucune fibre n'est prête : termine les opérations de warp dont les lanes
 *        manquantes ont toutes terminé (le matériel n'attend pas les threads terminés).
 * @return true si au moins une opération a été terminée (des fibres sont de nouveau prêtes).
 */
bool complete_pending_warps(Block& block);

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
