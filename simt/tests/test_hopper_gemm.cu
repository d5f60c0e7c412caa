// Un GEMM de Hopper complet, écrit comme l'écrivent CUTLASS, ThunderKittens ou fast.cu : de
// petites fonctions d'enrobage en PTX en ligne pour la TMA (avec multidiffusion au cluster),
// les mbarrier (boucle try_wait.parity), wgmma et barrier.cluster ; cartes de tenseur encodées
// sur l'hôte par cuTensorMapEncodeTiled, obtenue par cudaGetDriverEntryPointByVersion. C = A·B,
// A (M × K) et Bᵀ (N × K) en bf16, C en f32 ; les entrées sont de petits entiers, si bien que
// chaque somme est exacte en f32 et le résultat doit égaler bit à bit la référence entière.
//
// Organisation d'un bloc (256 threads) : le groupe de warps 0 calcule (wgmma m64n64k16), un
// thread du groupe 1 produit (TMA). Pipeline à deux étages : full[s] (les octets de l'étage s
// sont arrivés) et empty[s] (les consommateurs de chaque bloc du cluster l'ont rendu). Dans un
// cluster de deux blocs le long de N, les deux blocs ont la même tuile de A : chacun en charge
// une moitié et la multidiffuse aux deux (ctaMask = 0b11) ; l'étage ne peut donc être rechargé
// que lorsque les consommateurs des DEUX blocs l'ont rendu, d'où une arrivée distante (mapa)
// sur la barrière empty de chaque bloc, comme ClusterBarrier::arrive(cta_id) de CUTLASS.
// Sources : PTX ISA, « cp.async.bulk.tensor », « mbarrier », « Asynchronous Warpgroup Level
// Matrix Multiply-Accumulate » (descripteurs, swizzle 128B, disposition des accumulateurs
// m64nNk16), « barrier.cluster », « mapa » ; CUTLASS, include/cute/arch/copy_sm90_tma.hpp
// (SM90_TMA_LOAD_MULTICAST) et include/cutlass/arch/barrier.h (ClusterBarrier).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include "cluster_launch.hpp"

#include <bit>
#include <cstdint>
#include <vector>

namespace hopper_gemm {

constexpr int kBlockM = 64, kBlockN = 64, kBlockK = 64;  // kBlockK bf16 = une ligne de swizzle de 128 octets
constexpr int kStages = 2;
constexpr unsigned kThreads = 256;

__device__ inline std::uint32_t smem(const void* pointer) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

__device__ inline std::uint32_t cluster_rank() {
    std::uint32_t rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    return rank;
}

__device__ inline std::uint32_t cluster_size() {
    std::uint32_t size;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(size));
    return size;
}

__device__ inline void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ inline void init_barrier(std::uint64_t* bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(bar)), "r"(count));
}

__device__ inline void expect_bytes(std::uint64_t* bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(smem(bar)), "r"(bytes)
                 : "memory");
}

// Arrivée sur la barrière au même décalage dans le bloc de rang @p rank du cluster.
__device__ inline void arrive_cluster(std::uint64_t* bar, unsigned rank) {
    asm volatile(
        "{\n"
        ".reg .b32 remote;\n"
        "mapa.shared::cluster.u32 remote, %0, %1;\n"
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n"
        "}" ::"r"(smem(bar)),
        "r"(rank)
        : "memory");
}

__device__ inline void wait(std::uint64_t* bar, unsigned phase) {
    asm volatile(
        "{\n"
        ".reg .pred P1;\n"
        "LAB_WAIT:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
        "@P1 bra DONE;\n"
        "bra LAB_WAIT;\n"
        "DONE:\n"
        "}" ::"r"(smem(bar)),
        "r"(phase)
        : "memory");
}

__device__ inline void load_2d(void* destination, const CUtensorMap* map, std::uint64_t* bar, int x, int y) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
        ::"r"(smem(destination)), "l"(map), "r"(smem(bar)), "r"(x), "r"(y)
        : "memory");
}

// La boîte va au même décalage de la mémoire partagée de chaque bloc de @p mask, et ses octets
// sont retirés de la barrière au même décalage dans chacun.
__device__ inline void load_2d_multicast(void* destination, const CUtensorMap* map, std::uint64_t* bar, int x, int y,
                                         std::uint16_t mask) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%3, %4}], [%2], %5;"
        ::"r"(smem(destination)), "l"(map), "r"(smem(bar)), "r"(x), "r"(y), "h"(mask)
        : "memory");
}

// Descripteur K-majeur, swizzle de 128 octets : SBO = 1 024 octets (8 lignes), LBO ignoré (1).
__device__ inline std::uint64_t descriptor_128b(const void* tile) {
    const std::uint64_t address = smem(tile);
    return ((address & 0x3ffff) >> 4) | (std::uint64_t{1} << 16) | (std::uint64_t{1024 >> 4} << 32) |
           (std::uint64_t{1} << 62);
}

