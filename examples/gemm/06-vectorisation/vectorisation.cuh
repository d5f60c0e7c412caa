/**
 * @file
 * @brief Étape 6 de l'échelle GEMM : le tuilage 2D de l'étape 5, avec des accès de 128 bits
 *        (float4) en mémoire globale comme en mémoire partagée. A est transposée au moment
 *        où on la range en mémoire partagée, pour que la boucle interne lise ses deux tuiles
 *        par blocs de quatre flottants contigus.
 *
 * Le corps du noyau (common/vectorized.cuh) et ses briques (common/vector_tiles.cuh) servent
 * aussi aux étapes 7 et 8 ; ce fichier dit ce que l'étape 6 en fait : les tailles de l'étape 5,
 * A transposée sans marge (PlainLayout).
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/vectorized.cuh"

namespace noyaux::gemm {

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C ; chaque bloc de 256 threads calcule une tuile 128×128 de C, chaque
 *        thread un carré 8×8, comme à l'étape 5, mais tous les accès font 128 bits.
 *        M, N multiples de 128 et K multiple de 8 : aucun bord à garder.
 */
__global__ void __launch_bounds__(VectorizedConfig::threads)
    sgemm_vectorized([[maybe_unused]] int m, int n, int k, float alpha, const float* __restrict__ a,
                     const float* __restrict__ b, float beta, float* __restrict__ c) {
    using C = VectorizedConfig;
    vectorized_block_gemm<C::block_m, C::block_n, C::block_k, C::thread_m, C::thread_n, PlainLayout>(
        n, k, alpha, a, b, beta, c);
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/**
 * @brief L'étape 6 pour le lanceur, les tests et le benchmark communs : une grille de tuiles
 *        128×128 de C, 256 threads par bloc ; A, B et C alignées sur 16 octets, ce qu'exigent
 *        les float4 (TiledStep, common/kernel.cuh, refuse les autres avant tout lancement).
 */
struct VectorizedKernel : TiledStep<VectorizedKernel, VectorizedConfig, 16> {
    static constexpr const char* name = "sgemm_vectorized";  ///< nom affiché
    static constexpr auto kernel = sgemm_vectorized;         ///< le noyau lancé
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
