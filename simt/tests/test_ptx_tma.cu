// mbarrier et TMA écrits en PTX en ligne, dans de petites fonctions d'enrobage comme celles de
// CUTLASS, ThunderKittens ou fast.cu (registres .reg, prédicats, boucle d'attente par bra) :
// la réécriture de simt les traduit en appels de simt::ptx, et le noyau s'exécute inchangé.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <cstdint>
#include <vector>

namespace ptx_tma_test {

__device__ static inline std::uint32_t smem(const void* pointer) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

__device__ static inline void init_barrier(std::uint64_t* bar, int count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem(bar)), "r"(count));
}

__device__ static inline void expect_bytes(std::uint64_t* bar, std::uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem(bar)),
                 "r"(bytes));
}

__device__ static inline std::uint64_t arrive(std::uint64_t* bar) {
    std::uint64_t state;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];\n" : "=l"(state) : "r"(smem(bar)) : "memory");
    return state;
}

// La boucle d'attente de fast.cu et de ThunderKittens : try_wait.parity, puis bra.
__device__ static inline void wait(std::uint64_t* bar, int phase) {
    asm volatile(
        "{\n"
        ".reg .pred                P1;\n"
        "LAB_WAIT:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
        "@P1                       bra.uni DONE;\n"
        "bra.uni                   LAB_WAIT;\n"
        "DONE:\n"
        "}\n" ::"r"(smem(bar)),
        "r"(phase));
}

__device__ static inline bool test_state(std::uint64_t* bar, std::uint64_t state) {
    std::uint32_t done;
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n"
        "selp.b32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(smem(bar)), "l"(state));
    return done != 0;
}

__device__ static inline void load_2d(void* destination, const CUtensorMap* map, std::uint64_t* bar, int x, int y) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4}], [%2];"
        ::"r"(smem(destination)), "l"(map), "r"(smem(bar)), "r"(x), "r"(y)
        : "memory");
}

__device__ static inline void store_2d(const CUtensorMap* map, const void* source, int x, int y) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
                 ::"l"(map), "r"(smem(source)), "r"(x), "r"(y) : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// Deux étages, un warp producteur (un thread) et trois warps consommateurs ; les consommateurs
// doublent chaque tuile dans result, que le thread 32 écrit par le TMA quand les 96 y ont écrit
// (barrière written) ; la tuile suivante attend que l'écriture soit faite (barrière stored).
__global__ void pipeline(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out,
                         unsigned steps, int* status) {
    __shared__ __align__(1024) int stage[2][16 * 32];
    __shared__ __align__(128) int result[16 * 32];
    __shared__ std::uint64_t full[2], empty[2], written, stored, single;
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        asm volatile("prefetch.tensormap [%0];" ::"l"(&in) : "memory");
        for (int s = 0; s < 2; ++s) {
            init_barrier(&full[s], 1);
            init_barrier(&empty[s], 3);
        }
        init_barrier(&written, 96);
        init_barrier(&stored, 1);
        init_barrier(&single, 1);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        const std::uint64_t before = arrive(&single);
        status[0] = test_state(&single, before);  // 1 : l'arrivée a terminé la phase
    }
    __syncthreads();
    if (warp == 0) {
        if (lane == 0)
            for (unsigned k = 0; k < steps; ++k) {
                const unsigned s = k % 2;
                if (k >= 2) wait(&empty[s], (k / 2 - 1) % 2);
                expect_bytes(&full[s], sizeof stage[s]);
                load_2d(stage[s], &in, &full[s], 0, int(16 * k));
            }
        return;
    }
    for (unsigned k = 0; k < steps; ++k) {
        const unsigned s = k % 2;
        wait(&full[s], (k / 2) % 2);
        if (k > 0) wait(&stored, (k - 1) % 2);  // la tuile précédente est écrite : result est libre
        for (unsigned i = threadIdx.x - 32; i < 16 * 32; i += 96) result[i] = 2 * stage[s][i];
        arrive(&written);
        __syncwarp();
        if (lane == 0) arrive(&empty[s]);
        if (threadIdx.x == 32) {
            wait(&written, k % 2);
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            store_2d(&out, result, 0, int(16 * k));
            arrive(&stored);
        }
    }
}

