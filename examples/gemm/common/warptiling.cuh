/**
 * @file
 * @brief Tuilage par warp, commun aux étapes 9 et 10 de l'échelle GEMM : les paramètres, le
 *        produit d'une tuile en registres et l'écriture de C.
 */
#pragma once

#include "vector_tiles.cuh"

namespace noyaux::gemm {

/** @brief Paramètres de tuilage des étapes 9 et 10 (ceux que Simon Boehm a retenus pour l'A6000). */
struct WarptilingConfig {
    static constexpr int block_m = 128;  ///< lignes de C par bloc
    static constexpr int block_n = 128;  ///< colonnes de C par bloc
    static constexpr int block_k = 16;   ///< profondeur d'une tuile de A et de B
    static constexpr int warp_m = 64;    ///< lignes de C par warp
    static constexpr int warp_n = 64;    ///< colonnes de C par warp
    static constexpr int warp_n_iterations = 4;  ///< sous-tuiles d'un warp dans la largeur
    static constexpr int thread_m = 8;   ///< lignes de C par thread et par sous-tuile
    static constexpr int thread_n = 4;   ///< colonnes de C par thread et par sous-tuile
    static constexpr int threads = 128;  ///< threads par bloc (4 warps)
    static_assert((block_m / warp_m) * (block_n / warp_n) * 32 == threads, "un warp par tuile WM×WN");
};

/**
 * @brief Géométrie d'un warp dans la tuile de bloc : sous-tuiles et position du thread.
 *
 * Un warp calcule une tuile WM×WN de C, parcourue en WMITER×WNITER sous-tuiles ; dans chaque
 * sous-tuile, chacun de ses 32 threads tient TM×TN résultats.
 */
template <int BM, int BN, int WM, int WN, int WNITER, int TM, int TN>
struct WarpTile {
    static constexpr int WMITER = (WM * WN) / (32 * TM * TN * WNITER);  ///< sous-tuiles en hauteur
    static constexpr int WSUBM = WM / WMITER;                            ///< hauteur d'une sous-tuile
    static constexpr int WSUBN = WN / WNITER;                            ///< largeur d'une sous-tuile
    static constexpr int ACCUMULATORS = WMITER * TM * WNITER * TN;        ///< résultats par thread
    static_assert(WSUBM % TM == 0 && WSUBN % TN == 0, "une sous-tuile se découpe en TM×TN");
    static_assert((WSUBM / TM) * (WSUBN / TN) == 32, "32 threads par sous-tuile");
    static_assert(TN % 4 == 0, "écriture de C en 128 bits");

    int warp_row;    ///< ligne du warp dans la tuile de bloc
    int warp_col;    ///< colonne du warp dans la tuile de bloc
    int thread_row;  ///< ligne du thread dans sa sous-tuile
    int thread_col;  ///< colonne du thread dans sa sous-tuile

    /** @brief Position du thread @p thread (threadIdx.x) dans la tuile. */
    __host__ __device__ constexpr explicit WarpTile(int thread)
        : warp_row(thread / 32 / (BN / WN)), warp_col(thread / 32 % (BN / WN)),
          thread_row(thread % 32 / (WSUBN / TN)), thread_col(thread % 32 % (WSUBN / TN)) {}

    /** @brief Première ligne de la tuile de bloc que lit le thread dans la sous-tuile @p wm. */
    __host__ __device__ constexpr int a_row(int wm) const {
        return warp_row * WM + wm * WSUBM + thread_row * TM;
    }
    /** @brief Première colonne de la tuile de bloc que lit le thread dans la sous-tuile @p wn. */
    __host__ __device__ constexpr int b_col(int wn) const {
        return warp_col * WN + wn * WSUBN + thread_col * TN;
    }

