/**
 * @file
 * @brief Étape 10 de l'échelle GEMM : le tuilage par warp de l'étape 9, avec deux tampons
 *        de tuiles remplis par copies asynchrones, pour recouvrir chargements et calcul.
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/shared_accesses.cuh"
#include "gemm/common/vector_tiles.cuh"
#include "gemm/common/warptiling.cuh"

#include <cuda_pipeline_primitives.h>

namespace noyaux::gemm {

/**
 * @brief Disposition des tuiles en mémoire partagée de l'étape 10 : A rangée par lignes, pour
 *        la copier par blocs de 16 octets comme B (common/vector_tiles.cuh).
 */
template <typename Config>
using DoubleBufferedLayout =
    RowMajorALayout<Config::block_m, Config::block_n, Config::block_k, Config::thread_m>;

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
template <typename Config>
__global__ void __launch_bounds__(Config::threads)
    sgemm_double_buffered([[maybe_unused]] int m, int n, int k, float alpha,
                          const float* __restrict__ a, const float* __restrict__ b, float beta,
                          float* __restrict__ c) {
    constexpr int BM = Config::block_m, BN = Config::block_n, BK = Config::block_k;
    using Tile = WarpTileOf<Config>;
    // Qui copie quoi : les indices du chargement de l'étape 9 (common/vector_tiles.cuh).
    using Load = VectorTileLoad<BM, BN, BK, Config::threads>;
    using Layout = DoubleBufferedLayout<Config>;
    alignas(16) __shared__ float a_tiles[2][Layout::a_floats];
    alignas(16) __shared__ float b_tiles[2][Layout::b_floats];
    const Tile tile_of_thread(threadIdx.x);
    const int tid = static_cast<int>(threadIdx.x);

    a += blockIdx.y * BM * k;
    b += blockIdx.x * BN;
    c += blockIdx.y * BM * n + blockIdx.x * BN;

    // Lance la copie de la tuile qui commence à la colonne k0 de A (ligne k0 de B) vers le
    // tampon stage, sans l'attendre. A et B gardent leurs lignes (rangées selon Layout) : toutes
    // les copies font 16 octets.
    auto load_tiles = [&](int stage, int k0) {
        for (int pass = 0; pass < BM; pass += Load::a_rows_per_pass) {
            const int row = Load::a_row(tid) + pass, col = Load::a_col(tid);
            __pipeline_memcpy_async(&a_tiles[stage][Layout::a(col, row)], &a[row * k + k0 + col],
                                    4 * sizeof(float));
        }
        for (int pass = 0; pass < BK; pass += Load::b_rows_per_pass) {
            const int row = Load::b_row(tid) + pass;
            __pipeline_memcpy_async(&b_tiles[stage][Layout::b(row, Load::b_col(tid))],
                                    &b[(k0 + row) * n + Load::b_col(tid)], 4 * sizeof(float));
        }
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

        tile_of_thread.template multiply_row_major_a<Layout, BK>(a_tiles[stage], b_tiles[stage], accumulators);
        __syncthreads();  // ce tampon sera réécrit par le chargement de l'itération suivante
    }

    tile_of_thread.store(c, n, alpha, beta, accumulators);
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/**
 * @brief L'étape 10 pour le lanceur, les tests et le benchmark communs : comme à l'étape 9, un
 *        bloc de 128 threads par tuile 128×128 de C (TiledStep, common/kernel.cuh).
 */
struct DoubleBufferedKernel : TiledStep<DoubleBufferedKernel, WarptilingConfig, 16> {
    static constexpr const char* name = "sgemm_double_buffered";           ///< nom affiché
    static constexpr auto kernel = sgemm_double_buffered<WarptilingConfig>;  ///< le noyau instancié
    /** @brief Ses accès à la mémoire partagée, pour le modèle de bancs de l'étape 7. */
    using SharedAccesses = bank_model::AccessList<
        bank_model::RowMajorAStore<DoubleBufferedLayout<WarptilingConfig>, WarptilingConfig::block_m,
                      WarptilingConfig::block_n, WarptilingConfig::block_k, WarptilingConfig::threads>,
        bank_model::BStore<DoubleBufferedLayout<WarptilingConfig>, WarptilingConfig::block_m,
                      WarptilingConfig::block_n, WarptilingConfig::block_k, WarptilingConfig::threads>,
        bank_model::WarpRowMajorARead<DoubleBufferedLayout<WarptilingConfig>, WarptilingConfig>,
        bank_model::WarpBRead<DoubleBufferedLayout<WarptilingConfig>, WarptilingConfig>>;
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
