/**
 * @file
 * @brief Chargement des tuiles et écriture de C en accès de 32 bits, communs aux étapes 4 et 5
 *        de l'échelle GEMM : ce qu'elles font de la même façon, pour que leurs noyaux ne
 *        montrent que ce qui les distingue (les éléments de C qu'un thread calcule).
 */
#pragma once

#include <cuda_runtime.h>

namespace noyaux::gemm {

// --8<-- [start:chargement]
/**
 * @brief Copie une tuile ROWS×COLS d'une matrice en ligne de largeur @p ld (@p src pointe sur
 *        son coin) vers @p tile, en ligne de largeur COLS, par les THREADS threads du bloc.
 *
 * La copie avance par passes de THREADS / COLS lignes : dans une passe, des threads voisins
 * copient des éléments voisins d'une même ligne, et leurs lectures coalescent.
 */
template <int ROWS, int COLS, int THREADS>
__device__ __forceinline__ void copy_tile(float* tile, const float* src, int ld) {
    constexpr int rows_per_pass = THREADS / COLS;
    static_assert(THREADS % COLS == 0 && ROWS % rows_per_pass == 0, "passes entières");
    const int row = static_cast<int>(threadIdx.x) / COLS;
    const int col = static_cast<int>(threadIdx.x) % COLS;
    for (int pass = 0; pass < ROWS; pass += rows_per_pass)
        tile[(row + pass) * COLS + col] = src[(row + pass) * ld + col];
}
// --8<-- [end:chargement]

// --8<-- [start:epilogue]
/**
 * @brief C ← α·résultats + β·C pour les TM×TN éléments d'un thread ; @p c pointe sur le
 *        premier, dans C de largeur @p n ; @p results est en ligne (results[i·TN + j]).
 */
template <int TM, int TN>
__device__ __forceinline__ void update_c(float* c, int n, float alpha, float beta,
                                         const float* results) {
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            float& out = c[i * n + j];
            out = beta == 0.0f ? alpha * results[i * TN + j] : alpha * results[i * TN + j] + beta * out;
        }
}
// --8<-- [end:epilogue]

}  // namespace noyaux::gemm
