/**
 * @file
 * @brief Étape 9 de l'échelle GEMM : tuilage par warp. Chaque warp calcule une tuile WM×WN
 *        de C, découpée en sous-tuiles qu'il parcourt ; chaque thread y tient TM×TN
 *        résultats par sous-tuile dans ses registres.
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/shared_accesses.cuh"
#include "gemm/common/vector_tiles.cuh"
#include "gemm/common/warptiling.cuh"

namespace noyaux::gemm {

/**
 * @brief Disposition des tuiles en mémoire partagée de l'étape 9 : A transposée et permutée,
 *        sans conflit de banc à l'écriture (quatre threads par ligne de A, BK = 16).
 */
template <typename Config>
using WarptilingLayout = SwizzledLayout<Config::block_m, Config::block_n, Config::block_k>;

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
template <typename Config>
__global__ void __launch_bounds__(Config::threads)
    sgemm_warptiling([[maybe_unused]] int m, int n, int k, float alpha, const float* __restrict__ a,
                     const float* __restrict__ b, float beta, float* __restrict__ c) {
    constexpr int BM = Config::block_m, BN = Config::block_n, BK = Config::block_k;
    using Layout = WarptilingLayout<Config>;  // A transposée et permutée
    alignas(16) __shared__ float a_tile[Layout::a_floats];
    alignas(16) __shared__ float b_tile[Layout::b_floats];
    const WarpTileOf<Config> tile_of_thread(threadIdx.x);

    a += blockIdx.y * BM * k;
    b += blockIdx.x * BN;
    c += blockIdx.y * BM * n + blockIdx.x * BN;

    float accumulators[WarpTileOf<Config>::ACCUMULATORS] = {};
    for (int tile = 0; tile < k; tile += BK) {
        // Des float4, A transposée en passant (VectorTileLoad, common/vector_tiles.cuh).
        VectorTileLoad<BM, BN, BK, Config::threads>::template load<Layout>(a + tile, k, b + tile * n,
                                                                          n, a_tile, b_tile);
        __syncthreads();

        tile_of_thread.template multiply<Layout, BK>(a_tile, b_tile, accumulators);
        __syncthreads();  // la tuile suivante écrase a_tile et b_tile
    }

    tile_of_thread.store(c, n, alpha, beta, accumulators);
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/**
 * @brief L'étape 9 pour le lanceur, les tests et le benchmark communs : un bloc de 128 threads
 *        par tuile 128×128 de C, A, B et C alignées pour les float4 (TiledStep, common/kernel.cuh).
 */
struct WarptilingKernel : TiledStep<WarptilingKernel, WarptilingConfig, 16> {
    static constexpr const char* name = "sgemm_warptiling";           ///< nom affiché
    static constexpr auto kernel = sgemm_warptiling<WarptilingConfig>;  ///< le noyau instancié
    /** @brief Ses accès à la mémoire partagée, pour le modèle de bancs de l'étape 7. */
    using SharedAccesses = bank_model::AccessList<
        bank_model::TransposedAStore<WarptilingLayout<WarptilingConfig>, WarptilingConfig::block_m,
                      WarptilingConfig::block_n, WarptilingConfig::block_k, WarptilingConfig::threads>,
        bank_model::BStore<WarptilingLayout<WarptilingConfig>, WarptilingConfig::block_m,
                      WarptilingConfig::block_n, WarptilingConfig::block_k, WarptilingConfig::threads>,
        bank_model::WarpTransposedARead<WarptilingLayout<WarptilingConfig>, WarptilingConfig>,
        bank_model::WarpBRead<WarptilingLayout<WarptilingConfig>, WarptilingConfig>>;
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
