/**
 * @file
 * @brief Interface interne entre les en-têtes de simt et son moteur d'exécution
 *        (libsimt) : barrières, opérations collectives de warp, lancement de grilles.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <source_location>
#include <string>

namespace simt {

/** @brief Forme d'un lancement : grille, bloc, mémoire partagée dynamique, flux. */
struct LaunchShape {
    dim3 grid;
    dim3 block;
    std::size_t dynamic_shared_bytes = 0;
    cudaStream_t stream = nullptr;
    bool cooperative = false;  ///< lancement coopératif : toute la grille doit être résidente
    dim3 cluster{1, 1, 1};          ///< dimensions d'un cluster de blocs (cluster.cpp)
    bool explicit_cluster = false;  ///< dimensions de cluster données (attribut de lancement, __cluster_dims__)
};

namespace detail {

/** @brief Variantes de __syncthreads. */
enum class BarrierKind { sync, count, all, any };

/** @brief Opérations collectives d'un warp ; coalesce : l'appel de coalesced_threads(). */
enum class WarpOp {
    shfl, shfl_up, shfl_down, shfl_xor, ballot, all, any, sync, exchange, elect, coalesce,
    // __reduce_*_sync (capacité 8.0) ; le paramètre vaut 1 pour la version int de add, min, max.
    reduce_add, reduce_min, reduce_max, reduce_and, reduce_or, reduce_xor,
    // __match_any_sync, __match_all_sync (capacité 7.0) : comparaison des valeurs bit à bit.
    match_any, match_all
};

/**
 * @brief Calcul d'une opération collective de warp à opérandes quelconques (mma.sync,
 *        ldmatrix…) : reçoit, pour chacune des 32 lanes, le pointeur qu'elle a déposé
 *        (opérandes et résultats sur sa pile, valides pendant l'attente).
 * @return vide si tout va bien, sinon le problème, en français ; @p faulty_lane nomme alors la lane fautive.
 */
using WarpExchange = std::string (*)(void* const lanes[32], unsigned& faulty_lane);

/** @brief Barrière de bloc ; renvoie le résultat de la réduction du prédicat (count/and/or). */
int block_barrier(BarrierKind kind, int predicate, const std::source_location& where);

/**
 * @brief Opération collective sur les lanes de @p mask : chaque lane dépose @p size octets
 *        de @p value et reçoit @p size octets dans @p result.
 */
void warp_collective(WarpOp op, unsigned mask, const void* value, void* result, std::size_t size,
                     int parameter, int width, const std::source_location& where);

/**
 * @brief Opération collective de tout le warp (`.sync.aligned` du PTX) : chaque lane dépose
 *        @p lane_data et s'arrête ; quand les 32 lanes sont là, la dernière arrivée appelle
 *        @p complete. Une lane terminée ou absente (bloc plus petit que le warp) est une faute.
 * @param name nom de l'instruction, pour les diagnostics (chaîne statique)
 */
void warp_exchange(const char* name, WarpExchange complete, void* lane_data, const std::source_location& where);

/**
 * @brief Vérifie une matrice en mémoire passée à wmma::load_matrix_sync ou store_matrix_sync
 *        (@p function) : pointeur non nul, aligné sur 32 octets, et pas @p ldm (en éléments de
 *        @p element_size octets) multiple de 16 octets ; sinon, arrête le noyau.
 */
void check_matrix_memory(const char* function, const void* pointer, unsigned ldm, std::size_t element_size,
                         const std::source_location& where);

/**
 * @brief coalesced_threads() : les lanes du warp du thread courant arrivées au même appel
 *        (même fichier, même ligne). Le thread attend que plus aucun thread du bloc ne
 *        puisse avancer : les lanes d'une autre branche sont alors arrêtées ailleurs, et ne
 *        font pas partie du groupe, comme sur GPU où seules les lanes convergentes y sont.
 * @return le masque des lanes du groupe.
 */
unsigned coalesced_lanes(const std::source_location& where);

/** @brief Opérations d'une tuile de plusieurs warps (thread_block_tile<N>, N de 64 à 1 024). */
enum class TileOp { sync, shfl, any, all, reduce, inclusive_scan, exclusive_scan };

/** @brief Combine @p value dans @p accumulator (l'opérateur de reduce ou d'un scan, @p op). */
using TileCombine = void (*)(const void* op, void* accumulator, const void* value);

/**
 * @brief Opération collective sur la tuile de @p tile_size threads du thread courant (les
 *        threads de rang tile_size·k à tile_size·(k+1) − 1 du bloc) : chaque thread dépose
 *        @p size octets de @p value (au plus 16) et reçoit @p size octets dans @p result.
 *        @p parameter : rang source d'un shfl ; @p combine appliqué à @p combine_op :
 *        l'opérateur de reduce et des scans, dans l'ordre des rangs.
 */
void tile_collective(TileOp op, unsigned tile_size, const void* value, void* result, std::size_t size,
                     unsigned parameter, TileCombine combine, const void* combine_op,
                     const std::source_location& where);

/** @brief Synchronisation de toute la grille (groupes coopératifs). */
void grid_barrier(const std::source_location& where);

/** @brief Place du bloc courant dans son cluster et dans la grille des clusters (cluster.cpp). */
struct ClusterPlace {
    dim3 dims;            ///< dimensions du cluster, en blocs ((1, 1, 1) hors lancement à clusters)
    dim3 block_index;     ///< indice du bloc dans son cluster
    unsigned block_rank;  ///< rang du bloc dans son cluster (x d'abord, puis y, puis z)
    dim3 index;           ///< indice du cluster dans la grille
    dim3 grid;            ///< dimensions de la grille, en clusters
    bool explicit_dims;   ///< vrai si le lancement a des dimensions de cluster (%is_explicit_cluster)
};

/** @brief Place du bloc courant dans son cluster. */
ClusterPlace cluster_place();

/** @brief barrier.cluster.arrive : le thread courant arrive à la barrière de son cluster. */
void cluster_arrive(const std::source_location& where);

/** @brief barrier.cluster.wait : attend que tous les threads non terminés du cluster soient arrivés. */
void cluster_wait(const std::source_location& where);

/**
 * @brief map_shared_rank : l'adresse de la même variable partagée que @p generic dans le bloc
 *        de rang @p rank du cluster (mémoire partagée distribuée) ; diagnostic si le rang sort
 *        du cluster, si le pointeur n'est pas partagé ou si le bloc visé a terminé.
 */
void* cluster_map_shared(const void* generic, long long rank, const std::source_location& where);

/** @brief Rang du bloc du cluster dont la mémoire partagée contient @p generic. */
unsigned cluster_query_shared_rank(const void* generic, const std::source_location& where);

/** @brief Vrai si @p generic désigne la mémoire partagée d'un bloc du cluster (`__isClusterShared`). */
bool cluster_is_shared(const void* generic);

/**
 * @brief Retient les dimensions de cluster déclarées par `__cluster_dims__` pour @p kernel
 *        (placé par la réécriture après la déclaration du noyau).
 * @return 0, pour initialiser une variable statique
 */
int register_cluster_dims(const void* kernel, unsigned x, unsigned y, unsigned z);

/**
 * @brief Début du corps d'un noyau déclaré `__cluster_dims__(x, y, z)` (placé par la
 *        réécriture) : le lancement doit avoir ces dimensions ; (0, 0, 0) pour
 *        `__cluster_dims__()`, qui exige des dimensions données au lancement.
 */
void check_cluster_dims(unsigned x, unsigned y, unsigned z,
                        const std::source_location& where = std::source_location::current());

/** @brief Lane du thread courant dans son warp (0 à 31). */
unsigned lane_id();

/** @brief Lanes de son warp que le thread courant sait encore actives (non terminées). */
unsigned active_mask();

/** @brief Point où le thread courant cède la main (atomiques, barrières mémoire, attentes). */
void yield_point();

/**
 * @brief Point d'attente après une atomique sur [@p address, @p address + @p size) : le mode
 *        « courses de données » note l'adresse, pour reconnaître un résultat qui ne dépend
 *        de l'ordre des threads que par des atomiques (une somme flottante par atomicAdd).
 */
void yield_point(const void* address, std::size_t size);

/**
 * @brief Comme yield_point, depuis une fonction noexcept (les atomiques de libcu++) : une
 *        exception ne peut pas la traverser. Si le lancement est interrompu pendant l'attente,
 *        le thread CUDA est abandonné là, sans être déroulé (voir fiber.cpp).
 */
void yield_point_noexcept() noexcept;

/**
 * @brief Copie asynchrone (cp.async) : mise en attente dans le groupe ouvert du thread
 *        courant ; elle n'a lieu qu'à l'attente qui la couvre, comme sur GPU, où rien ne
 *        garantit son arrivée avant.
 */
void async_copy(void* destination, const void* source, std::size_t size, std::size_t zero_fill,
                const std::source_location& where);

/** @brief Ferme le groupe de copies ouvert (__pipeline_commit). */
void async_commit();

/** @brief Effectue les groupes de copies fermés, sauf les @p prior plus récents. */
void async_wait_prior(std::size_t prior);

/** @brief Mémoire partagée dynamique du bloc courant (alignée sur 128 octets). */
void* dynamic_shared_memory();

/** @brief Arrête le noyau avec un diagnostic en français (__trap). */
[[noreturn]] void trap(const char* reason, const std::source_location& where);

/**
 * @brief Assertion du périphérique qui échoue (`assert`, voir shim/assert.h) : message du GPU
 *        avec bloc et thread, noyau arrêté, cudaErrorAssert collante. Hors d'un noyau, se
 *        comporte comme l'assert de la glibc.
 */
[[noreturn]] void assert_fail(const char* expression, const char* file, unsigned line, const char* function);

/**
 * @brief Nom démanglé d'un noyau, lu dans la table des symboles de l'exécutable (lié avec
 *        -rdynamic) ; « noyau » pour une fonction sans symbole exporté (espace anonyme).
 */
const char* kernel_name(const void* kernel);

/** @brief Refuse un lancement : diagnostic @p reason, erreur @p error consignée et rendue. */
cudaError_t refuse_launch(const char* reason, cudaError_t error);

/** @brief Corps d'un thread : appelle le noyau avec ses arguments copiés. */
using ThreadBody = std::function<void()>;

/**
 * @brief Fabrique le corps des threads d'un noyau de type connu à partir de ses arguments
 *        rangés comme dans l'API C (`void** kernelParams`, un pointeur par paramètre).
 */
using BodyFactory = ThreadBody (*)(const void* kernel, void** args);

/**
 * @brief Retient le type des paramètres de @p kernel (chaque lancement typé, chaque surcharge
 *        typée de l'API runtime le fait) : cudaGraphAddKernelNode, qui ne reçoit que
 *        `void* func`, s'en sert pour retrouver ses arguments.
 */
void remember_kernel(const void* kernel, BodyFactory factory);

/**
 * @brief Vérifie la configuration, exécute la grille, et renvoie l'erreur de lancement
 *        (aussi consignée pour cudaGetLastError). Sur un flux en capture (graphes CUDA),
 *        le lancement est enregistré dans le graphe, pas exécuté.
 */
cudaError_t launch_grid(const void* kernel, const char* kernel_name, const LaunchShape& shape,
                        const ThreadBody& body);

}  // namespace detail
}  // namespace simt
