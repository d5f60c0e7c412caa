/**
 * @file
 * @brief Étape 5 de l'échelle GEMM : tuilage 2D. Chaque thread calcule un carré TM×TN de C
 *        par produits extérieurs, à partir d'une colonne de A et d'une ligne de B gardées en
 *        registres.
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/tiles.cuh"

namespace noyaux::gemm {

/**
 * @brief Paramètres de tuilage de l'étape 5 (ceux de Simon Boehm pour l'A6000) : tuiles
 *        128×128×8, un carré 8×8 de C par thread, donc 256 threads par bloc.
 */
using Blocktiling2dConfig = BlockTiling<128, 128, 8, 8, 8>;

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C par tuiles BM×BN, chaque thread calculant un carré TM×TN.
 *
 * À chaque pas de K, le thread lit TM valeurs de A et TN valeurs de B dans la mémoire
 * partagée, les range dans des registres, puis en fait le produit extérieur : TM·TN FMA pour
 * TM + TN lectures (64 pour 16 ici, contre 8 pour 9 à l'étape 4). Les TM·TN sommes partielles
 * restent dans des registres tout le long de K.
 */
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemm_2d_blocktiling([[maybe_unused]] int m, int n, int k, float alpha, const float* a,
                         const float* b, float beta, float* c) {
    constexpr int THREADS = (BM / TM) * (BN / TN);
    __shared__ float a_tile[BM * BK];  // en ligne : a_tile[ligne * BK + kk]
    __shared__ float b_tile[BK * BN];  // en ligne : b_tile[kk * BN + colonne]

    // Le carré du thread : lignes thread_row·TM + [0, TM), colonnes thread_col·TN + [0, TN).
    const int thread_row = threadIdx.x / (BN / TN);
    const int thread_col = threadIdx.x % (BN / TN);

    // Tous les indices de ces tableaux sont connus à la compilation (boucles déroulées) :
    // ils vivent dans des registres, jamais en mémoire locale.
    float results[TM * TN] = {};
    float a_values[TM];
    float b_values[TN];

    // m n'est pas lu : le lanceur garantit que la grille couvre C exactement.
    a += blockIdx.y * BM * k;
    b += blockIdx.x * BN;
    c += blockIdx.y * BM * n + blockIdx.x * BN;

    for (int tile = 0; tile < k; tile += BK) {
        // Plusieurs éléments par thread, en passes coalescentes (common/tiles.cuh).
        copy_tile<BM, BK, THREADS>(a_tile, a + tile, k);
        copy_tile<BK, BN, THREADS>(b_tile, b + tile * n, n);
        __syncthreads();

        // Déroulée elle aussi : chaque ligne de a_tile est lue pour tous les kk, à des adresses
        // contiguës que le compilateur peut alors regrouper en lectures de 128 bits.
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int i = 0; i < TM; ++i) a_values[i] = a_tile[(thread_row * TM + i) * BK + kk];
#pragma unroll
            for (int j = 0; j < TN; ++j) b_values[j] = b_tile[kk * BN + thread_col * TN + j];
            // Produit extérieur : chaque valeur lue sert TN fois (A) ou TM fois (B).
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) results[i * TN + j] += a_values[i] * b_values[j];
        }
        __syncthreads();  // la tuile suivante écrase a_tile et b_tile
    }

    update_c<TM, TN>(c + thread_row * TM * n + thread_col * TN, n, alpha, beta, results);
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/**
 * @brief L'étape 5 pour le lanceur, les tests et le benchmark communs : un bloc de 256 threads
 *        par tuile 128×128 de C, formes multiples des tuiles (TiledStep, common/kernel.cuh).
 */
struct Blocktiling2dKernel : TiledStep<Blocktiling2dKernel, Blocktiling2dConfig> {
    static constexpr const char* name = "sgemm_2d_blocktiling";  ///< nom affiché
    /** @brief Le noyau, instancié avec les paramètres de Blocktiling2dConfig. */
    static constexpr auto kernel = sgemm_2d_blocktiling<Config::block_m, Config::block_n, Config::block_k,
                                                        Config::thread_m, Config::thread_n>;
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
