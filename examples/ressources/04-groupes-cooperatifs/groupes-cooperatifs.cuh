/**
 * @file
 * @brief Groupes coopératifs : réductions par tuiles statiques (tiled_partition<16>, <32>)
 *        par shfl_down et par cg::reduce, tuiles de taille choisie à l'exécution, et
 *        synchronisation de toute la grille sous cudaLaunchCooperativeKernel.
 *
 * D'après Mark Harris et Kyrylo Perelygin, « Cooperative Groups: Flexible CUDA Thread
 * Programming » (NVIDIA Technical Blog, 2017).
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "common/device.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace noyaux::ressources::cooperative {

namespace cg = cooperative_groups;

/** @brief Threads par bloc de tous les noyaux de l'exemple. */
constexpr unsigned kThreadsPerBlock = 256;

// --8<-- [start:tuile-statique]
/**
 * @brief Une somme par tuile de @p TileSize threads consécutifs, par shfl_down.
 *
 * La taille est un paramètre de modèle : le compilateur connaît le nombre de tours
 * (log2 de TileSize) et le masque de la tuile. Les threads au-delà de @p n apportent 0.
 *
 * @param in tableau lu, @p n éléments
 * @param n nombre d'éléments
 * @param tile_sums une somme par tuile entamée (⌈n / TileSize⌉ éléments)
 */
template <unsigned TileSize>
__global__ void __launch_bounds__(kThreadsPerBlock)
    tile_sums_shuffle(const int* __restrict__ in, std::size_t n, int* __restrict__ tile_sums) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TileSize> tile = cg::tiled_partition<TileSize>(block);
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + block.thread_rank();
    int sum = i < n ? in[i] : 0;
    for (unsigned offset = tile.num_threads() / 2; offset > 0; offset /= 2)
        sum += tile.shfl_down(sum, offset);
    if (tile.thread_rank() == 0 && i < n) tile_sums[i / TileSize] = sum;
}

/**
 * @brief Même calcul confié à cg::reduce : sur sm_80 et plus, une somme d'entiers sur une
 *        tuile de 16 ou 32 threads devient une seule instruction REDUX.
 * @param in tableau lu, @p n éléments
 * @param n nombre d'éléments
 * @param tile_sums une somme par tuile entamée (⌈n / TileSize⌉ éléments)
 */
template <unsigned TileSize>
__global__ void __launch_bounds__(kThreadsPerBlock)
    tile_sums_reduce(const int* __restrict__ in, std::size_t n, int* __restrict__ tile_sums) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TileSize> tile = cg::tiled_partition<TileSize>(block);
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + block.thread_rank();
    const int sum = cg::reduce(tile, i < n ? in[i] : 0, cg::plus<int>());  // pour toute la tuile
    if (tile.thread_rank() == 0 && i < n) tile_sums[i / TileSize] = sum;
}
// --8<-- [end:tuile-statique]

/** @brief Nombre de threads d'un bloc ou d'une tuile statique. */
template <typename Group>
__device__ unsigned group_threads(const Group& group) {
    return static_cast<unsigned>(group.num_threads());
}

/**
 * @brief Nombre de threads d'une tuile dynamique : le toolkit CUDA 13.0 déclare
 *        thread_group::num_threads() sans la définir (ptxas refuse le symbole), size() si.
 */
__device__ inline unsigned group_threads(const cg::thread_group& group) {
    return static_cast<unsigned>(group.size());
}

// --8<-- [start:groupe-generique]
/**
 * @brief Somme sur n'importe quel groupe de taille puissance de 2 (bloc ou tuile), par
 *        un arbre en mémoire partagée synchronisé par group.sync().
 *
 * La même fonction sert au bloc entier et à une tuile : seul le groupe passé change, et
 * avec lui la portée de chaque synchronisation.
 *
 * @param group le groupe qui réduit
 * @param scratch group_threads(group) entiers de mémoire partagée propres à ce groupe
 * @param value la contribution du thread
 * @return la somme du groupe, dans le thread de rang 0
 */
template <typename Group>
__device__ int group_sum(const Group& group, int* scratch, int value) {
    const unsigned rank = group.thread_rank();
    for (unsigned half = group_threads(group) / 2; half > 0; half /= 2) {
        scratch[rank] = value;
        group.sync();
        if (rank < half) value += scratch[rank + half];
        group.sync();  // ne pas réécrire scratch avant que tous l'aient lu
    }
    return value;
}
// --8<-- [end:groupe-generique]

// --8<-- [start:tuile-dynamique]
/**
 * @brief Sommes par tuile de @p tile_size threads (connu à l'exécution), puis par bloc,
 *        avec la même fonction group_sum.
 * @param in tableau lu, @p n éléments
 * @param n nombre d'éléments
 * @param tile_size taille des tuiles, puissance de 2 de 1 à 32
 * @param tile_sums une somme par tuile entamée
 * @param block_sums une somme par bloc
 */
