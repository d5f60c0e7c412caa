/**
 * @file
 * @brief Étape 15 de l'échelle GEMM (sm_90a) : spécialisation des warps. Un groupe de warps
 *        producteur (un seul thread émet les copies TMA) et un groupe consommateur (wgmma
 *        m64n128k16), reliés par des mbarrier « plein » et « vide » par étage ; setmaxnreg
 *        répartit les registres entre eux. Le noyau est dans common/warp_specialized.cuh :
 *        l'étape 16 le reprend avec deux consommateurs et une tuile de 128×256.
 */
#pragma once

#include "gemm/common/warp_specialized.cuh"

namespace noyaux::gemm {

// --8<-- [start:parametres]
/** @brief Étape 15 : un producteur, un consommateur, tuile 128×128×64, 4 étages. */
using WarpSpecializedConfig = WarpSpecializedShape<128, 128, /*Consumers=*/1, /*Stages=*/4,
                                                   /*ProducerRegisters=*/40, /*ConsumerRegisters=*/232>;
// --8<-- [end:parametres]

// --8<-- [start:lancement]
/** @brief L'étape 15 : 256 threads par bloc (producteur + consommateur), 129 Kio de mémoire partagée. */
struct WarpSpecializedKernel : WarpSpecializedStep<WarpSpecializedKernel, WarpSpecializedConfig> {
    static constexpr const char* name = "gemm_warp_specialized_bf16";  ///< nom affiché
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
