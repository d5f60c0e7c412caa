/**
 * @file
 * @brief Étape 14 de l'échelle GEMM, la première propre à Hopper (sm_90a) : les tuiles de A et
 *        de B arrivent en mémoire partagée par la TMA (une instruction par tuile, décrite par une
 *        tensor map encodée sur l'hôte), leur arrivée s'attend sur un mbarrier, et un seul
 *        warpgroup (128 threads) les multiplie par wgmma m64n128k16, qui lit ses deux opérandes
 *        directement en mémoire partagée. Tuile 128×128×64, pipeline de 3 étages, permutation
 *        (swizzle) de 128 octets. A et B en bf16, C et l'accumulation en fp32.
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/tma_wgmma.cuh"

#include <cuda.h>

#include <cstddef>
#include <tuple>

namespace noyaux::gemm {

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C, A (M×K) et B (K×N) en bf16 décrites par @p map_a et @p map_b, C
 *        (M×N) en fp32, tout en ligne. M et N multiples de 128, K multiple de 64.
 *
 * Un bloc par tuile de C : le thread 0 initialise les mbarrier et émet les premières copies
 * TMA, tout le warpgroup calcule la tuile (common/tma_wgmma.cuh), puis l'écrit.
 */
__global__ void __launch_bounds__(TmaWgmmaConfig::threads)
    gemm_tma_wgmma_bf16(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                        int n, int k, float alpha, float beta, float* __restrict__ c) {
#if NOYAUX_HAS_WGMMA
    using C = TmaWgmmaConfig;
    using namespace tma_wgmma;
    extern __shared__ unsigned char shared_raw[];
    __shared__ std::uint64_t full[C::stages];
    Pipeline pipeline = make_pipeline(shared_raw, full, &map_a, &map_b);
    const int m0 = int(blockIdx.y) * C::block_m, n0 = int(blockIdx.x) * C::block_n;
    const int steps = k / C::block_k;
    if (threadIdx.x == 0) {
        init_barriers(pipeline);
        load_prologue(pipeline, m0, n0, steps);
    }
    __syncthreads();  // les mbarrier sont initialisés avant que quiconque les attende

    Accumulator acc;
    compute_tile(pipeline, m0, n0, steps, acc);
    store_tile(acc, m0, n0, n, alpha, beta, c);
#else
    __trap();  // wgmma n'existe que pour sm_90a : le programme refuse ce GPU avant tout lancement
#endif
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/**
 * @brief L'étape 14 pour le lanceur, les tests et le benchmark communs : une grille de tuiles
 *        128×128 de C, un warpgroup par bloc, 97 Kio de mémoire partagée dynamique. Les tensor
 *        maps de A et de B sont encodées sur l'hôte (une fois par jeu de matrices) et passées
 *        par valeur (`__grid_constant__`) ; la TMA exige A et B alignées sur 16 octets.
 */
struct TmaWgmmaKernel : TmaWgmmaStep<TmaWgmmaKernel, TmaWgmmaConfig> {
    static constexpr const char* name = "gemm_tma_wgmma_bf16";  ///< nom affiché
    static constexpr auto kernel = gemm_tma_wgmma_bf16;         ///< le noyau lancé

    /** @brief Les arguments du noyau : les tensor maps de A (boîte 128 × 64) et de B (boîte 64 × 64). */
    static auto kernel_arguments(const GemmArgsOf<bf16>& args) {
        const auto [map_a, map_b] = tma_wgmma::operand_maps(args);
        return std::make_tuple(map_a, map_b, args.shape.n, args.shape.k, args.alpha, args.beta, args.c);
    }
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