__global__ void __launch_bounds__(kThreadsPerBlock)
    dynamic_tile_sums(const int* __restrict__ in, std::size_t n, unsigned tile_size,
                      int* __restrict__ tile_sums, int* __restrict__ block_sums) {
    __shared__ int scratch[kThreadsPerBlock];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, tile_size);
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + block.thread_rank();
    const int value = i < n ? in[i] : 0;
    // Chaque tuile travaille dans sa propre tranche de scratch.
    int* tile_scratch = scratch + (block.thread_rank() - tile.thread_rank());
    const int tile_sum = group_sum(tile, tile_scratch, value);
    if (tile.thread_rank() == 0 && i < n) tile_sums[i / tile_size] = tile_sum;
    block.sync();  // les tuiles ont fini de lire scratch avant que le bloc le réutilise
    const int block_sum = group_sum(block, scratch, value);
    if (block.thread_rank() == 0) block_sums[blockIdx.x] = block_sum;
}
// --8<-- [end:tuile-dynamique]

/**
 * @brief Somme des valeurs de tout le bloc par tuiles de 32 et cg::reduce.
 * @param block le bloc courant
 * @param warp_sums kThreadsPerBlock / 32 entiers de mémoire partagée
 * @param value la contribution du thread
 * @return la somme du bloc, dans tous les threads de la première tuile
 */
__device__ inline int block_sum_by_tiles(const cg::thread_block& block, int* warp_sums, int value) {
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const int warp_sum = cg::reduce(warp, value, cg::plus<int>());
    if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = warp_sum;
    block.sync();
    int sum = 0;
    if (warp.meta_group_rank() == 0) {
        const unsigned warps = block.num_threads() / 32;
        sum = cg::reduce(warp, warp.thread_rank() < warps ? warp_sums[warp.thread_rank()] : 0,
                         cg::plus<int>());
    }
    block.sync();  // warp_sums peut resservir après le retour
    return sum;
}

// --8<-- [start:grille]
/**
 * @brief Centre un tableau sur sa moyenne en un seul lancement, en trois phases séparées
 *        par grid.sync() : sommes par bloc, somme totale, puis x[i] − moyenne.
 *
 * Sans les synchronisations de grille, il faudrait trois noyaux : aucun bloc ne peut lire
 * le total avant que tous les blocs aient écrit leur somme partielle. Exige
 * cudaLaunchCooperativeKernel et une grille entièrement résidente.
 *
 * @param in tableau lu, @p n éléments
 * @param n nombre d'éléments (au moins 1)
 * @param block_sums une somme par bloc (phase 1)
 * @param total la somme de tout le tableau (phase 2)
 * @param centered in[i] − moyenne (phase 3)
 */
__global__ void __launch_bounds__(kThreadsPerBlock)
    center_on_grid(const int* __restrict__ in, std::size_t n, int* __restrict__ block_sums,
                   int* __restrict__ total, float* __restrict__ centered) {
    __shared__ int warp_sums[kThreadsPerBlock / 32];
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();

    // Phase 1 : chaque bloc somme sa part (boucle grid-stride).
    int sum = 0;
    for (std::size_t i = grid.thread_rank(); i < n; i += grid.num_threads()) sum += in[i];
    sum = block_sum_by_tiles(block, warp_sums, sum);
    if (block.thread_rank() == 0) block_sums[grid.block_rank()] = sum;
    grid.sync();

    // Phase 2 : le bloc 0 additionne les sommes de tous les blocs.
    if (grid.block_rank() == 0) {
        int partial = 0;
        for (std::size_t b = block.thread_rank(); b < grid.num_blocks(); b += block.num_threads())
            partial += block_sums[b];
        partial = block_sum_by_tiles(block, warp_sums, partial);
        if (block.thread_rank() == 0) *total = partial;
    }
    grid.sync();

    // Phase 3 : tous les threads lisent le total écrit par le bloc 0.
    const double mean = static_cast<double>(*total) / static_cast<double>(n);
    for (std::size_t i = grid.thread_rank(); i < n; i += grid.num_threads())
        centered[i] = static_cast<float>(static_cast<double>(in[i]) - mean);
}
// --8<-- [end:grille]

/**
 * @brief Lance tile_sums_shuffle ou tile_sums_reduce (asynchrone) sur ⌈n / 256⌉ blocs.
 * @param in tableau lu, @p n éléments
 * @param n nombre d'éléments
 * @param tile_sums ⌈n / TileSize⌉ sommes
 * @param use_reduce vrai pour cg::reduce, faux pour la boucle de shfl_down
 * @param stream flux CUDA du lancement
 */
