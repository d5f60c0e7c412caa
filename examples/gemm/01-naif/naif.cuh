/**
 * @file
 * @brief Étape 1 de l'échelle GEMM : un thread par élément de C, tout lu en mémoire globale.
 */
#pragma once

#include "gemm/common/kernel.cuh"

namespace noyaux::gemm {

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C, un thread par élément de C.
 *
 * threadIdx.x choisit la *ligne* de C : les 32 threads d'un warp lisent 32 lignes
 * différentes de A, à K flottants d'écart, et écrivent 32 lignes différentes de C. Chaque
 * accès d'un warp touche donc 32 segments de mémoire au lieu d'un (pas de coalescence).
 */
__global__ void __launch_bounds__(32 * 32)  // les blocs 32×32 du lanceur
    sgemm_naive(int m, int n, int k, float alpha, const float* a, const float* b, float beta, float* c) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    const int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {  // les blocs du bord débordent de C
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
        c[row * n + col] = beta == 0.0f ? alpha * sum : alpha * sum + beta * c[row * n + col];
    }
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/** @brief L'étape 1 pour le lanceur, les tests et le benchmark communs (common/kernel.cuh). */
struct NaiveKernel : GemmStep<NaiveKernel> {
    static constexpr const char* name = "sgemm_naive";  ///< nom affiché
    static constexpr auto kernel = sgemm_naive;         ///< toute forme : les bords sont gardés
    /** @brief Blocs de 32×32 threads, autant qu'il en faut pour couvrir C ; x suit les lignes. */
    static LaunchGeometry geometry(const Shape& shape) {
        return {dim3((shape.m + 31) / 32, (shape.n + 31) / 32), dim3(32, 32)};
    }
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
