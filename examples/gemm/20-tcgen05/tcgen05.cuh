/**
 * @file
 * @brief Étape 20 de l'échelle GEMM, sur les Tensor Cores de Blackwell (sm_100a) : A et B en
 *        bf16, C en fp32. L'accumulateur 128 × 128 de chaque CTA vit en mémoire tensorielle
 *        (TMEM, `tcgen05.alloc`) ; un seul thread lance les `tcgen05.mma` qui y accumulent,
 *        `tcgen05.commit` signale sur un mbarrier qu'un étage de mémoire partagée est relu, et
 *        l'épilogue ramène la TMEM dans les registres (`tcgen05.ld`). Les opérandes arrivent
 *        en mémoire partagée par des copies `cp.async` de 16 octets (pas de TMA).
 *
 * Compilé pour sm_100a et inspecté (test sass), jamais exécuté dans le projet : aucune machine
 * Blackwell n'y est disponible, et l'émulateur simt refuse `tcgen05`. Pour sm_80 et sm_90a, le
 * noyau se réduit à un piège, et le lanceur refuse le GPU avant tout lancement.
 */
#pragma once

#include "disposition.hpp"

#include "gemm/common/kernel.cuh"

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/sm100/umma.cuh"

#include <cuda_bf16.h>
#include <cuda_pipeline.h>

#include <cstdint>

namespace noyaux::gemm {

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C, A (M×K) et B (K×N) en bf16, C (M×N) en fp32, tout en ligne.
 *        M et N multiples de 128, K multiple de 64 : aucun bord à garder.
 */
__global__ void __launch_bounds__(Tcgen05Config::threads)
    gemm_tcgen05_bf16([[maybe_unused]] int m, [[maybe_unused]] int n, [[maybe_unused]] int k,
                      [[maybe_unused]] float alpha, [[maybe_unused]] const __nv_bfloat16* __restrict__ a,
                      [[maybe_unused]] const __nv_bfloat16* __restrict__ b, [[maybe_unused]] float beta,
                      [[maybe_unused]] float* __restrict__ c) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM100_ALL)
    using C = Tcgen05Config;
    using L = Tcgen05Layout;
    constexpr int S = C::stages;
    extern __shared__ __align__(128) std::uint8_t tiles[];  // S tranches de A, puis S de B
    __shared__ alignas(8) std::uint64_t stage_read[S];      // le produit de l'étage s est fini
    __shared__ std::uint32_t tmem_base;
    const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
    const int block_row = int(blockIdx.y) * C::block_m, block_col = int(blockIdx.x) * C::block_n;
    const std::uint32_t tiles_address = umma::shared_address(tiles);

    if (warp == 0) umma::allocate_columns<C::tmem_columns>(&tmem_base);
    if (threadIdx.x == 0)
        for (auto& barrier : stage_read) umma::barrier_init(&barrier, 1);  // une arrivée : tcgen05.commit
    umma::fence_before_thread_sync();
    __syncthreads();
    umma::fence_after_thread_sync();
    const std::uint32_t tmem = tmem_base;

    // Copie de la tranche @p tile dans l'étage @p stage : copie q → octet 16·q (Tcgen05Layout).
    const auto load = [&](int tile, int stage) {
        std::uint8_t* a_tile = tiles + stage * C::a_bytes;
        std::uint8_t* b_tile = tiles + S * C::a_bytes + stage * C::b_bytes;
        const int k0 = tile * C::block_k;
        for (int q = int(threadIdx.x); q < C::chunks; q += C::threads) {
            __pipeline_memcpy_async(a_tile + 16 * q, &a[(block_row + L::a_row(q)) * k + k0 + L::a_k(q)], 16);
            __pipeline_memcpy_async(b_tile + 16 * q, &b[(k0 + L::b_k(q)) * n + block_col + L::b_n(q)], 16);
        }
    };

    const int tile_count = k / C::block_k;
    for (int t = 0; t < S - 1; ++t) {  // amorce : S − 1 tranches en vol
        if (t < tile_count) load(t, t);
        __pipeline_commit();
    }
    for (int t = 0; t < tile_count; ++t) {
        const int stage = t % S;
        __pipeline_wait_prior(S - 2);       // la tranche t de ce thread est arrivée…
        umma::fence_proxy_async_shared();   // …et visible des Tensor Cores
        __syncthreads();                    // celle de tous les threads aussi
        if (threadIdx.x == 0) {             // un seul thread lance les produits du CTA
            umma::fence_after_thread_sync();
            const std::uint32_t a_base = tiles_address + stage * C::a_bytes;
            const std::uint32_t b_base = tiles_address + S * C::a_bytes + stage * C::b_bytes;
#pragma unroll
            for (int step = 0; step < C::block_k / C::mma_k; ++step)
                umma::mma_bf16(tmem, L::a_descriptor(a_base, step), L::b_descriptor(b_base, step), L::instruction,
                               t > 0 || step > 0);  // le premier produit écrase la TMEM
            umma::commit_to(&stage_read[stage]);    // arrivée quand ces produits sont finis
        }
        // L'étage de la tranche t − 1 reçoit la tranche t + S − 1, une fois ses produits finis.
        const int next = t + S - 1;
        if (next < tile_count) {
            if (t > 0) umma::barrier_wait(&stage_read[(t - 1) % S], ((t - 1) / S) & 1);
            load(next, next % S);
        }
        __pipeline_commit();
    }
    // Le dernier commit couvre tous les produits lancés : l'accumulateur est complet.
    umma::barrier_wait(&stage_read[(tile_count - 1) % S], ((tile_count - 1) / S) & 1);
    umma::fence_after_thread_sync();

    // Épilogue : le warp w relit les lanes 32w à 32w + 31, le thread la ligne de C de sa lane,
    // 16 colonnes à la fois. Avec β = 0, C n'est jamais lu (sémantique BLAS).
    const int row = block_row + warp * 32 + lane;
    for (int column = 0; column < C::block_n; column += 16) {
        std::uint32_t r[16];
        umma::load_16_columns(umma::tmem_address(tmem, warp * 32, column), r);
        umma::wait_loads();
        float4* out = reinterpret_cast<float4*>(&c[row * n + block_col + column]);
#pragma unroll
        for (int v = 0; v < 4; ++v) {
            float4 value{alpha * __uint_as_float(r[4 * v]), alpha * __uint_as_float(r[4 * v + 1]),
                         alpha * __uint_as_float(r[4 * v + 2]), alpha * __uint_as_float(r[4 * v + 3])};
            if (beta != 0.0f) {
                const float4 old = out[v];
                value.x += beta * old.x;
                value.y += beta * old.y;
                value.z += beta * old.z;
                value.w += beta * old.w;
            }
            out[v] = value;
        }
    }

    umma::fence_before_thread_sync();
    __syncthreads();
    if (warp == 0) {  // le warp qui a alloué rend les colonnes, toutes lectures finies
        umma::fence_after_thread_sync();
        umma::free_columns<C::tmem_columns>(tmem);
    }
