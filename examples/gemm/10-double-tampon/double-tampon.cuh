/**
 * @file
 * @brief Étape 10 de l'échelle GEMM : le tuilage par warp de l'étape 9, avec deux tampons
 *        de tuiles remplis par copies asynchrones, pour recouvrir chargements et calcul.
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/warptiling.cuh"

#include <cuda_pipeline_primitives.h>

namespace noyaux::gemm {

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C comme à l'étape 9, avec deux tampons de tuiles en mémoire partagée
 *        remplis par copies asynchrones (cp.async, instruction LDGSTS) : pendant qu'un warp
 *        calcule sur la tuile k, la tuile k+1 arrive déjà.
 *
 * Les copies asynchrones vont de la mémoire globale à la mémoire partagée sans passer par
 * les registres. __pipeline_commit() ferme un groupe de copies ; __pipeline_wait_prior(1)
 * attend tous les groupes sauf le plus récent, c'est-à-dire la tuile courante, mais pas la
 * suivante.
 */
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int THREADS>
__global__ void __launch_bounds__(THREADS)
    sgemm_double_buffered(int m, int n, int k, float alpha, const float* __restrict__ a,
                          const float* __restrict__ b, float beta, float* __restrict__ c) {
    using Tile = WarpTile<BM, BN, WM, WN, WNITER, TM, TN>;
    static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "un warp par tuile WM×WN");
    static_assert(BK % 4 == 0 && BN % 4 == 0, "chargements de 128 bits");
    const Tile tile_of_thread(threadIdx.x);

    __shared__ __align__(16) float a_tiles[2][BK * BM];  // transposées : [kk * BM + ligne]
    __shared__ __align__(16) float b_tiles[2][BK * BN];

    a += blockIdx.y * BM * k;
    b += blockIdx.x * BN;
    c += (blockIdx.y * BM + tile_of_thread.warp_row * WM) * n + blockIdx.x * BN +
         tile_of_thread.warp_col * WN;

    const int a_row = threadIdx.x / (BK / 4), a_col = threadIdx.x % (BK / 4) * 4;
    const int b_row = threadIdx.x / (BN / 4), b_col = threadIdx.x % (BN / 4) * 4;
    constexpr int a_rows_per_pass = THREADS / (BK / 4);
    constexpr int b_rows_per_pass = THREADS / (BN / 4);

    // Lance la copie de la tuile qui commence à la colonne k0 de A (ligne k0 de B) vers le
    // tampon stage, sans l'attendre. A est transposée élément par élément (copies de 4
    // octets) ; B garde sa disposition (copies de 16 octets).
    auto load_tiles = [&](int stage, int k0) {
        for (int row = 0; row < BM; row += a_rows_per_pass)
            for (int j = 0; j < 4; ++j)
                __pipeline_memcpy_async(&a_tiles[stage][(a_col + j) * BM + a_row + row],
                                        &a[(a_row + row) * k + k0 + a_col + j], sizeof(float));
        for (int row = 0; row < BK; row += b_rows_per_pass)
            __pipeline_memcpy_async(&b_tiles[stage][(b_row + row) * BN + b_col],
                                    &b[(k0 + b_row + row) * n + b_col], 4 * sizeof(float));
        __pipeline_commit();
    };

    float accumulators[Tile::ACCUMULATORS] = {};

    load_tiles(0, 0);
    for (int tile = 0, stage = 0; tile < k; tile += BK, stage ^= 1) {
        if (tile + BK < k) {
            load_tiles(stage ^ 1, tile + BK);  // la tuile suivante part pendant le calcul
            __pipeline_wait_prior(1);          // la tuile courante, elle, est arrivée
        } else {
            __pipeline_wait_prior(0);
        }
        __syncthreads();  // les copies des autres threads aussi

        tile_of_thread.template multiply<BK>(a_tiles[stage], b_tiles[stage], accumulators);
        __syncthreads();  // ce tampon sera réécrit par le chargement de l'itération suivante
    }

    tile_of_thread.store(c, n, alpha, beta, accumulators);
    (void)m;
}
// --8<-- [end:noyau]

/** @brief L'étape 10 pour le lanceur, les tests et le benchmark communs. */
struct DoubleBufferedKernel {
    using C = WarptilingConfig;  ///< les paramètres de l'étape 9
    /** @brief Le noyau instancié avec les paramètres de WarptilingConfig. */
    static constexpr auto kernel =
        sgemm_double_buffered<C::block_m, C::block_n, C::block_k, C::warp_m, C::warp_n,
                         C::warp_n_iterations, C::thread_m, C::thread_n, C::threads>;
    static constexpr const char* name = "sgemm_double_buffered";  ///< nom affiché
    /** @brief Multiples des tuiles de bloc : aucun bord à garder, accès de 128 bits alignés. */
    static constexpr Shape granularity{C::block_m, C::block_n, C::block_k};
    /** @brief Le noyau, pour vérifier qu'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(kernel); }

    // --8<-- [start:lancement]
    /** @brief Comme à l'étape 9 : un bloc de 128 threads par tuile 128×128 de C. */
    static void launch(const GemmArgs& args, cudaStream_t stream) {
        check_shape<DoubleBufferedKernel>(args.shape);
        const auto [m, n, k] = args.shape;
        const dim3 grid(n / C::block_n, m / C::block_m);
        kernel<<<grid, C::threads, 0, stream>>>(m, n, k, args.alpha, args.a, args.b, args.beta, args.c);
    }
    // --8<-- [end:lancement]
};

}  // namespace noyaux::gemm
