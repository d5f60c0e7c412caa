/**
 * @file
 * @brief Une seule instruction wgmma (Hopper, sm_90a) : wgmma.mma_async m64n8k16, bf16 vers
 *        f32, exécutée par un warpgroup de 128 threads, A et B lus en mémoire partagée par
 *        descripteurs (sans permutation), encadrée par wgmma.fence, wgmma.commit_group et
 *        wgmma.wait_group.
 *
 * Les enveloppes des instructions sont celles de la partie GEMM (gemm/common/hopper.cuh).
 * wgmma n'existe que pour sm_90a (jeu d'instructions propre à l'architecture) ; pour les
 * autres cibles de la partie (sm_80), le noyau se réduit à un piège, jamais lancé. L'émulateur
 * simt, un sm_90a (__CUDA_ARCH__ et __CUDA_ARCH_FEAT_SM90_ALL définis dans le corps des
 * noyaux), exécute le même PTX.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "disposition.hpp"
#include "gemm/common/hopper.cuh"

#include <cstdint>

namespace noyaux::glossaire::warpgroup_mma {

// --8<-- [start:noyau]
/**
 * @brief D = A · B pour un warpgroup : les threads rangent A et Bᵀ en matrices élémentaires
 *        dans la mémoire partagée, un wgmma les multiplie, chaque thread écrit ses quatre
 *        accumulateurs à leur place dans D.
 * @param a A, 64 × 16 bf16 rangée par lignes
 * @param bt Bᵀ, 8 × 16 bf16 rangée par lignes
 * @param d D, 64 × 8 flottants rangée par lignes
 */
__global__ void __launch_bounds__(kThreads)
    wgmma_m64n8k16(const std::uint16_t* __restrict__ a, const std::uint16_t* __restrict__ bt, float* __restrict__ d) {
#if NOYAUX_HAS_WGMMA
    namespace hp = ::noyaux::gemm::hopper;  // une fonction par instruction PTX
    __shared__ alignas(128) std::uint16_t sa[kM * kK];
    __shared__ alignas(128) std::uint16_t sb[kN * kK];
    for (unsigned i = threadIdx.x; i < kM * kK; i += kThreads)
        sa[core_matrix_offset(i / kK, i % kK, kLeadingByteOffset, kStrideByteOffset) / 2] = a[i];
    for (unsigned i = threadIdx.x; i < kN * kK; i += kThreads)
        sb[core_matrix_offset(i / kK, i % kK, kLeadingByteOffset, kStrideByteOffset) / 2] = bt[i];
    // Les écritures ordinaires doivent être visibles du proxy asynchrone, par lequel lit wgmma.
    hp::fence_proxy_async();
    __syncthreads();

    const std::uint64_t desc_a = encode_smem_descriptor(hp::shared_address(sa), kLeadingByteOffset, kStrideByteOffset);
    const std::uint64_t desc_b = encode_smem_descriptor(hp::shared_address(sb), kLeadingByteOffset, kStrideByteOffset);
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    hp::wgmma_fence();  // accumulateurs prêts pour wgmma
    // scale-d = 0 : D = A·B, sans ajouter l'ancien D ; ni A ni B transposées (K-majeures).
    hp::wgmma_m64n8k16<0>(acc, desc_a, desc_b, 0);
    hp::wgmma_commit_group();
    hp::wgmma_wait_group<0>();  // le groupe est terminé

    for (int reg = 0; reg < 4; ++reg) {
        const AccumulatorPosition c = wgmma_accumulator_position(int(threadIdx.x), reg);
        d[c.row * kN + c.col] = acc[reg];
    }
#else
    __trap();  // wgmma n'existe que pour sm_90a : le programme ne lance jamais ce code
#endif
}
// --8<-- [end:noyau]

/** @brief Lance wgmma_m64n8k16 : un bloc, un warpgroup (asynchrone). */
inline void launch_wgmma(const std::uint16_t* a, const std::uint16_t* bt, float* d, cudaStream_t stream = nullptr) {
    wgmma_m64n8k16<<<1, kThreads, 0, stream>>>(a, bt, d);
}

}  // namespace noyaux::glossaire::warpgroup_mma