#else
    __trap();  // tcgen05 n'existe que pour sm_100a : le lanceur refuse tout autre GPU
#endif
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/**
 * @brief L'étape 20 pour le lanceur, les tests et le programme communs : une grille de tuiles
 *        128×128 de C, 128 threads et 128 Kio de mémoire partagée dynamique par CTA ; A, B et
 *        C alignées sur 16 octets (copies de 16 octets, écritures de float4). Refuse, avant tout
 *        lancement et en français, un GPU dont le code retenu n'est pas celui de sm_100a.
 */
struct Tcgen05Kernel : TiledStep<Tcgen05Kernel, Tcgen05Config, 16, bf16> {
    static constexpr const char* name = "gemm_tcgen05_bf16";  ///< nom affiché
    static constexpr auto kernel = gemm_tcgen05_bf16;         ///< le noyau lancé

    /** @brief Vérifie la forme, l'alignement et l'architecture, puis lance sans attendre. */
    static void launch(const GemmArgsOf<bf16>& args, cudaStream_t stream) {
        check_shape<Tcgen05Kernel>(args.shape);
        require_32bit_indices(args.shape, name);
        check_alignment(args, alignment, name);
        require_kernel_architecture(kernel, name, 100, "tcgen05");
        NOYAUX_CUDA_CHECK(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(Config::shared_bytes)));
        const LaunchGeometry geometry = Tcgen05Kernel::geometry(args.shape);
        const auto [rows, columns, depth] = args.shape;
        kernel<<<geometry.grid, geometry.block, Config::shared_bytes, stream>>>(
            rows, columns, depth, args.alpha, device_pointer(args.a), device_pointer(args.b), args.beta, args.c);
    }
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