template <unsigned TileSize>
void launch_tile_sums(const int* in, std::size_t n, int* tile_sums, bool use_reduce,
                      cudaStream_t stream = nullptr) {
    if (n == 0) return;
    const auto blocks = static_cast<unsigned>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
    if (use_reduce)
        tile_sums_reduce<TileSize><<<blocks, kThreadsPerBlock, 0, stream>>>(in, n, tile_sums);
    else
        tile_sums_shuffle<TileSize><<<blocks, kThreadsPerBlock, 0, stream>>>(in, n, tile_sums);
}

/**
 * @brief Lance dynamic_tile_sums (asynchrone) sur ⌈n / 256⌉ blocs.
 * @throws std::invalid_argument si @p tile_size n'est pas une puissance de 2 de 1 à 32
 */
inline void launch_dynamic_tile_sums(const int* in, std::size_t n, unsigned tile_size,
                                     int* tile_sums, int* block_sums, cudaStream_t stream = nullptr) {
    if (tile_size == 0 || tile_size > 32 || (tile_size & (tile_size - 1)) != 0)
        throw std::invalid_argument("une tuile dynamique compte 1, 2, 4, 8, 16 ou 32 threads (demandé : " +
                                    std::to_string(tile_size) + ")");
    if (n == 0) return;
    const auto blocks = static_cast<unsigned>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
    dynamic_tile_sums<<<blocks, kThreadsPerBlock, 0, stream>>>(in, n, tile_size, tile_sums, block_sums);
}

// --8<-- [start:lancement-cooperatif]
/**
 * @brief Refuse un GPU sans lancement coopératif, avec un message qui dit pourquoi.
 * @param supported valeur de l'attribut cudaDevAttrCooperativeLaunch
 * @param device_name nom du GPU, pour le message
 * @throws noyaux::NoDeviceError si @p supported vaut 0
 */
inline void require_cooperative_launch(int supported, const std::string& device_name) {
    if (supported == 0)
        throw NoDeviceError("le GPU « " + device_name +
                            " » ne permet pas le lancement coopératif (cudaDevAttrCooperativeLaunch = 0) : "
                            "this_grid().sync() exige cudaLaunchCooperativeKernel");
}

/**
 * @brief Plus grande grille coopérative possible pour center_on_grid sur le GPU courant :
 *        blocs résidents par SM (calcul d'occupation) × nombre de SM.
 * @throws noyaux::NoDeviceError si le GPU ne permet pas le lancement coopératif
 */
inline unsigned max_cooperative_blocks() {
    int device = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    int supported = 0;
    NOYAUX_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, device));
    cudaDeviceProp properties{};
    NOYAUX_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    require_cooperative_launch(supported, properties.name);
    int per_multiprocessor = 0;
    NOYAUX_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_multiprocessor, center_on_grid, static_cast<int>(kThreadsPerBlock), 0));
    return static_cast<unsigned>(per_multiprocessor * properties.multiProcessorCount);
}

/**
 * @brief Lance center_on_grid sur @p blocks blocs par cudaLaunchCooperativeKernel (asynchrone).
 * @param in tableau lu, @p n éléments
 * @param n nombre d'éléments (au moins 1)
 * @param block_sums au moins @p blocks entiers
 * @param total la somme du tableau, un entier
 * @param centered le tableau centré, @p n flottants
 * @param blocks blocs de la grille, au plus max_cooperative_blocks()
 * @param stream flux CUDA du lancement
 * @throws std::invalid_argument si @p n ou @p blocks vaut 0
 * @throws noyaux::CudaError si le lancement est refusé (grille trop grande :
 *         cudaErrorCooperativeLaunchTooLarge)
 */
inline void launch_center_on_grid(const int* in, std::size_t n, int* block_sums, int* total,
                                  float* centered, unsigned blocks, cudaStream_t stream = nullptr) {
    if (n == 0) throw std::invalid_argument("la moyenne d'un tableau vide n'existe pas");
    if (blocks == 0) throw std::invalid_argument("la grille doit compter au moins un bloc");
    void* arguments[] = {&in, &n, &block_sums, &total, &centered};
    NOYAUX_CUDA_CHECK(cudaLaunchCooperativeKernel(center_on_grid, dim3(blocks),
                                                  dim3(kThreadsPerBlock), arguments, 0, stream));
}
// --8<-- [end:lancement-cooperatif]

/** @brief Blocs utiles pour @p n éléments, sans dépasser @p max_blocks (au moins 1). */
inline unsigned cooperative_blocks_for(std::size_t n, unsigned max_blocks) {
    const std::size_t needed = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
    return static_cast<unsigned>(std::clamp<std::size_t>(needed, 1, std::max(max_blocks, 1u)));
}

}  // namespace noyaux::ressources::cooperative
