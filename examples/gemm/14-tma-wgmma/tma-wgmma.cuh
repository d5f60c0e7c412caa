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

#include "gemm/common/hopper.cuh"
#include "gemm/common/kernel.cuh"
#include "gemm/common/tma_host.cuh"
#include "gemm/common/wgmma_descriptor.hpp"

#include <cuda.h>
#include <cuda_bf16.h>

#include <cstddef>
#include <cstdint>
#include <tuple>

namespace noyaux::gemm {

// --8<-- [start:parametres]
/** @brief Les tailles de l'étape 14. */
struct TmaWgmmaConfig {
    static constexpr int block_m = 128;  ///< lignes de C par bloc : deux wgmma de 64 lignes
    static constexpr int block_n = 128;  ///< colonnes de C par bloc : le N du wgmma
    static constexpr int block_k = 64;   ///< profondeur d'un étage : 64 bf16, une ligne de 128 octets
    static constexpr int stages = 3;     ///< étages du pipeline : tuiles en vol pendant le calcul
    static constexpr int threads = 128;  ///< un warpgroup : quatre warps
    static constexpr int wgmma_m = 64;   ///< lignes d'un wgmma
    static constexpr int wgmma_k = 16;   ///< profondeur d'un wgmma bf16
    static constexpr int box_cols = 64;  ///< colonnes d'une boîte TMA : 128 octets, la largeur de la permutation
    static constexpr int a_bytes = block_m * block_k * 2;       ///< tuile de A : une boîte 128 × 64
    static constexpr int b_box_bytes = block_k * box_cols * 2;  ///< une boîte de B : 64 × 64
    static constexpr int b_bytes = block_k * block_n * 2;       ///< tuile de B : deux boîtes côte à côte en N
    static constexpr int stage_bytes = a_bytes + b_bytes;       ///< octets qu'attend le mbarrier d'un étage
    /** @brief Mémoire partagée dynamique : les étages, plus de quoi aligner le début sur 1 024 octets. */
    static constexpr std::size_t shared_bytes = std::size_t(stages) * stage_bytes + 1024;
};
static_assert(TmaWgmmaConfig::block_k * 2 == 128, "une ligne de tuile = une ligne de la permutation de 128 octets");
static_assert(TmaWgmmaConfig::a_bytes % 1024 == 0 && TmaWgmmaConfig::b_box_bytes % 1024 == 0,
              "chaque boîte commence sur un atome de permutation (1 024 octets)");
static_assert(TmaWgmmaConfig::block_m == 2 * TmaWgmmaConfig::wgmma_m, "deux wgmma de 64 lignes par étage");
// --8<-- [end:parametres]

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C, A (M×K) et B (K×N) en bf16 décrites par @p map_a et @p map_b, C
 *        (M×N) en fp32, tout en ligne. M et N multiples de 128, K multiple de 64.
 *
 * Le thread 0 émet les copies TMA ; tout le warpgroup attend chaque étage sur son mbarrier
 * (« plein »), lance 8 wgmma dessus (2 moitiés de M × 4 pas de K), puis, une fois terminés ceux
 * de l'étage précédent, le thread 0 y recharge la tuile qui vient trois étages plus loin.
 */
__global__ void __launch_bounds__(TmaWgmmaConfig::threads)
    gemm_tma_wgmma_bf16(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                        int n, int k, float alpha, float beta, float* __restrict__ c) {
#if NOYAUX_HAS_WGMMA
    using C = TmaWgmmaConfig;
    using namespace hopper;
    extern __shared__ unsigned char shared_raw[];
    __shared__ std::uint64_t full[C::stages];  // un mbarrier par étage : « ses octets sont arrivés »
    // La permutation de 128 octets se lit sur les bits de l'adresse : chaque boîte commence
    // sur 1 024 octets (la place en est prévue dans shared_bytes).
    unsigned char* const tiles = shared_raw + (1024 - shared_address(shared_raw) % 1024) % 1024;
    const auto a_tile = [&](int s) { return tiles + s * C::stage_bytes; };
    const auto b_tile = [&](int s) { return tiles + s * C::stage_bytes + C::a_bytes; };

    const int m0 = int(blockIdx.y) * C::block_m, n0 = int(blockIdx.x) * C::block_n;
    const int steps = k / C::block_k;
    // Une tuile de A (128 lignes × 64 de K) et deux boîtes de B (64 de K × 64 colonnes) par étage.
    const auto load = [&](int step) {
        const int s = step % C::stages;
        mbarrier_arrive_expect_tx(&full[s], C::stage_bytes);
        tma_load_2d(a_tile(s), &map_a, &full[s], step * C::block_k, m0);
        for (int box = 0; box < C::block_n / C::box_cols; ++box)
            tma_load_2d(b_tile(s) + box * C::b_box_bytes, &map_b, &full[s], n0 + box * C::box_cols, step * C::block_k);
    };
    if (threadIdx.x == 0) {
        for (int s = 0; s < C::stages; ++s) mbarrier_init(&full[s], 1);  // une arrivée : celle du thread 0
        fence_mbarrier_init();
        fence_proxy_async();
        for (int step = 0; step < C::stages && step < steps; ++step) load(step);
    }
    __syncthreads();  // les mbarrier sont initialisés avant que quiconque les attende

    float acc[2][64] = {};  // deux moitiés de M, 64 × 128 fp32 chacune, 64 registres par thread
    for (int step = 0; step < steps; ++step) {
        const int s = step % C::stages;
        mbarrier_wait(&full[s], (step / C::stages) % 2);  // la phase de parité alterne à chaque tour
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < C::block_k / C::wgmma_k; ++kk) {
            // B est N-majeur (N contigu) : transposée pour wgmma (imm-trans-b = 1).
            const std::uint64_t desc_b =
                wgmma::mn_major_128b(shared_address(b_tile(s)) + wgmma::mn_major_step_offset(kk), C::b_box_bytes);
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const std::uint64_t desc_a = wgmma::k_major_128b(
                    shared_address(a_tile(s)) + half * C::wgmma_m * 128 + wgmma::k_major_step_offset(kk));
                wgmma_m64n128k16<1>(acc[half], desc_a, desc_b, 1);  // D += A·B
            }
        }
        wgmma_commit_group();
        // Les wgmma de l'étage précédent sont finis (ceux-ci restent en vol) ; la barrière
        // garantit que ceux des quatre warps le sont avant que la TMA n'écrase cet étage.
        wgmma_wait_group<1>();
        __syncthreads();
        if (threadIdx.x == 0 && step > 0 && step - 1 + C::stages < steps) load(step - 1 + C::stages);
    }
    wgmma_wait_group<0>();

    // Épilogue : l'accumulateur i de la lane l du warp w est à la ligne 16w + l/4 + 8·((i/2) mod 2),
    // colonne 8·(i/4) + 2·(l mod 4) + (i mod 2) ; deux colonnes voisines, écrites ensemble.
    // Avec β = 0, C n'est jamais lu (sémantique BLAS).
    const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
