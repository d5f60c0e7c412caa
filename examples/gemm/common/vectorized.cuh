/**
 * @file
 * @brief Le corps du noyau des étapes 6, 7 et 8 de l'échelle GEMM : tuilage 2D en accès de
 *        128 bits, paramétré par les tailles de tuiles et par la disposition des tuiles en
 *        mémoire partagée. L'étape 6 l'instancie avec A transposée, l'étape 7 avec une
 *        disposition sans conflit de banc, l'étape 8 avec chaque configuration balayée.
 */
#pragma once

#include "kernel.cuh"
#include "vector_tiles.cuh"

namespace noyaux::gemm {

// --8<-- [start:parametres]
/**
 * @brief Paramètres des étapes 6 et 7 : ceux de l'étape 5. Tuiles 128×128 de C par bloc,
 *        tranches de K de 8, un carré 8×8 de C par thread : 256 threads par bloc.
 */
using VectorizedConfig = BlockTiling<128, 128, 8, 8, 8>;
// --8<-- [end:parametres]

/** @brief La disposition de l'étape 6 : A transposée en lignes de 128 flottants, B telle quelle. */
using PlainLayout = TransposedLayout<VectorizedConfig::block_m, VectorizedConfig::block_n,
                                     VectorizedConfig::block_k>;

/** @brief Threads d'un bloc : un par carré TM×TN de la tuile BM×BN de C. */
template <int BM, int BN, int TM, int TN>
inline constexpr int vectorized_threads = (BM / TM) * (BN / TN);

/** @brief Première ligne, dans la tuile de C, du carré TM×TN que calcule le thread @p tid. */
template <int BN, int TM, int TN>
__host__ __device__ constexpr int square_row(int tid) { return tid / (BN / TN) * TM; }

/** @brief Première colonne, dans la tuile de C, du carré TM×TN que calcule le thread @p tid. */
template <int BN, int TN>
__host__ __device__ constexpr int square_col(int tid) { return tid % (BN / TN) * TN; }

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C pour la tuile BM×BN de C du bloc ; chaque thread en calcule un
 *        carré TM×TN, et tous les accès à la mémoire font 128 bits.
 *
 * Par tranche de K : un LDG.128 de A et un de B par thread et par passe, A transposée en
 * mémoire partagée par quatre écritures de 32 bits, B recopiée par STS.128 (VectorTileLoad) ;
 * puis, à chaque pas kk, TM/4 + TN/4 LDS.128 et TM·TN FMA (multiply_slice). C est lue et
 * écrite par float4 (update_c4). Toutes les tailles sont des multiples des tuiles : aucun bord.
 */
template <int BM, int BN, int BK, int TM, int TN, typename Layout>
__device__ __forceinline__ void vectorized_block_gemm(int n, int k, float alpha,
                                                      const float* __restrict__ a,
                                                      const float* __restrict__ b, float beta,
                                                      float* __restrict__ c) {
    using Load = VectorTileLoad<BM, BN, BK, vectorized_threads<BM, BN, TM, TN>>;
    // float4 exige des adresses multiples de 16 octets, en mémoire partagée aussi.
    alignas(16) __shared__ float a_tile[Layout::a_floats];
    alignas(16) __shared__ float b_tile[Layout::b_floats];

    const int tid = static_cast<int>(threadIdx.x);
    const int c_row = square_row<BN, TM, TN>(tid), c_col = square_col<BN, TN>(tid);
    a += static_cast<int>(blockIdx.y) * BM * k;
    b += static_cast<int>(blockIdx.x) * BN;
    c += static_cast<int>(blockIdx.y) * BM * n + static_cast<int>(blockIdx.x) * BN;

    float acc[TM * TN] = {};
    for (int tile = 0; tile < k; tile += BK) {
        Load::template load<Layout>(a + tile, k, b + tile * n, n, a_tile, b_tile);
        __syncthreads();
        multiply_slice<Layout, BK, TM, TN>(a_tile, b_tile, c_row, c_col, acc);
        __syncthreads();  // la tranche suivante écrase les tuiles : tout le bloc doit avoir fini
    }
    update_c4<TM, TN>(c + c_row * n + c_col, n, alpha, beta, acc);
}
// --8<-- [end:noyau]

}  // namespace noyaux::gemm
