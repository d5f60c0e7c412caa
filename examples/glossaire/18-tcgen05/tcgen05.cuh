/**
 * @file
 * @brief Les Tensor Cores de Blackwell (sm_100a) au plus court : tcgen05.alloc réserve des
 *        colonnes de mémoire tensorielle (TMEM), un seul thread lance tcgen05.mma (D en TMEM =
 *        A · B, A et B en mémoire partagée par descripteurs), tcgen05.commit signale la fin sur
 *        un mbarrier, chaque warp lit son quart des lanes par tcgen05.ld, et tcgen05.dealloc
 *        rend les colonnes.
 *
 * Compilé pour sm_100a et inspecté (test sass), jamais exécuté dans le projet : aucune machine
 * Blackwell n'y est disponible. Pour sm_80 et sm_90a, le noyau se réduit à un piège, jamais
 * lancé. Réservé au GPU : l'émulateur simt refuse tcgen05.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "descripteurs.hpp"

#include <cstdint>

namespace noyaux::glossaire::tensor_memory {

// --8<-- [start:noyau]
/**
 * @brief D = A · B par un CTA de quatre warps, l'accumulateur en mémoire tensorielle : la ligne
 *        m de D occupe la lane m, la colonne n la colonne n de l'allocation.
 * @param a A, 128 × 16 bf16 rangée par lignes
 * @param bt Bᵀ, 16 × 16 bf16 rangée par lignes
 * @param d D, 128 × 16 flottants rangée par lignes
 */
__global__ void __launch_bounds__(kThreads)
    tcgen05_m128n16k16(const std::uint16_t* __restrict__ a, const std::uint16_t* __restrict__ bt, float* __restrict__ d) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM100_ALL)
    __shared__ alignas(128) std::uint16_t sa[kM * kK];
    __shared__ alignas(128) std::uint16_t sb[kN * kK];
    __shared__ std::uint32_t tmem_base;  // adresse TMEM écrite par tcgen05.alloc
    __shared__ alignas(8) std::uint64_t barrier;
    const unsigned warp = threadIdx.x / 32;
    const auto address = [](const void* p) { return static_cast<std::uint32_t>(__cvta_generic_to_shared(p)); };
    const std::uint32_t bar = address(&barrier);

    if (warp == 0) {  // un warp entier alloue, puis renonce au droit d'allouer encore
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(address(&tmem_base)),
                     "n"(kTmemColumns)
                     : "memory");
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
    }
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    for (unsigned i = threadIdx.x; i < kM * kK; i += kThreads)
        sa[tensor_core::core_matrix_offset(i / kK, i % kK, tensor_core::kLeadingByteOffset,
                                           tensor_core::kStrideByteOffset) / 2] = a[i];
    for (unsigned i = threadIdx.x; i < kN * kK; i += kThreads)
        sb[tensor_core::core_matrix_offset(i / kK, i % kK, tensor_core::kLeadingByteOffset,
                                           tensor_core::kStrideByteOffset) / 2] = bt[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // opérandes visibles des Tensor Cores
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    const std::uint32_t tmem = tmem_base;

    if (threadIdx.x == 0) {  // un seul thread lance le produit pour tout le CTA
        const std::uint64_t desc_a =
            encode_smem_descriptor(address(sa), tensor_core::kLeadingByteOffset, tensor_core::kStrideByteOffset);
        const std::uint64_t desc_b =
            encode_smem_descriptor(address(sb), tensor_core::kLeadingByteOffset, tensor_core::kStrideByteOffset);
        // enable-input-d = 0 : D = A·B, sans lire l'ancien contenu de la TMEM.
        asm volatile(
            "{\n"
            "  .reg .pred p;\n"
            "  setp.ne.b32 p, %4, 0;\n"
            "  tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n"
            "}\n" ::"r"(tmem),
            "l"(desc_a), "l"(desc_b), "r"(encode_instruction_descriptor(kM, kN)), "r"(0)
            : "memory");
        // Le mbarrier reçoit une arrivée quand le produit est terminé.
        asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(bar)
                     : "memory");
    }
    std::uint32_t done = 0;
    while (done == 0) {
        asm volatile(
            "{\n"
            "  .reg .pred p;\n"
            "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
            "  selp.u32 %0, 1, 0, p;\n"
            "}\n"
            : "=r"(done)
            : "r"(bar)
            : "memory");
    }
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");

    // Le warp w ne peut lire que les lanes 32w à 32w + 31 : le thread t reçoit la ligne t de D.
    std::uint32_t r[kN];
    asm volatile(
        "tcgen05.ld.sync.aligned.32x32b.x16.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, "
        "[%16];"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]), "=r"(r[8]),
          "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]), "=r"(r[14]), "=r"(r[15])
        : "r"(tmem + ((warp * 32u) << 16)));  // lane dans les 16 bits de poids fort
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    for (unsigned n = 0; n < kN; ++n) d[threadIdx.x * kN + n] = __uint_as_float(r[n]);

    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    if (warp == 0)  // le warp qui a alloué rend les colonnes
        asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem), "n"(kTmemColumns) : "memory");
#else
    __trap();  // tcgen05 n'existe que pour sm_100a : le programme ne lance jamais ce code
#endif
}
// --8<-- [end:noyau]

/** @brief Lance tcgen05_m128n16k16 : un bloc de quatre warps (asynchrone). */
inline void launch_tcgen05(const std::uint16_t* a, const std::uint16_t* bt, float* d, cudaStream_t stream = nullptr) {
    tcgen05_m128n16k16<<<1, kThreads, 0, stream>>>(a, bt, d);
}

}  // namespace noyaux::glossaire::tensor_memory
