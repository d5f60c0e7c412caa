/**
 * @file
 * @brief Les Tensor Cores de Blackwell (sm_100a) au plus court : tcgen05.alloc réserve des
 *        colonnes de mémoire tensorielle (TMEM), un seul thread lance tcgen05.mma (D en TMEM =
 *        A · B, A et B en mémoire partagée par descripteurs), tcgen05.commit signale la fin sur
 *        un mbarrier, chaque warp lit son quart des lanes par tcgen05.ld, et tcgen05.dealloc
 *        rend les colonnes. Les instructions sont enveloppées dans common/sm100/umma.cuh,
 *        partagé avec l'étape 20 de la GEMM.
 *
 * Compilé pour sm_100a et inspecté (test sass), jamais exécuté dans le projet : aucune machine
 * Blackwell n'y est disponible. Pour sm_80 et sm_90a, le noyau se réduit à un piège, jamais
 * lancé. Réservé au GPU : l'émulateur simt refuse tcgen05.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "common/sm100/umma.cuh"
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

    if (warp == 0) umma::allocate_columns<kTmemColumns>(&tmem_base);  // un warp entier alloue
    if (threadIdx.x == 0) umma::barrier_init(&barrier, 1);
    for (unsigned i = threadIdx.x; i < kM * kK; i += kThreads)
        sa[tensor_core::core_matrix_offset(i / kK, i % kK, tensor_core::kLeadingByteOffset,
                                           tensor_core::kStrideByteOffset) / 2] = a[i];
    for (unsigned i = threadIdx.x; i < kN * kK; i += kThreads)
        sb[tensor_core::core_matrix_offset(i / kK, i % kK, tensor_core::kLeadingByteOffset,
                                           tensor_core::kStrideByteOffset) / 2] = bt[i];
    umma::fence_proxy_async_shared();  // opérandes visibles des Tensor Cores
    umma::fence_before_thread_sync();
    __syncthreads();
    umma::fence_after_thread_sync();
    const std::uint32_t tmem = tmem_base;

    if (threadIdx.x == 0) {  // un seul thread lance le produit pour tout le CTA
        const std::uint64_t desc_a = umma::encode_smem_descriptor(umma::shared_address(sa), tensor_core::kLeadingByteOffset,
                                                                  tensor_core::kStrideByteOffset);
        const std::uint64_t desc_b = umma::encode_smem_descriptor(umma::shared_address(sb), tensor_core::kLeadingByteOffset,
                                                                  tensor_core::kStrideByteOffset);
        // accumulate = false : D = A·B, sans lire l'ancien contenu de la TMEM.
        umma::mma_bf16(tmem, desc_a, desc_b, umma::encode_instruction_descriptor(kM, kN), false);
        umma::commit_to(&barrier);  // une arrivée quand le produit est terminé
    }
    umma::barrier_wait(&barrier, 0);
    umma::fence_after_thread_sync();

    // Le warp w ne peut lire que les lanes 32w à 32w + 31 : le thread t reçoit la ligne t de D.
    std::uint32_t r[kN];
    umma::load_16_columns(umma::tmem_address(tmem, warp * 32, 0), r);
    umma::wait_loads();
    for (unsigned n = 0; n < kN; ++n) d[threadIdx.x * kN + n] = __uint_as_float(r[n]);

    umma::fence_before_thread_sync();
    __syncthreads();
    if (warp == 0) {  // le warp qui a alloué rend les colonnes, toutes lectures finies
        umma::fence_after_thread_sync();
        umma::free_columns<kTmemColumns>(tmem);
    }
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