// Multidiffusion : deux blocs par cluster ; chacun annonce les octets sur sa propre barrière,
// puis le bloc de rang 0 charge la boîte une fois pour les deux (ctaMask = 0b11), à la même
// adresse de chacun. Chaque bloc recopie sa tuile dans out. Une barrière de cluster en fin
// garde la mémoire partagée de chaque bloc vivante tant que l'autre peut y écrire.
__global__ void __cluster_dims__(2, 1, 1) multicast(const __grid_constant__ CUtensorMap map, int* out) {
    __shared__ __align__(128) int tile[16 * 32];
    __shared__ std::uint64_t bar;
    if (threadIdx.x == 0) {
        init_barrier(&bar, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    std::uint32_t rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    if (threadIdx.x == 0) {
        expect_bytes(&bar, sizeof tile);
        if (rank == 0)
            asm volatile(
                "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                " [%0], [%1, {%3, %4}], [%2], %5;"
                ::"r"(smem(tile)), "l"(&map), "r"(smem(&bar)), "r"(0), "r"(16), "h"(std::uint16_t(0b11))
                : "memory");
    }
    wait(&bar, 0);
    for (unsigned i = threadIdx.x; i < 16 * 32; i += blockDim.x) out[blockIdx.x * 16 * 32 + i] = tile[i];
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

}  // namespace ptx_tma_test

TEST(PtxTma, InlinePtxPipelineRunsUnchanged) {
    constexpr unsigned kSteps = 4, kWidth = 32, kRows = 16 * kSteps;
    std::vector<int> host(kWidth * kRows);
    for (unsigned i = 0; i < host.size(); ++i) host[i] = int(i % 1013) - 300;
    int *in, *out, *status;
    ASSERT_EQ(cudaMalloc(&in, host.size() * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&out, host.size() * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&status, sizeof(int)), cudaSuccess);
    cudaMemcpy(in, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
    void* function = nullptr;
    cudaDriverEntryPointQueryResult query{};
    ASSERT_EQ(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &query),
              cudaSuccess);
    auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
    const cuuint64_t dims[2] = {kWidth, kRows}, strides[1] = {kWidth * sizeof(int)};
    const cuuint32_t box[2] = {kWidth, 16}, steps[2] = {1, 1};
    CUtensorMap in_map, out_map;
    ASSERT_EQ(encode(&in_map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, in, dims, strides, box, steps,
                     CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
              CUDA_SUCCESS);
    // La sortie sans swizzle : les consommateurs lisent la tuile chargée au swizzle 128B et
    // l'écrivent telle quelle ; le tenseur de sortie est donc l'entrée permutée par le swizzle.
    ASSERT_EQ(encode(&out_map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, out, dims, strides, box, steps,
                     CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
              CUDA_SUCCESS);
    ptx_tma_test::pipeline<<<1, 128>>>(in_map, out_map, kSteps, status);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    std::vector<int> seen(host.size());
    int done = 0;
    cudaMemcpy(seen.data(), out, seen.size() * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&done, status, sizeof(int), cudaMemcpyDeviceToHost);
    EXPECT_EQ(done, 1);
    // Octet o de la tuile de 16 lignes de 128 octets : le bloc de 16 octets (o / 16) % 8 vient
    // du bloc ((o / 16) % 8) ^ ((o / 128) % 8) (PTX ISA, swizzle 128B).
    for (unsigned k = 0; k < kSteps; ++k)
        for (unsigned e = 0; e < 16 * kWidth; ++e) {
            const unsigned offset = e * 4, row = offset / 128, chunk = (offset / 16) % 8;
            const unsigned source = row * 128 + ((chunk ^ (row % 8)) * 16) + offset % 16;
            ASSERT_EQ(seen[k * 16 * kWidth + e], 2 * host[k * 16 * kWidth + source / 4]) << k << " " << e;
        }
    cudaFree(in);
    cudaFree(out);
    cudaFree(status);
}

TEST(PtxTma, MulticastFillsEveryBlockOfTheMask) {
    constexpr unsigned kWidth = 32, kRows = 40;
    std::vector<int> host(kWidth * kRows);
    for (unsigned i = 0; i < host.size(); ++i) host[i] = int(3 * i + 1);
    int *in, *out;
    ASSERT_EQ(cudaMalloc(&in, host.size() * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&out, 2 * 16 * kWidth * sizeof(int)), cudaSuccess);
    cudaMemcpy(in, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
    void* function = nullptr;
    ASSERT_EQ(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, nullptr),
              cudaSuccess);
    const cuuint64_t dims[2] = {kWidth, kRows}, strides[1] = {kWidth * sizeof(int)};
    const cuuint32_t box[2] = {kWidth, 16}, steps[2] = {1, 1};
    CUtensorMap map;
    ASSERT_EQ(reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function)(
                  &map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, in, dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
                  CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
              CUDA_SUCCESS);
    ptx_tma_test::multicast<<<2, 64>>>(map, out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    std::vector<int> seen(2 * 16 * kWidth);
    cudaMemcpy(seen.data(), out, seen.size() * sizeof(int), cudaMemcpyDeviceToHost);
    for (unsigned block = 0; block < 2; ++block)
        for (unsigned e = 0; e < 16 * kWidth; ++e)
            ASSERT_EQ(seen[block * 16 * kWidth + e], host[16 * kWidth + e]) << "bloc " << block << ", élément " << e;
    cudaFree(in);
    cudaFree(out);
}
