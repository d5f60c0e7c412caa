/**
 * @file
 * @brief Étape 18 de l'échelle GEMM (sm_90a) : clusters et diffusion TMA. Le noyau à warps
 *        spécialisés de l'étape 15 (common/warp_specialized.cuh), lancé en clusters de deux
 *        blocs voisins en N : ils calculent la même bande de lignes de C, donc lisent la même
 *        tuile de A. Chacun en charge la moitié et la diffuse aux deux (`.multicast::cluster`) :
 *        A ne traverse plus qu'une fois l'accès à la mémoire globale pour deux blocs.
 */
#pragma once

#include "gemm/common/warp_specialized.cuh"

namespace noyaux::gemm {

// --8<-- [start:parametres]
/** @brief Étape 18 : la configuration de l'étape 15 (128×128×64, 4 étages), en clusters de 2 blocs. */
using ClusterConfig = WarpSpecializedShape<128, 128, /*Consumers=*/1, /*Stages=*/4,
                                           /*ProducerRegisters=*/40, /*ConsumerRegisters=*/232, /*Cluster=*/2>;
// --8<-- [end:parametres]

// --8<-- [start:lancement]
/** @brief L'étape 18 : 256 threads par bloc, deux blocs par cluster ; N multiple de 256. */
struct ClusterKernel : WarpSpecializedStep<ClusterKernel, ClusterConfig> {
    static constexpr const char* name = "gemm_cluster_multicast_bf16";  ///< nom affiché
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
