/**
 * @file
 * @brief Étape 4 de l'échelle GEMM : tuilage 1D. Chaque thread calcule TM éléments d'une
 *        même colonne de C, ce qui lui permet de garder en registre la valeur de B qu'ils
 *        partagent.
 */
#pragma once

#include "gemm/common/kernel.cuh"

namespace noyaux::gemm {

/** @brief Paramètres de tuilage de l'étape 4 (ceux de Simon Boehm). */
struct Blocktiling1dConfig {
    static constexpr int block_m = 64;  ///< lignes de C par bloc
    static constexpr int block_n = 64;  ///< colonnes de C par bloc
    static constexpr int block_k = 8;   ///< profondeur des tuiles de A et de B
    static constexpr int thread_m = 8;  ///< éléments de C par thread, l'un sous l'autre
    static constexpr int threads = block_m * block_n / thread_m;  ///< threads par bloc (512)
};

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
    // L'élément que le thread copie dans chaque tuile : des threads voisins copient des
    // éléments voisins d'une même ligne, et leurs lectures coalescent.
    const int a_row = threadIdx.x / BK, a_col = threadIdx.x % BK;
    const int b_row = threadIdx.x / BN, b_col = threadIdx.x % BN;

    // m n'est pas lu : le lanceur garantit que la grille couvre C exactement.
    const int first_row = blockIdx.y * BM;
    const int first_col = blockIdx.x * BN;

    float results[TM] = {};
    for (int tile = 0; tile < k; tile += BK) {
        a_tile[a_row * BK + a_col] = a[(first_row + a_row) * k + tile + a_col];
        b_tile[b_row * BN + b_col] = b[(tile + b_row) * n + first_col + b_col];
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

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        float& out = c[(first_row + thread_row * TM + i) * n + first_col + thread_col];
        out = alpha * results[i] + beta * out;
    }
}
// --8<-- [end:noyau]

/** @brief L'étape 4 pour le lanceur, les tests et le benchmark communs. */
struct Blocktiling1dKernel {
    using Config = Blocktiling1dConfig;  ///< les tailles de tuiles
    /** @brief Le noyau, instancié avec les paramètres de Blocktiling1dConfig. */
    static constexpr auto kernel =
        sgemm_1d_blocktiling<Config::block_m, Config::block_n, Config::block_k, Config::thread_m>;
    static constexpr const char* name = "sgemm_1d_blocktiling";  ///< nom affiché
    /** @brief Multiples des tuiles : les chargements et les écritures n'ont aucun bord à garder. */
    static constexpr Shape granularity{Config::block_m, Config::block_n, Config::block_k};
    /** @brief Le noyau, pour vérifier qu'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(kernel); }

    // --8<-- [start:lancement]
    /** @brief Un bloc de 512 threads par tuile 64×64 de C. */
    static void launch(const GemmArgs& args, cudaStream_t stream) {
        check_shape<Blocktiling1dKernel>(args.shape);
        const auto [m, n, k] = args.shape;
        const dim3 grid(n / Config::block_n, m / Config::block_m);
        kernel<<<grid, Config::threads, 0, stream>>>(m, n, k, args.alpha, args.a, args.b, args.beta,
                                                     args.c);
    }
    // --8<-- [end:lancement]
};

}  // namespace noyaux::gemm