__device__ inline void mma_m64n64k16(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b, int scale_d) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
        "%32, %33, p, 1, 1, 0, 0;\n"
        "}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

// Bloc (x, y) : tuile C[64·y …, 64·x …]. Le cluster (2 blocs ou 1, lu dans %cluster_nctarank)
// est le long de x, donc ses blocs partagent la tuile de A.
// @p own_rank_only : l'erreur que diagnostique MulticastToOneBlockIsDiagnosed (ctaMask réduit au
// bloc lui-même : la moitié de A de l'autre bloc n'arrive jamais).
__global__ void __launch_bounds__(kThreads) gemm(const __grid_constant__ CUtensorMap map_a,
                                                 const __grid_constant__ CUtensorMap map_b, float* c, int n, int k,
                                                 bool own_rank_only) {
    __shared__ __align__(1024) unsigned char a_tile[kStages][kBlockM * 128];
    __shared__ __align__(1024) unsigned char b_tile[kStages][kBlockN * 128];
    __shared__ std::uint64_t full[kStages], empty[kStages];
    const unsigned rank = cluster_rank(), ranks = cluster_size();
    if (threadIdx.x == 0) {
        for (int s = 0; s < kStages; ++s) {
            init_barrier(&full[s], 1);
            init_barrier(&empty[s], ranks);  // une arrivée par bloc du cluster
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    cluster_sync();  // les barrières de tous les blocs sont prêtes avant la première copie
    const int m0 = int(blockIdx.y) * kBlockM, n0 = int(blockIdx.x) * kBlockN, steps = k / kBlockK;
    if (threadIdx.x >= 128) {
        if (threadIdx.x == 128)
            for (int step = 0; step < steps; ++step) {
                const int s = step % kStages;
                if (step >= kStages) wait(&empty[s], (step / kStages - 1) % 2);
                expect_bytes(&full[s], sizeof a_tile[s] + sizeof b_tile[s]);
                const unsigned rows = kBlockM / ranks;  // la part de A que charge ce bloc
                unsigned char* part = a_tile[s] + rank * rows * 128;
                if (ranks == 1)
                    load_2d(part, &map_a, &full[s], step * kBlockK, m0);
                else
                    load_2d_multicast(part, &map_a, &full[s], step * kBlockK, m0 + int(rank * rows),
                                      std::uint16_t(own_rank_only ? 1u << rank : (1u << ranks) - 1));
                load_2d(b_tile[s], &map_b, &full[s], step * kBlockK, n0);
            }
    } else {
        float d[32] = {};  // écrasés au premier wgmma (scale-d nul)
        for (int step = 0; step < steps; ++step) {
            const int s = step % kStages;
            wait(&full[s], (step / kStages) % 2);
            asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
            for (int kk = 0; kk < kBlockK / 16; ++kk)  // 16 bf16 = 32 octets plus loin dans la ligne
                mma_m64n64k16(d, descriptor_128b(a_tile[s] + 32 * kk), descriptor_128b(b_tile[s] + 32 * kk),
                              step > 0 || kk > 0);
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
            if (threadIdx.x == 0)
                for (unsigned r = 0; r < ranks; ++r) arrive_cluster(&empty[s], r);
        }
        // Accumulateurs de m64nNk16 : registre i de la lane l du warp w, ligne
        // 16w + l/4 + 8·((i/2) mod 2), colonne 8·(i/4) + 2·(l mod 4) + i mod 2.
        const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
        for (unsigned i = 0; i < 32; ++i) {
            const unsigned row = 16 * warp + lane / 4 + 8 * (i / 2 % 2), column = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
            c[std::size_t(m0 + int(row)) * n + n0 + int(column)] = d[i];
        }
    }
    cluster_sync();  // aucun bloc ne finit tant qu'un autre peut écrire dans sa mémoire partagée
}

std::uint16_t to_bf16(int value) {
    return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(float(value)) >> 16);  // exact pour |v| ≤ 256
}

/** Carte 2D de bf16 (lignes de @p inner éléments), boîte {64, @p box_rows}, swizzle 128B. */
CUtensorMap encode(void* base, cuuint64_t inner, cuuint64_t rows, cuuint32_t box_rows) {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult query{};
    EXPECT_EQ(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &query),
              cudaSuccess);
    const cuuint64_t dims[2] = {inner, rows}, strides[1] = {inner * 2};
    const cuuint32_t box[2] = {kBlockK, box_rows}, steps[2] = {1, 1};
    CUtensorMap map{};
    EXPECT_EQ(reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function)(
                  &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, base, dims, strides, box, steps,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
              CUDA_SUCCESS);
    return map;
}

