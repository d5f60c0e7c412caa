/**
 * @file
 * @brief Étape 18 de l'échelle GEMM (sm_90a) : clusters et diffusion TMA, sur le meilleur noyau
 *        des étapes précédentes. Le noyau à warps spécialisés (common/warp_specialized.cuh) avec
 *        les deux consommateurs et la tuile 128×256 de l'étape 16, rendu persistant comme à
 *        l'étape 17 (ordre de Hilbert), et lancé en clusters de deux blocs voisins en M : ils
 *        lisent la même tuile de B, dont chacun charge la moitié et la diffuse aux deux
 *        (`.multicast::cluster`).
 */
#pragma once

#include "gemm/common/tile_scheduler.hpp"
#include "gemm/common/warp_specialized.cuh"

#include "common/cuda_check.cuh"

#include <algorithm>

namespace noyaux::gemm {

// --8<-- [start:parametres]
/**
 * @brief Étape 18 : la tuile et les registres de l'étape 16 (128×256×64, un producteur et deux
 *        consommateurs, 40 et 232 registres), 4 étages de 48 Kio, des clusters de 2 blocs voisins
 *        en M et l'ordre de Hilbert sur les tuiles de 256 × 256 des clusters.
 */
struct ClusterConfig : WarpSpecializedShape<128, 256, /*Consumers=*/2, /*Stages=*/4,
                                            /*ProducerRegisters=*/40, /*ConsumerRegisters=*/232, /*Cluster=*/2> {
    static constexpr schedule::Order order = schedule::Order::hilbert;  ///< ordre des tuiles des clusters
};
// --8<-- [end:parametres]

// --8<-- [start:lancement]
/**
 * @brief L'étape 18 : 384 threads par bloc, deux blocs par cluster ; M multiple de 256. La
 *        grille est persistante : autant de clusters que le GPU en garde résidents à la fois
 *        (cudaOccupancyMaxActiveClusters), sans dépasser le nombre de tuiles.
 */
struct ClusterKernel : WarpSpecializedStep<ClusterKernel, ClusterConfig> {
    static constexpr const char* name = "gemm_cluster_multicast_bf16";  ///< nom affiché

    /** @brief Clusters résidents à la fois sur le GPU courant ; calculé une fois par programme. */
    static int resident_clusters() {
        static const int clusters = [] {
            allow_dynamic_shared<kernel, shared_bytes>();  // l'occupation tient compte de cette permission
            cudaLaunchConfig_t config{};
            config.gridDim = dim3(ClusterConfig::cluster);
            config.blockDim = dim3(ClusterConfig::threads);
            config.dynamicSmemBytes = shared_bytes;
            cudaLaunchAttribute cluster = cluster_dimension(ClusterConfig::cluster);  // celui du lanceur
            config.attrs = &cluster;
            config.numAttrs = 1;
            int count = 0;
            NOYAUX_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&count, kernel, &config));
            return std::max(count, 1);
        }();
        return clusters;
    }

    /** @brief Une grille à une dimension : min(tuiles, clusters résidents) clusters. */
    static LaunchGeometry geometry(const Shape& shape) {
        const int clusters = std::min(tile_count(shape), resident_clusters());
        return {dim3(unsigned(clusters * ClusterConfig::cluster)), dim3(ClusterConfig::threads)};
    }
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
