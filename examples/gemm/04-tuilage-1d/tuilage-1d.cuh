/**
 * @file
 * @brief Étape 4 de l'échelle GEMM : tuilage 1D. Chaque thread calcule TM éléments d'une
 *        même colonne de C, ce qui lui permet de garder en registre la valeur de B qu'ils
 *        partagent.
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/tiles.cuh"

namespace noyaux::gemm {

/**
 * @brief Paramètres de tuilage de l'étape 4 (ceux de Simon Boehm) : tuiles 64×64×8, 8 éléments
 *        de C par thread, l'un sous l'autre (TN = 1), donc 512 threads par bloc.
 */
using Blocktiling1dConfig = BlockTiling<64, 64, 8, 8, 1>;

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C par tuiles BM×BN, chaque thread calculant TM éléments d'une colonne.
 *
 * Les TM éléments d'un thread utilisent le même élément de B à chaque pas de K : le thread le
 * lit une fois dans la mémoire partagée, le garde dans un registre, et ne lit plus que A
 * (TM + 1 lectures de mémoire partagée pour TM FMA, contre 2 par FMA à l'étape 3). Une tuile
 * BM×BK de A et une tuile BK×BN de B contiennent chacune un élément par thread.
 */
template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__(BM * BN / TM)
    sgemm_1d_blocktiling([[maybe_unused]] int m, int n, int k, float alpha, const float* a,
                         const float* b, float beta, float* c) {
    static_assert(BM * BK == BM * BN / TM && BK * BN == BM * BN / TM,
                  "un élément de A et un élément de B par thread et par tuile");
    __shared__ float a_tile[BM * BK];  // en ligne : a_tile[ligne * BK + kk]
    __shared__ float b_tile[BK * BN];  // en ligne : b_tile[kk * BN + colonne]

    // Le thread calcule les lignes thread_row·TM à thread_row·TM + TM - 1 de la colonne
    // thread_col du bloc. Les 32 threads d'un warp ont le même thread_row.
    const int thread_col = threadIdx.x % BN;
    const int thread_row = threadIdx.x / BN;
    constexpr int THREADS = BM * BN / TM;

    // m n'est pas lu : le lanceur garantit que la grille couvre C exactement.
    a += blockIdx.y * BM * k;
    b += blockIdx.x * BN;
    c += blockIdx.y * BM * n + blockIdx.x * BN;

    float results[TM] = {};
    for (int tile = 0; tile < k; tile += BK) {
        // Un élément de A et un de B par thread (common/tiles.cuh).
        copy_tile<BM, BK, THREADS>(a_tile, a + tile, k);
        copy_tile<BK, BN, THREADS>(b_tile, b + tile * n, n);
        __syncthreads();

        for (int kk = 0; kk < BK; ++kk) {
            const float b_value = b_tile[kk * BN + thread_col];  // lu une fois, utilisé TM fois
            // Boucle déroulée : results ne reste en registres que si ses indices sont connus
            // à la compilation.
#pragma unroll
            for (int i = 0; i < TM; ++i) results[i] += a_tile[(thread_row * TM + i) * BK + kk] * b_value;
        }
        __syncthreads();  // la tuile suivante écrase a_tile et b_tile
    }

    update_c<TM, 1>(c + thread_row * TM * n + thread_col, n, alpha, beta, results);
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/**
 * @brief L'étape 4 pour le lanceur, les tests et le benchmark communs : un bloc de 512 threads
 *        par tuile 64×64 de C, formes multiples des tuiles (TiledStep, common/kernel.cuh).
 */
struct Blocktiling1dKernel : TiledStep<Blocktiling1dKernel, Blocktiling1dConfig> {
    static constexpr const char* name = "sgemm_1d_blocktiling";  ///< nom affiché
    /** @brief Le noyau, instancié avec les paramètres de Blocktiling1dConfig. */
    static constexpr auto kernel =
        sgemm_1d_blocktiling<Config::block_m, Config::block_n, Config::block_k, Config::thread_m>;
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
