/**
 * @file
 * @brief Clusters de blocs (Hopper, sm_90) : un cluster de quatre blocs déclaré à la
 *        compilation (__cluster_dims__), le rang de chaque bloc dans son cluster
 *        (cooperative_groups::this_cluster()), une barrière de cluster (cluster.sync()) et la
 *        lecture de la mémoire partagée d'un bloc voisin (map_shared_rank) : la mémoire
 *        partagée distribuée.
 *
 * Sur GPU, sm_90 ou plus (le programme vérifie l'architecture du noyau). Le binaire est aussi
 * compilé pour sm_80, où __cluster_dims__ n'existe pas : le noyau y est un piège (le programme
 * vérifie l'architecture avant tout lancement). L'émulateur simt, un sm_90a pour lequel
 * __CUDA_ARCH__ vaut 900 dans le corps des noyaux, exécute le même noyau, clusters compris.
 */
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "cluster.hpp"

namespace noyaux::glossaire::clusters {

/**
 * @def NOYAUX_CLUSTER_DIMS
 * @brief __cluster_dims__(x, 1, 1), pour l'hôte et les cibles sm_90 ou plus seulement : nvcc
 *        refuse l'attribut pour une cible antérieure.
 */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define NOYAUX_CLUSTER_DIMS(x) __cluster_dims__(x, 1, 1)
#else
#define NOYAUX_CLUSTER_DIMS(x)
#endif

// --8<-- [start:noyau]
/**
 * @brief Chaque bloc dépose son morceau d'entrée dans sa mémoire partagée ; après la barrière de
 *        cluster, chaque thread lit l'élément de même indice dans la mémoire partagée du bloc de
 *        rang suivant. Une seconde barrière garde cette mémoire en vie tant qu'un voisin la lit.
 * @param input un flottant par thread de la grille
 * @param output un flottant par thread : celui que le thread de même indice du bloc voisin a lu
 * @param ranks rang de chaque bloc dans son cluster, écrit par son thread 0
 */
__global__ void NOYAUX_CLUSTER_DIMS(kClusterSize) __launch_bounds__(kThreads)
    neighbour_exchange(const float* __restrict__ input, float* __restrict__ output, unsigned* __restrict__ ranks) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    __shared__ float tile[kThreads];
    const cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    const unsigned i = blockIdx.x * kThreads + threadIdx.x;
    tile[threadIdx.x] = input[i];
    cluster.sync();  // toutes les mémoires partagées du cluster sont remplies
    const unsigned neighbour = (rank + 1) % cluster.num_blocks();
    const float* remote = cluster.map_shared_rank(tile, neighbour);  // adresse dans un autre SM
    output[i] = remote[threadIdx.x];
    if (threadIdx.x == 0) ranks[blockIdx.x] = rank;
    cluster.sync();  // aucun bloc ne quitte tant qu'un voisin lit encore sa mémoire
#else
    __trap();  // sans clusters avant sm_90 : le programme ne lance jamais ce code
#endif
}
// --8<-- [end:noyau]

/**
 * @brief Lance neighbour_exchange sur @p blocks blocs (asynchrone) ; un lancement ordinaire
 *        suffit, la taille de cluster est inscrite dans le noyau.
 * @throws std::invalid_argument si @p blocks n'est pas un multiple non nul de kClusterSize
 */
inline void launch_neighbour_exchange(unsigned blocks, const float* input, float* output, unsigned* ranks,
                                      cudaStream_t stream = nullptr) {
    validate_grid(blocks, kClusterSize);
    neighbour_exchange<<<blocks, kThreads, 0, stream>>>(input, output, ranks);
}

/** @brief Clusters de kClusterSize blocs que le GPU courant peut héberger à la fois. */
inline int max_active_clusters() {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(kClusterSize);
    config.blockDim = dim3(kThreads);
    int clusters = 0;
    NOYAUX_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, neighbour_exchange, &config));
    return clusters;
}

}  // namespace noyaux::glossaire::clusters
