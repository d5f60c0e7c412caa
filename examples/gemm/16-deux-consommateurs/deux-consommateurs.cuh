/**
 * @file
 * @brief Étape 16 de l'échelle GEMM (sm_90a) : le noyau à warps spécialisés de l'étape 15,
 *        avec une tuile de C deux fois plus large (128×256) et deux groupes de warps
 *        consommateurs. Chacun prend 64 lignes par wgmma m64n256k16 (128 accumulateurs fp32
 *        par thread) ; le producteur charge pour les deux, et chaque tuile de B lue en mémoire
 *        partagée sert à 128 lignes de C au lieu de 64 par wgmma.
 */
#pragma once

#include "gemm/common/warp_specialized.cuh"

namespace noyaux::gemm {

// --8<-- [start:parametres]
/**
 * @brief Étape 16 : un producteur et deux consommateurs (384 threads), tuile 128×256×64, 3 étages
 *        de 48 Kio. Registres : 40 pour le producteur, 232 pour chaque consommateur, soit
 *        128 × (40 + 2 × 232) = 64 512 : toute la réserve du bloc, 384 threads × 168 registres
 *        à l'entrée (WarpSpecializedShape::block_registers), et non les 65 536 du SM.
 */
using TwoConsumersConfig = WarpSpecializedShape<128, 256, /*Consumers=*/2, /*Stages=*/3,
                                                /*ProducerRegisters=*/40, /*ConsumerRegisters=*/232>;
// --8<-- [end:parametres]

// --8<-- [start:lancement]
/** @brief L'étape 16 : 384 threads par bloc, 145 Kio de mémoire partagée dynamique. */
struct TwoConsumersKernel : WarpSpecializedStep<TwoConsumersKernel, TwoConsumersConfig> {
    static constexpr const char* name = "gemm_two_consumers_bf16";  ///< nom affiché
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
