/**
 * @file
 * @brief Étape 9 de l'échelle GEMM : tuilage par warp. Chaque warp calcule une tuile WM×WN
 *        de C, découpée en sous-tuiles qu'il parcourt ; chaque thread y tient TM×TN
 *        résultats par sous-tuile dans ses registres.
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/warptiling.cuh"

namespace noyaux::gemm {

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C par tuiles de bloc, de warp et de thread.
 *
 * Un bloc charge des tuiles BM×BK de A (transposée en mémoire partagée, pour lire une
 * colonne de A d'un seul tenant) et BK×BN de B, en accès de 128 bits. Un warp ne lit
 * ensuite que les lignes et colonnes de sa tuile WM×WN : ses 32 threads se partagent
 * chaque sous-tuile, TM×TN éléments chacun, si bien que les lectures de mémoire partagée
 * d'un warp portent sur peu d'adresses distinctes et que chaque valeur lue sert TN ou TM fois.
 */
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int THREADS>
__global__ void __launch_bounds__(THREADS)
    sgemm_warptiling(int m, int n, int k, float alpha, const float* __restrict__ a,
                     const float* __restrict__ b, float beta, float* __restrict__ c) {
    using Tile = WarpTile<BM, BN, WM, WN, WNITER, TM, TN>;
    static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "un warp par tuile WM×WN");
    static_assert(BK % 4 == 0 && BN % 4 == 0, "chargements de 128 bits");
    const Tile tile_of_thread(threadIdx.x);

    __shared__ float a_tile[BK * BM];  // transposée : a_tile[kk * BM + ligne]
    __shared__ float b_tile[BK * BN];

    a += blockIdx.y * BM * k;
    b += blockIdx.x * BN;
    c += (blockIdx.y * BM + tile_of_thread.warp_row * WM) * n + blockIdx.x * BN +
         tile_of_thread.warp_col * WN;

    // Chaque thread charge des float4 : quatre éléments consécutifs d'une ligne.
    const int a_row = threadIdx.x / (BK / 4), a_col = threadIdx.x % (BK / 4) * 4;
    const int b_row = threadIdx.x / (BN / 4), b_col = threadIdx.x % (BN / 4) * 4;
    constexpr int a_rows_per_pass = THREADS / (BK / 4);
    constexpr int b_rows_per_pass = THREADS / (BN / 4);

    float accumulators[Tile::ACCUMULATORS] = {};

    for (int tile = 0; tile < k; tile += BK) {
        for (int row = 0; row < BM; row += a_rows_per_pass) {
            const float4 v = *reinterpret_cast<const float4*>(&a[(a_row + row) * k + a_col]);
            a_tile[(a_col + 0) * BM + a_row + row] = v.x;
            a_tile[(a_col + 1) * BM + a_row + row] = v.y;
            a_tile[(a_col + 2) * BM + a_row + row] = v.z;
            a_tile[(a_col + 3) * BM + a_row + row] = v.w;
        }
        for (int row = 0; row < BK; row += b_rows_per_pass)
            *reinterpret_cast<float4*>(&b_tile[(b_row + row) * BN + b_col]) =
                *reinterpret_cast<const float4*>(&b[(b_row + row) * n + b_col]);
        __syncthreads();

        tile_of_thread.template multiply<BK>(a_tile, b_tile, accumulators);
        __syncthreads();  // la tuile suivante écrase a_tile et b_tile
        a += BK;
        b += BK * n;
    }

    tile_of_thread.store(c, n, alpha, beta, accumulators);
    (void)m;  // la forme est garantie multiple des tuiles par le lanceur
}
// --8<-- [end:noyau]

/** @brief L'étape 9 pour le lanceur, les tests et le benchmark communs. */
struct WarptilingKernel {
    using C = WarptilingConfig;  ///< les paramètres de tuilage
    /** @brief Le noyau instancié avec les paramètres de WarptilingConfig. */
    static constexpr auto kernel =
        sgemm_warptiling<C::block_m, C::block_n, C::block_k, C::warp_m, C::warp_n,
                         C::warp_n_iterations, C::thread_m, C::thread_n, C::threads>;
    static constexpr const char* name = "sgemm_warptiling";  ///< nom affiché
    /** @brief Multiples des tuiles de bloc : aucun bord à garder, accès de 128 bits alignés. */
    static constexpr Shape granularity{C::block_m, C::block_n, C::block_k};
    /** @brief Le noyau, pour vérifier qu'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(kernel); }

    // --8<-- [start:lancement]
    /** @brief Un bloc de 128 threads par tuile 128×128 de C. */
    static void launch(const GemmArgs& args, cudaStream_t stream) {
        check_shape<WarptilingKernel>(args.shape);
        const auto [m, n, k] = args.shape;
        const dim3 grid(n / C::block_n, m / C::block_m);
        kernel<<<grid, C::threads, 0, stream>>>(m, n, k, args.alpha, args.a, args.b, args.beta, args.c);
    }
    // --8<-- [end:lancement]
};

}  // namespace noyaux::gemm