/** C = A·B sur le GPU (émulé), en clusters de @p cluster blocs le long de N (1 : lancement ordinaire). */
void check_gemm(int m, int n, int k, unsigned cluster) {
    std::vector<int> a(std::size_t(m) * k), b(std::size_t(k) * n);  // valeurs dans [-3, 3]
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = int(i * 7 % 13 % 7) - 3;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = int((i * 5 + i / 17) % 7) - 3;
    std::vector<std::uint16_t> a16(a.size()), bt16(b.size());  // Bᵀ : N × K, K contigu
    for (std::size_t i = 0; i < a.size(); ++i) a16[i] = to_bf16(a[i]);
    for (int kk = 0; kk < k; ++kk)
        for (int j = 0; j < n; ++j) bt16[std::size_t(j) * k + kk] = to_bf16(b[std::size_t(kk) * n + j]);
    void *da, *db;
    float* dc;
    ASSERT_EQ(cudaMalloc(&da, a16.size() * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&db, bt16.size() * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dc, std::size_t(m) * n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(da, a16.data(), a16.size() * 2, cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(db, bt16.data(), bt16.size() * 2, cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemset(dc, 0xff, std::size_t(m) * n * sizeof(float)), cudaSuccess);  // NaN partout
    const CUtensorMap map_a = encode(da, k, m, kBlockM / cluster), map_b = encode(db, k, n, kBlockN);
    const dim3 grid(n / kBlockN, m / kBlockM);
    if (cluster == 1) {
        gemm<<<grid, kThreads>>>(map_a, map_b, dc, n, k, false);
        ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    } else {
        cudaLaunchAttribute attribute;
        const cudaLaunchConfig_t config = config_with_cluster(grid, dim3(kThreads), attribute, dim3(cluster));
        ASSERT_EQ(cudaLaunchKernelEx(&config, gemm, map_a, map_b, dc, n, k, false), cudaSuccess);
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    std::vector<float> seen(std::size_t(m) * n);
    ASSERT_EQ(cudaMemcpy(seen.data(), dc, seen.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    int wrong = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            long expected = 0;
            for (int kk = 0; kk < k; ++kk) expected += long(a[std::size_t(i) * k + kk]) * b[std::size_t(kk) * n + j];
            const float value = seen[std::size_t(i) * n + j];
            if (value != float(expected) && ++wrong <= 5)
                ADD_FAILURE() << "C[" << i << "][" << j << "] = " << value << ", attendu " << expected;
        }
    EXPECT_EQ(wrong, 0) << "écarts sur " << m * n << " éléments";
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
}

}  // namespace hopper_gemm

/** Un échec (interblocage, faute) laisse une erreur collante : effacée pour le test suivant. */
class HopperGemm : public testing::Test {
protected:
    void TearDown() override {
        if (HasFailure()) cudaDeviceReset();
    }
};

// Le cas de l'issue 13 : TMA + mbarrier + wgmma, clusters de deux blocs avec multidiffusion de A,
// à la taille de son critère de vitesse (256 × 256 × 256).
TEST_F(HopperGemm, ClusterMulticastMatchesIntegerReference) { hopper_gemm::check_gemm(256, 256, 256, 2); }

// Le même noyau lancé sans cluster (cluster implicite d'un bloc) : chaque bloc charge toute sa tuile de A.
TEST_F(HopperGemm, WithoutClusterMatchesIntegerReference) { hopper_gemm::check_gemm(128, 256, 256, 1); }

// La multidiffusion oubliée (ctaMask du seul bloc émetteur) : chaque barrière pleine attend pour
// toujours les 4 096 octets de l'autre moitié de A ; le chien de garde le dit, avec l'état de la
// mbarrier, et pas seulement la barrière de cluster finale que les consommateurs n'atteignent pas.
TEST_F(HopperGemm, MulticastToOneBlockIsDiagnosed) {
    constexpr int kM = 64, kN = 128, kK = 64;
    void *da, *db;
    float* dc;
    ASSERT_EQ(cudaMalloc(&da, kM * kK * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&db, kN * kK * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dc, kM * kN * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMemset(da, 0, kM * kK * 2), cudaSuccess);
    ASSERT_EQ(cudaMemset(db, 0, kN * kK * 2), cudaSuccess);
    const CUtensorMap map_a = hopper_gemm::encode(da, kK, kM, hopper_gemm::kBlockM / 2),
                      map_b = hopper_gemm::encode(db, kK, kN, hopper_gemm::kBlockN);
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(
        dim3(kN / hopper_gemm::kBlockN, kM / hopper_gemm::kBlockM), dim3(hopper_gemm::kThreads), attribute, dim3(2));
    simt::set_quiet(true);
    simt::clear_diagnostic();
    ASSERT_EQ(cudaLaunchKernelEx(&config, hopper_gemm::gemm, map_a, map_b, dc, kN, kK, true), cudaSuccess);
    EXPECT_NE(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_THAT(simt::last_diagnostic(),
                testing::AllOf(testing::HasSubstr("noyau hopper_gemm::gemm : interblocage"),
                               testing::HasSubstr("la barrière du cluster"),
                               testing::HasSubstr("4096 octets de transaction attendus")));
    simt::set_quiet(false);
    cudaDeviceReset();
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
}
