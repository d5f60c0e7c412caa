/**
 * @file
 * @brief L'épilogue des étapes sur Tensor Cores (13 à 19) : chaque thread tient ses
 *        accumulateurs par paires de colonnes voisines ; il écrit C ← α·acc + β·C par paire,
 *        en un seul accès de 8 octets. Avec β = 0, C n'est jamais lu (sémantique BLAS : un NaN
 *        d'une C non initialisée ne se propage pas).
 */
#pragma once

#include "common/tensor_core_layout.hpp"

#include <cuda_runtime.h>

namespace noyaux::gemm {

// --8<-- [start:paire]
/**
 * @brief C ← α·(@p x, @p y) + β·C sur les deux flottants voisins que pointe @p out (aligné sur
 *        8 octets : les colonnes paires d'une C de largeur paire).
 */
__device__ __forceinline__ void update_c2(float* out, float x, float y, float alpha, float beta) {
    float2* pair = reinterpret_cast<float2*>(out);
    float2 value = make_float2(alpha * x, alpha * y);
    if (beta != 0.0f) {
        const float2 old = *pair;
        value.x += beta * old.x;
        value.y += beta * old.y;
    }
    *pair = value;
}
// --8<-- [end:paire]

// --8<-- [start:wgmma]
/**
 * @brief Écrit dans C (largeur @p n) la sortie 64 × N d'un wgmma m64nNk16 tenue par le
 *        warpgroup du thread (@p acc : ses N / 2 accumulateurs), à partir de la ligne @p row0
 *        et de la colonne @p col0. Les registres 2i et 2i + 1 sont deux colonnes voisines
 *        (tensor_core::wgmma_accumulator_position) : une écriture de 8 octets par paire.
 */
template <int Registers>
__device__ __forceinline__ void store_wgmma_tile(const float (&acc)[Registers], float* c, int n, int row0, int col0,
                                                 float alpha, float beta) {
    static_assert(Registers % 4 == 0, "m64nNk16 : N multiple de 8, donc N / 2 multiple de 4");
    const int thread = int(threadIdx.x) % 128;
#pragma unroll
    for (int i = 0; i < Registers; i += 2) {
        const tensor_core::AccumulatorPosition at = tensor_core::wgmma_accumulator_position(thread, i);
        update_c2(c + ((row0 + at.row) * n + col0 + at.col), acc[i], acc[i + 1], alpha, beta);
    }
}
// --8<-- [end:wgmma]

}  // namespace noyaux::gemm
