/**
 * @file
 * @brief Étape 5 de l'échelle GEMM : tuilage 2D. Chaque thread calcule un carré TM×TN de C
 *        par produits extérieurs, à partir d'une colonne de A et d'une ligne de B gardées en
 *        registres.
 */
#pragma once

#include "gemm/common/kernel.cuh"

namespace noyaux::gemm {

/** @brief Paramètres de tuilage de l'étape 5 (ceux de Simon Boehm pour l'A6000). */
struct Blocktiling2dConfig {
    static constexpr int block_m = 128;  ///< lignes de C par bloc
    static constexpr int block_n = 128;  ///< colonnes de C par bloc
    static constexpr int block_k = 8;    ///< profondeur des tuiles de A et de B
    static constexpr int thread_m = 8;   ///< lignes de C par thread
    static constexpr int thread_n = 8;   ///< colonnes de C par thread
    /** @brief Threads par bloc (256) : un par carré TM×TN de la tuile de C. */
    static constexpr int threads = (block_m / thread_m) * (block_n / thread_n);
};

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
    // Chaque thread copie plusieurs éléments par tuile, une passe de lignes après l'autre ;
    // dans une passe, des threads voisins lisent des éléments voisins (accès coalescents).
    constexpr int a_rows_per_pass = THREADS / BK;
    constexpr int b_rows_per_pass = THREADS / BN;
    static_assert(THREADS % BK == 0 && BM % a_rows_per_pass == 0, "tuile de A : passes entières");
    static_assert(THREADS % BN == 0 && BK % b_rows_per_pass == 0, "tuile de B : passes entières");

    __shared__ float a_tile[BM * BK];  // en ligne : a_tile[ligne * BK + kk]
    __shared__ float b_tile[BK * BN];  // en ligne : b_tile[kk * BN + colonne]

    // Le carré du thread : lignes thread_row·TM + [0, TM), colonnes thread_col·TN + [0, TN).
    const int thread_row = threadIdx.x / (BN / TN);
    const int thread_col = threadIdx.x % (BN / TN);
    const int a_row = threadIdx.x / BK, a_col = threadIdx.x % BK;
    const int b_row = threadIdx.x / BN, b_col = threadIdx.x % BN;

    // m n'est pas lu : le lanceur garantit que la grille couvre C exactement.
    const int first_row = blockIdx.y * BM;
    const int first_col = blockIdx.x * BN;

    // Tous les indices de ces tableaux sont connus à la compilation (boucles déroulées) :
    // ils vivent dans des registres, jamais en mémoire locale.
    float results[TM][TN] = {};
    float a_values[TM];
    float b_values[TN];

    for (int tile = 0; tile < k; tile += BK) {
        for (int row = 0; row < BM; row += a_rows_per_pass)
            a_tile[(a_row + row) * BK + a_col] = a[(first_row + a_row + row) * k + tile + a_col];
        for (int row = 0; row < BK; row += b_rows_per_pass)
            b_tile[(b_row + row) * BN + b_col] = b[(tile + b_row + row) * n + first_col + b_col];
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
                for (int j = 0; j < TN; ++j) results[i][j] += a_values[i] * b_values[j];
        }
        __syncthreads();  // la tuile suivante écrase a_tile et b_tile
    }

#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            float& out = c[(first_row + thread_row * TM + i) * n + first_col + thread_col * TN + j];
            out = alpha * results[i][j] + beta * out;
        }
}
// --8<-- [end:noyau]

/** @brief L'étape 5 pour le lanceur, les tests et le benchmark communs. */
struct Blocktiling2dKernel {
    using Config = Blocktiling2dConfig;  ///< les tailles de tuiles
    /** @brief Le noyau, instancié avec les paramètres de Blocktiling2dConfig. */
    static constexpr auto kernel = sgemm_2d_blocktiling<Config::block_m, Config::block_n, Config::block_k,
                                                        Config::thread_m, Config::thread_n>;
    static constexpr const char* name = "sgemm_2d_blocktiling";  ///< nom affiché
    /** @brief Multiples des tuiles : les chargements et les écritures n'ont aucun bord à garder. */
    static constexpr Shape granularity{Config::block_m, Config::block_n, Config::block_k};
    /** @brief Le noyau, pour vérifier qu'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(kernel); }

    // --8<-- [start:lancement]
    /** @brief Un bloc de 256 threads par tuile 128×128 de C. */
    static void launch(const GemmArgs& args, cudaStream_t stream) {
        check_shape<Blocktiling2dKernel>(args.shape);
        const auto [m, n, k] = args.shape;
        const dim3 grid(n / Config::block_n, m / Config::block_m);
        kernel<<<grid, Config::threads, 0, stream>>>(m, n, k, args.alpha, args.a, args.b, args.beta,
                                                     args.c);
    }
    // --8<-- [end:lancement]
};

}  // namespace noyaux::gemm