#pragma unroll
    for (int half = 0; half < 2; ++half)
#pragma unroll
        for (int i = 0; i < 64; i += 2) {
            const int row = m0 + half * C::wgmma_m + 16 * warp + lane / 4 + 8 * ((i / 2) % 2);
            const int col = n0 + 8 * (i / 4) + 2 * (lane % 4);
            float2* out = reinterpret_cast<float2*>(c + row * n + col);
            float2 value = make_float2(alpha * acc[half][i], alpha * acc[half][i + 1]);
            if (beta != 0.0f) {
                const float2 old = *out;
                value.x += beta * old.x;
                value.y += beta * old.y;
            }
            *out = value;
        }
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
struct TmaWgmmaKernel : TiledStep<TmaWgmmaKernel, TmaWgmmaConfig, 16, bf16> {
    static constexpr const char* name = "gemm_tma_wgmma_bf16";  ///< nom affiché
    static constexpr auto kernel = gemm_tma_wgmma_bf16;         ///< le noyau lancé
    /** @brief Mémoire partagée dynamique : au-delà de 48 Kio, demandée au runtime. */
    static constexpr std::size_t shared_bytes = TmaWgmmaConfig::shared_bytes;
    static constexpr int minimum_architecture = 90;                         ///< wgmma : sm_90a
    static constexpr const char* architecture_feature = "wgmma et la TMA";  ///< pour le message de refus

    /** @brief Les arguments du noyau : les tensor maps de A (boîte 128 × 64) et de B (boîte 64 × 64). */
    static auto kernel_arguments(const GemmArgsOf<bf16>& args) {
        using C = TmaWgmmaConfig;
        const auto [m, n, k] = args.shape;
        const auto address = [](const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); };
        const auto map = [](std::uint64_t rows, std::uint64_t cols, std::uint32_t box_rows, std::uint32_t box_cols,
                            std::uintptr_t base) {
            return tma::encode_cached(
                tma::operand_map(rows, cols, cols, 2, box_rows, box_cols, tma::Swizzle::bytes128, base));
        };
        const CUtensorMap map_a = map(m, k, C::block_m, C::block_k, address(args.a));   // A : M × K, K contigu
        const CUtensorMap map_b = map(k, n, C::block_k, C::box_cols, address(args.b));  // B : K × N, N contigu
        return std::make_tuple(map_a, map_b, n, k, args.alpha, args.beta, args.c);
    }
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
