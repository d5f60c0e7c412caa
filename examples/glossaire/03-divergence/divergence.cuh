/**
 * @file
 * @brief Divergence de warp : une branche sur threadIdx.x % 2 coupe chaque warp en deux (le
 *        warp parcourt les deux chemins l'un après l'autre), la même branche sur le numéro de
 *        warp ne coupe aucun warp ; une petite branche, elle, devient de la prédication.
 */
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace noyaux::glossaire::divergence {

/** @brief Ce qui décide de la branche. */
enum class Split : int {
    by_lane = 0,  ///< threadIdx.x % 2 : les lanes paires d'un côté, les impaires de l'autre
    by_warp = 1,  ///< (threadIdx.x / 32) % 2 : un warp entier d'un côté ou de l'autre
};

/** @brief Vrai si le thread @p thread prend le premier chemin. */
__device__ __host__ __forceinline__ bool takes_first_path(unsigned thread, Split split) {
    return split == Split::by_lane ? thread % 2 == 0 : (thread / 32) % 2 == 0;
}

/** @brief Premier chemin : une suite de FMA (même arrondi que std::fma sur l'hôte). */
__device__ __host__ __forceinline__ float first_path(float x, int iterations) {
    for (int k = 0; k < iterations; ++k) x = fmaf(x, 0.999f, 0.01f);
    return x;
}

/** @brief Second chemin : une autre suite de FMA, aussi longue. */
__device__ __host__ __forceinline__ float second_path(float x, int iterations) {
    for (int k = 0; k < iterations; ++k) x = fmaf(x, 1.001f, -0.01f);
    return x;
}

// --8<-- [start:branche]
/**
 * @brief Chaque thread suit l'un des deux chemins, de même longueur, selon @p split.
 *
 * Par lane, les 16 lanes paires et les 16 impaires d'un warp ne sont pas d'accord : le warp
 * exécute le premier chemin (impaires masquées), puis le second (paires masquées), et met
 * deux fois plus longtemps. Par warp, chaque warp ne suit qu'un chemin. Le code machine est
 * le même (la condition est connue à l'exécution) : la différence est dans le temps.
 */
__global__ void branchy_work(float* __restrict__ data, std::size_t n, int iterations, Split split) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float x = data[i];
    if (takes_first_path(threadIdx.x, split))
        data[i] = first_path(x, iterations);
    else
        data[i] = second_path(x, iterations);
}
// --8<-- [end:branche]

// --8<-- [start:recensement]
/**
 * @brief Compte, par un vote, les warps que la condition de @p split divise : `__ballot_sync`
 *        rend le masque des lanes qui prendraient le premier chemin ; ni vide ni plein, le warp
 *        diverge.
 * @param split condition de branchement examinée (par lane ou par warp)
 * @param divergent_warps compteur, mis à zéro par l'appelant
 */
__global__ void count_divergent_warps(Split split, unsigned* __restrict__ divergent_warps) {
    const unsigned mask = __ballot_sync(0xffffffffu, takes_first_path(threadIdx.x, split));
    if (threadIdx.x % 32 == 0 && mask != 0u && mask != 0xffffffffu) atomicAdd(divergent_warps, 1u);
}
// --8<-- [end:recensement]

// --8<-- [start:predication]
/**
 * @brief Une branche d'une instruction : le compilateur ne saute pas, il pose un prédicat
 *        (FSETP) et n'exécute la multiplication que sous ce prédicat (@!P0 FMUL) ; aucune
 *        reconvergence à gérer.
 */
__global__ void halve_negatives(float* __restrict__ data, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = data[i];
    if (x < 0.0f) x = x * 0.5f;
    data[i] = x;
}
// --8<-- [end:predication]

/**
 * @brief Lance branchy_work par blocs de 256 threads (asynchrone).
 * @throws std::invalid_argument si @p iterations est négatif
 */
inline void launch_branchy_work(float* data, std::size_t n, int iterations, Split split,
                                cudaStream_t stream = nullptr) {
    if (iterations < 0) throw std::invalid_argument("le nombre d'itérations est négatif");
    if (n == 0) return;
    branchy_work<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(data, n, iterations, split);
}

}  // namespace noyaux::glossaire::divergence
