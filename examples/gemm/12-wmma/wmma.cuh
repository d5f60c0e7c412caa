/**
 * @file
 * @brief Étape 12 de l'échelle GEMM, la première sur les Tensor Cores : A et B en bf16, C et
 *        l'accumulation en fp32, par l'API `nvcuda::wmma` (fragments 16×16×16). Chaque bloc de
 *        4 warps calcule une tuile 64×64 de C ; chaque warp, un carré 32×32 fait de 2×2
 *        fragments d'accumulateurs. A et B passent par la mémoire partagée, par copies de
 *        16 octets, comme aux étapes SIMT.
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/vector_tiles.cuh"

#include <cuda_bf16.h>
#include <mma.h>

#include <cstdint>

namespace noyaux::gemm {

// --8<-- [start:parametres]
/** @brief Les tailles de l'étape 12. */
struct WmmaConfig {
    static constexpr int block_m = 64;   ///< lignes de C par bloc
    static constexpr int block_n = 64;   ///< colonnes de C par bloc
    static constexpr int block_k = 32;   ///< profondeur d'une tranche de A et de B
    static constexpr int fragment = 16;  ///< côté d'un fragment wmma (m16n16k16)
    static constexpr int warp_m = 32;    ///< lignes de C par warp : 2 fragments
    static constexpr int warp_n = 32;    ///< colonnes de C par warp : 2 fragments
    /** @brief Warps par bloc : un par carré 32×32 de la tuile. */
    static constexpr int warps = (block_m / warp_m) * (block_n / warp_n);
    static constexpr int threads = 32 * warps;  ///< threads par bloc
    /**
     * @brief Marge de 8 bf16 (16 octets) au bout de chaque ligne en mémoire partagée : les
     *        lignes d'un fragment ne commencent plus toutes sur les mêmes bancs, et chaque
     *        fragment reste aligné sur 32 octets, ce qu'exige load_matrix_sync.
     */
    static constexpr int padding = 8;
    static constexpr int a_stride = block_k + padding;  ///< bf16 par ligne de la tuile de A
    static constexpr int b_stride = block_n + padding;  ///< bf16 par ligne de la tuile de B
};
static_assert(WmmaConfig::a_stride % 8 == 0 && WmmaConfig::b_stride % 8 == 0,
              "chaque ligne en mémoire partagée est faite de morceaux de 16 octets entiers");
static_assert((WmmaConfig::fragment * WmmaConfig::a_stride * 2) % 32 == 0 &&
                  (WmmaConfig::fragment * WmmaConfig::b_stride * 2) % 32 == 0,
              "chaque fragment en mémoire partagée commence sur 32 octets");
// --8<-- [end:parametres]

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C, A (M×K) et B (K×N) en bf16, C (M×N) en fp32, tout en ligne.
 *        M et N multiples de 64, K multiple de 32 : aucun bord à garder.
 */
__global__ void __launch_bounds__(WmmaConfig::threads)
    gemm_wmma_bf16([[maybe_unused]] int m, int n, int k, float alpha, const __nv_bfloat16* __restrict__ a,
                   const __nv_bfloat16* __restrict__ b, float beta, float* __restrict__ c) {
    namespace wmma = nvcuda::wmma;
    using C = WmmaConfig;
    constexpr int F = C::fragment;
    // Les tuiles sont rangées par morceaux de 16 octets (uint4), le type des copies ; les
    // fragments les lisent comme des bf16.
    alignas(32) __shared__ uint4 a_shared[C::block_m * C::a_stride / 8];
    alignas(32) __shared__ uint4 b_shared[C::block_k * C::b_stride / 8];
    __nv_bfloat16* const a_fill = reinterpret_cast<__nv_bfloat16*>(a_shared);
    __nv_bfloat16* const b_fill = reinterpret_cast<__nv_bfloat16*>(b_shared);
    const __nv_bfloat16* a_tile = a_fill;
    const __nv_bfloat16* b_tile = b_fill;
    using ACopy = ChunkedCopy<C::block_m, C::block_k, 8, C::threads>;  // qui copie quoi
    using BCopy = ChunkedCopy<C::block_k, C::block_n, 8, C::threads>;

    const int warp = int(threadIdx.x) / 32;
    const int warp_row = (warp / (C::block_n / C::warp_n)) * C::warp_m;  // dans la tuile
    const int warp_col = (warp % (C::block_n / C::warp_n)) * C::warp_n;
    const int block_row = int(blockIdx.y) * C::block_m, block_col = int(blockIdx.x) * C::block_n;

    wmma::fragment<wmma::accumulator, F, F, F, float> acc[2][2];
    for (auto& row : acc)
        for (auto& fragment : row) wmma::fill_fragment(fragment, 0.0f);

    for (int k0 = 0; k0 < k; k0 += C::block_k) {
        // Copie des tuiles : des morceaux de 8 bf16 (16 octets), consécutifs d'un thread à
        // l'autre, comme aux étapes SIMT (ChunkedCopy, common/vector_tiles.cuh).
        ACopy::copy(a_fill, [](int row, int col) { return row * C::a_stride + col; }, a + block_row * k + k0, k);
        BCopy::copy(b_fill, [](int row, int col) { return row * C::b_stride + col; }, b + k0 * n + block_col, n);
        __syncthreads();
        // Deux pas de 16 sur K ; à chaque pas, 2 fragments de A, 2 de B et 4 produits (HMMA).
        for (int kk = 0; kk < C::block_k; kk += F) {
            wmma::fragment<wmma::matrix_a, F, F, F, __nv_bfloat16, wmma::row_major> a_frag[2];
            wmma::fragment<wmma::matrix_b, F, F, F, __nv_bfloat16, wmma::row_major> b_frag[2];
            for (int i = 0; i < 2; ++i)
                wmma::load_matrix_sync(a_frag[i], &a_tile[(warp_row + i * F) * C::a_stride + kk], C::a_stride);
            for (int j = 0; j < 2; ++j)
                wmma::load_matrix_sync(b_frag[j], &b_tile[kk * C::b_stride + warp_col + j * F], C::b_stride);
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
        }
        __syncthreads();
    }

    // Épilogue : α·AB + β·C élément par élément. Deux fragments de même type répartissent
    // leurs éléments de la même façon entre les lanes : on peut combiner acc et C terme à terme.
    // Avec β = 0, C n'est jamais lu (sémantique BLAS).
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            float* tile = c + (block_row + warp_row + i * F) * n + block_col + warp_col + j * F;
            if (beta != 0.0f) {
                wmma::fragment<wmma::accumulator, F, F, F, float> old;
                wmma::load_matrix_sync(old, tile, n, wmma::mem_row_major);
                for (int e = 0; e < old.num_elements; ++e) acc[i][j].x[e] = alpha * acc[i][j].x[e] + beta * old.x[e];
            } else {
                for (int e = 0; e < acc[i][j].num_elements; ++e) acc[i][j].x[e] *= alpha;
            }
            wmma::store_matrix_sync(tile, acc[i][j], n, wmma::mem_row_major);
        }
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/**
 * @brief L'étape 12 pour le lanceur, les tests et le benchmark communs : une grille de tuiles
 *        64×64 de C, 128 threads par bloc ; A, B et C alignées sur 32 octets, ce qu'exigent
 *        load_matrix_sync et store_matrix_sync (TiledStep refuse les autres avant tout lancement).
 */
struct WmmaKernel : TiledStep<WmmaKernel, WmmaConfig, 32, bf16> {
    static constexpr const char* name = "gemm_wmma_bf16";  ///< nom affiché
    static constexpr auto kernel = gemm_wmma_bf16;         ///< le noyau lancé
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
