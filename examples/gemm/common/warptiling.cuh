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
    __device__ explicit WarpTile(int thread)
        : warp_row(thread / 32 / (BN / WN)), warp_col(thread / 32 % (BN / WN)),
          thread_row(thread % 32 / (WSUBN / TN)), thread_col(thread % 32 % (WSUBN / TN)) {}

    // --8<-- [start:produit]
    /**
     * @brief Accumule le produit d'une tuile BK de A (transposée : a_tile[kk * BM + ligne])
     *        par une tuile BK de B (b_tile[kk * BN + colonne]) dans les registres du thread.
     */
    template <int BK>
    __device__ void multiply(const float* a_tile, const float* b_tile, float* accumulators) const {
        float a_values[WMITER * TM];
        float b_values[WNITER * TN];
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
                for (int i = 0; i < TM; ++i)
                    a_values[wm * TM + i] =
                        a_tile[kk * BM + warp_row * WM + wm * WSUBM + thread_row * TM + i];
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    b_values[wn * TN + j] =
                        b_tile[kk * BN + warp_col * WN + wn * WSUBN + thread_col * TN + j];
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