    // --8<-- [start:produit]
    /**
     * @brief Accumule le produit d'une tuile BK de A (transposée, élément (kk, ligne) en
     *        a_tile[Layout::a(kk, ligne)]) par une tuile BK de B (b_tile[Layout::b(kk, colonne)])
     *        dans les registres du thread ; toutes les lectures font 128 bits.
     */
    template <typename Layout, int BK>
    __device__ void multiply(const float* a_tile, const float* b_tile, float* accumulators) const {
        static_assert(TM % 4 == 0 && TN % 4 == 0, "valeurs lues par float4");
        // Déroulée explicitement : sans la directive, nvcc 13.0 laisse cette boucle roulée (pour
        // sm_90a), et ses compteurs et branchements s'exécutent BK fois par tuile. Déroulée, elle
        // prend plus de 200 registres par thread : 8 warps par SM au lieu de 12 ; les plafonner
        // à 168 (__launch_bounds__(128, 3)) fait déborder les registres en mémoire locale.
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a_values[WMITER * TM];
            float b_values[WNITER * TN];
#pragma unroll
            for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
                for (int i = 0; i < TM; i += 4)
                    unpack4(load4(&a_tile[Layout::a(kk, a_row(wm) + i)]), &a_values[wm * TM + i]);
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (int j = 0; j < TN; j += 4)
                    unpack4(load4(&b_tile[Layout::b(kk, b_col(wn) + j)]), &b_values[wn * TN + j]);
            // Produit extérieur : chaque valeur chargée sert TN (ou TM) fois.
#pragma unroll
            for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
                for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                    for (int i = 0; i < TM; ++i)
#pragma unroll
                        for (int j = 0; j < TN; ++j)
                            accumulators[(wm * TM + i) * (WNITER * TN) + wn * TN + j] +=
                                a_values[wm * TM + i] * b_values[wn * TN + j];
        }
    }
    // --8<-- [end:produit]

    // --8<-- [start:produit-lignes]
    /**
     * @brief Comme multiply, mais A rangée par lignes (élément (kk, ligne) en
     *        a_tile[Layout::a(kk, ligne)], 4 valeurs de kk consécutives contiguës), telle que
     *        la déposent des copies asynchrones de 16 octets : chaque float4 lu de A porte
     *        4 pas kk d'une ligne, et sert aux 4 pas suivants.
     */
    template <typename Layout, int BK>
    __device__ void multiply_row_major_a(const float* a_tile, const float* b_tile,
                                         float* accumulators) const {
        static_assert(BK % 4 == 0 && TN % 4 == 0, "valeurs lues par float4");
#pragma unroll
        for (int k4 = 0; k4 < BK; k4 += 4) {
            float a_values[WMITER * TM][4];  // 4 pas kk de chaque ligne du thread
#pragma unroll
            for (int wm = 0; wm < WMITER; ++wm) {
                // Les TM lignes d'un thread ont la même permutation (Layout::a, ROWS = TM) : leurs
                // blocs sont à BK flottants l'un de l'autre, des décalages constants.
                const float* rows = &a_tile[Layout::a(k4, a_row(wm))];
#pragma unroll
                for (int i = 0; i < TM; ++i) unpack4(load4(rows + i * BK), a_values[wm * TM + i]);
            }
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
                float b_values[WNITER * TN];
#pragma unroll
                for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                    for (int j = 0; j < TN; j += 4)
                        unpack4(load4(&b_tile[Layout::b(k4 + kk, b_col(wn) + j)]), &b_values[wn * TN + j]);
#pragma unroll
                for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
                    for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                        for (int i = 0; i < TM; ++i)
#pragma unroll
                            for (int j = 0; j < TN; ++j)
                                accumulators[(wm * TM + i) * (WNITER * TN) + wn * TN + j] +=
                                    a_values[wm * TM + i][kk] * b_values[wn * TN + j];
            }
        }
    }
    // --8<-- [end:produit-lignes]

    // --8<-- [start:epilogue]
    /**
     * @brief C ← α·accumulateurs + β·C pour les éléments du thread, lus et écrits par float4
     *        (update_c4, common/vector_tiles.cuh) ; @p c pointe sur le coin de la tuile du
     *        bloc, @p n est la largeur de C.
     */
    __device__ void store(float* c, int n, float alpha, float beta, const float* accumulators) const {
        c += warp_row * WM * n + warp_col * WN;  // le coin de la tuile du warp
#pragma unroll
        for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
                update_c4<TM, TN, WNITER * TN>(
                    &c[(wm * WSUBM + thread_row * TM) * n + wn * WSUBN + thread_col * TN], n, alpha,
                    beta, &accumulators[wm * TM * (WNITER * TN) + wn * TN]);
    }
    // --8<-- [end:epilogue]
};

/** @brief La géométrie de warp d'une configuration comme WarptilingConfig. */
template <typename Config>
using WarpTileOf = WarpTile<Config::block_m, Config::block_n, Config::warp_m, Config::warp_n,
                            Config::warp_n_iterations, Config::thread_m, Config::thread_n>;

}  // namespace noyaux::gemm
