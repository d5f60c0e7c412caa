/**
 * @file
 * @brief Étape 19 de l'échelle GEMM : Stream-K hybride sur le noyau persistant de l'étape 17
 *        (common/stream_k.hpp). Les tuiles des vagues pleines restent entières ; celles de la
 *        dernière vague incomplète, plus une vague pleine, sont partagées : leurs itérations de
 *        K, bout à bout, vont en parts égales aux blocs. Une tuile coupée entre plusieurs blocs
 *        est terminée par celui qui tient sa dernière itération : il attend les sommes
 *        partielles des autres (espace de travail global en fp32, un drapeau par bloc,
 *        acquire/release), les ajoute, puis écrit C ← α·A·B + β·C une seule fois.
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/stream_k.hpp"
#include "gemm/common/tile_scheduler.hpp"
#include "gemm/common/tma_wgmma.cuh"
#include "megakernels/common/synchronisation.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <cuda.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <tuple>

namespace noyaux::gemm {

/** @brief Les tailles de l'étape 19 : celles de l'étape 14, l'ordre groupé de l'étape 17. */
struct StreamKConfig : TmaWgmmaConfig {
    static constexpr int group = 8;  ///< ordre groupé : lignes de tuiles par bande
    /** @brief Floats de la somme partielle d'un bloc : une tuile 128×128. */
    static constexpr int partial_floats = block_m * block_n;
};

namespace stream_k_device {

#if NOYAUX_HAS_WGMMA
// --8<-- [start:reduction]
/**
 * @brief Tout le bloc : publie sa somme partielle dans sa case @p slot de l'espace de travail,
 *        dans l'ordre des registres (l'élément j du thread t en j·128 + t : écritures
 *        coalescées), puis le thread 0 lève le drapeau en ordre release.
 */
__device__ __forceinline__ void publish_partial(const tma_wgmma::Accumulator& acc, float* __restrict__ slot,
                                                unsigned int* flag) {
    using C = StreamKConfig;
#pragma unroll
    for (int half = 0; half < 2; ++half)
#pragma unroll
        for (int i = 0; i < 64; ++i) slot[(half * 64 + i) * C::threads + threadIdx.x] = acc[half][i];
    __syncthreads();  // les écritures des 128 threads avant la publication
    if (threadIdx.x == 0) megakernels::signal_release(flag);
}

/**
 * @brief Tout le bloc : attend (acquire) la somme partielle de la case @p slot, l'ajoute à
 *        @p acc, et rebaisse le drapeau pour le lancement suivant : une case n'a qu'un lecteur.
 *        Lectures ordinaires : l'acquire du thread 0 puis la barrière les ordonnent après la
 *        publication (modèle mémoire PTX), pour tout le bloc.
 */
__device__ __forceinline__ void add_partial(tma_wgmma::Accumulator& acc, const float* __restrict__ slot,
                                            unsigned int* flag) {
    using C = StreamKConfig;
    if (threadIdx.x == 0) {
        megakernels::wait_acquire(flag, 1);
        megakernels::DeviceAtomicRef(*flag).store(0, cuda::memory_order_relaxed);
    }
    __syncthreads();  // tout le bloc voit ce que l'acquire a rendu visible
#pragma unroll
    for (int half = 0; half < 2; ++half)
#pragma unroll
        for (int i = 0; i < 64; ++i) acc[half][i] += slot[(half * 64 + i) * C::threads + threadIdx.x];
}
// --8<-- [end:reduction]
#endif  // NOYAUX_HAS_WGMMA

}  // namespace stream_k_device

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C (M et N multiples de 128, K multiple de 64) en Stream-K hybride,
 *        tuiles en ordre groupé : le bloc b calcule ses tuiles entières (b, b + blocs…), puis
 *        sa part des itérations des tuiles partagées, à rebours (SegmentCursor). Seules les
 *        tuiles partagées passent par @p partials (une tuile fp32 par bloc) et @p flags (un
 *        drapeau par bloc, nul au lancement et rendu nul).
 */
