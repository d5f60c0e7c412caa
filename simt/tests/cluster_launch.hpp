// Configuration d'un lancement en clusters (cudaLaunchKernelEx avec l'attribut
// cudaLaunchAttributeClusterDimension), commune aux tests des clusters et du GEMM Hopper.
#pragma once

#include <cstddef>

/**
 * @brief Configuration de lancement de @p grid blocs de @p block threads en clusters de forme
 *        @p cluster, avec @p shared octets de mémoire partagée dynamique. La configuration pointe
 *        vers @p attribute, qui doit vivre aussi longtemps qu'elle.
 */
inline cudaLaunchConfig_t config_with_cluster(dim3 grid, dim3 block, cudaLaunchAttribute& attribute, dim3 cluster,
                                              std::size_t shared = 0) {
    attribute = {};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = cluster.x;
    attribute.val.clusterDim.y = cluster.y;
    attribute.val.clusterDim.z = cluster.z;
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared;
    config.attrs = &attribute;
    config.numAttrs = 1;
    return config;
}
