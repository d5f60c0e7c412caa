/**
 * @file
 * @brief Étape 2 de l'échelle GEMM : les threads voisins d'un warp traitent des colonnes
 *        voisines de C, si bien que leurs lectures de B et leurs écritures de C coalescent.
 */
#pragma once

#include "gemm/common/kernel.cuh"

namespace noyaux::gemm {

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C, un thread par élément de C, threadIdx.x choisissant la colonne.
 *
 * Un warp couvre 32 colonnes consécutives d'une même ligne : à chaque tour de boucle, ses
 * 32 lectures de B sont contiguës (128 octets, une seule transaction) et sa lecture de A
 * est la même adresse pour tous (diffusée). Le calcul est identique à l'étape 1 ; seule la
 * correspondance entre threads et éléments a changé.
 */
__global__ void __launch_bounds__(32 * 32)  // les blocs 32×32 du lanceur
    sgemm_coalesced(int m, int n, int k, float alpha, const float* a, const float* b, float beta,
                    float* c) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
        c[row * n + col] = beta == 0.0f ? alpha * sum : alpha * sum + beta * c[row * n + col];
    }
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/** @brief L'étape 2 pour le lanceur, les tests et le benchmark communs (common/kernel.cuh). */
struct CoalescedKernel : GemmStep<CoalescedKernel> {
    static constexpr const char* name = "sgemm_coalesced";  ///< nom affiché
    static constexpr auto kernel = sgemm_coalesced;         ///< toute forme : les bords sont gardés
    /** @brief Blocs de 32×32 threads ; x parcourt maintenant les colonnes de C, y ses lignes. */
    static LaunchGeometry geometry(const Shape& shape) {
        return {dim3((shape.n + 31) / 32, (shape.m + 31) / 32), dim3(32, 32)};
    }
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