__global__ void __launch_bounds__(StreamKConfig::threads)
    gemm_stream_k_bf16(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, int m,
                       int n, int k, float alpha, float beta, float* __restrict__ c, float* __restrict__ partials,
                       unsigned int* __restrict__ flags) {
#if NOYAUX_HAS_WGMMA
    using C = StreamKConfig;
    using namespace tma_wgmma;
    extern __shared__ unsigned char shared_raw[];
    __shared__ std::uint64_t full[C::stages];
    Pipeline pipeline = make_pipeline(shared_raw, full, &map_a, &map_b);
    const int tiles_m = m / C::block_m, tiles_n = n / C::block_n;
    const stream_k::Work work{std::int64_t(tiles_m) * tiles_n, k / C::block_k, int(gridDim.x)};
    const auto corner = [&](const stream_k::Segment& s) {
        return schedule::grouped_tile(int(s.tile), tiles_m, tiles_n, C::group);
    };
    const auto load = [&](const stream_k::Segment& s) {  // thread 0 : le prologue d'un morceau
        const schedule::Tile t = corner(s);
        load_prologue(pipeline, t.m * C::block_m, t.n * C::block_n, int(s.k_end - s.k_begin), int(s.k_begin));
    };
    stream_k::SegmentCursor cursor(work, blockIdx.x);
    stream_k::Segment segment;
    bool more = cursor.next(segment);  // faux pour un bloc sans travail (tuiles entières < blocs)
    if (threadIdx.x == 0) {
        init_barriers(pipeline);
        if (more) load(segment);
    }
    __syncthreads();  // les mbarrier sont initialisés avant que quiconque les attende

    while (more) {
        const stream_k::Segment current = segment;
        const schedule::Tile tile = corner(current);
        const int m0 = tile.m * C::block_m, n0 = tile.n * C::block_n;
        Accumulator acc;
        compute_tile(pipeline, m0, n0, int(current.k_end - current.k_begin), acc, int(current.k_begin));
        __syncthreads();  // les wgmma des quatre warps ont fini de lire les étages
        more = cursor.next(segment);
        if (threadIdx.x == 0 && more) load(segment);  // la TMA avance pendant la réduction
        if (current.finishes_tile) {
            // Les blocs précédents qui ont commencé cette tuile : leurs parts, dans l'ordre. Aucun
            // pour une tuile entière : ni drapeau ni espace de travail.
            for (std::int64_t w = stream_k::first_contributor(work, current, blockIdx.x); w < blockIdx.x; ++w)
                stream_k_device::add_partial(acc, partials + w * C::partial_floats, flags + w);
            store_tile(acc, m0, n0, n, alpha, beta, c);  // α et β, une seule fois par tuile
        } else {
            // Un morceau inachevé de tuile partagée, le premier de la part Stream-K du bloc (il
            // n'y en a qu'un) : un bloc suivant finira la tuile, et attend moins si l'on publie tôt.
            stream_k_device::publish_partial(acc, partials + std::int64_t(blockIdx.x) * C::partial_floats,
                                             flags + blockIdx.x);
        }
    }
#else
    __trap();  // wgmma n'existe que pour sm_90a : le programme refuse ce GPU avant tout lancement
#endif
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/**
 * @brief L'étape 19 pour le lanceur, les tests et le benchmark communs. La grille : les blocs
 *        résidents (comme l'étape 17), sans dépasser le nombre d'itérations ; la partition en
 *        dépend (le noyau la recalcule avec gridDim.x, common/stream_k.hpp). Attendre un autre
 *        bloc n'est sûr que s'ils résident tous à la fois : un lancement ordinaire ne le
 *        garantit pas (un autre noyau peut occuper des SM), le lancement coopératif
 *        (`cooperative`) le garantit, ou échoue (cudaErrorCooperativeLaunchTooLarge) au lieu de
 *        bloquer. L'espace de travail (une tuile
 *        fp32 et un drapeau par bloc) est alloué au premier lancement et gardé : un lancement
 *        à la fois (un seul flux), puisque chacun rend les drapeaux nuls pour le suivant.
 */
struct StreamKKernel : TmaWgmmaStep<StreamKKernel, StreamKConfig> {
    static constexpr const char* name = "gemm_stream_k_bf16";  ///< nom affiché
    static constexpr auto kernel = gemm_stream_k_bf16;          ///< le noyau lancé
    static constexpr bool cooperative = true;                   ///< toute la grille résidente, ou un refus

    /** @brief Une grille à une dimension : min(itérations, blocs résidents). */
    static LaunchGeometry geometry(const Shape& shape) {
        const std::int64_t iterations = std::int64_t(shape.m / StreamKConfig::block_m) *
                                        (shape.n / StreamKConfig::block_n) * (shape.k / StreamKConfig::block_k);
        return {dim3(unsigned(std::min<std::int64_t>(iterations, resident_blocks()))), dim3(StreamKConfig::threads)};
    }

    /** @brief L'espace de travail, pour autant de blocs que le GPU en garde résidents. */
    struct Workspace {
        DeviceBuffer<float> partials;       ///< une tuile fp32 par bloc
        DeviceBuffer<unsigned int> flags;   ///< un drapeau par bloc, nul entre deux lancements
    };

    /** @brief L'espace de travail, alloué (drapeaux à zéro) au premier appel. */
    static Workspace& workspace() {
        static Workspace space = [] {
            const auto blocks = std::size_t(resident_blocks());
            Workspace w{DeviceBuffer<float>(blocks * StreamKConfig::partial_floats), DeviceBuffer<unsigned int>(blocks)};
            NOYAUX_CUDA_CHECK(cudaMemset(w.flags.data(), 0, blocks * sizeof(unsigned int)));
            return w;
        }();
        return space;
    }

    /** @brief Les arguments du noyau : les tensor maps, la forme, C, puis l'espace de travail. */
    static auto kernel_arguments(const GemmArgsOf<bf16>& args) {
        const auto [map_a, map_b] = tma_wgmma::operand_maps(args);
        Workspace& space = workspace();
        return std::make_tuple(map_a, map_b, args.shape.m, args.shape.n, args.shape.k, args.alpha, args.beta, args.c,
                               space.partials.data(), space.flags.data());
    }
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
