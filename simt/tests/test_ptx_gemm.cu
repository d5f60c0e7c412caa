// Un GEMM bf16 → f32 écrit comme sur Ampere, tout en PTX en ligne dans de petites fonctions
// d'enrobage : tuiles de A et B copiées en mémoire partagée par cp.async (deux étages),
// fragments chargés par ldmatrix (A directement, B transposé : B est rangé k × n), produits
// par mma.sync.m16n8k16. Sur des entiers petits, le résultat est exactement celui du CPU.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

namespace {

namespace ptx {

__device__ __forceinline__ std::uint32_t smem(const void* pointer) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}
__device__ __forceinline__ void cp_async_16(std::uint32_t destination, const void* source) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(destination), "l"(source));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&d)[4], std::uint32_t address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(address));
}
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&d)[4], std::uint32_t address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(address));
}
__device__ __forceinline__ void mma(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0, std::uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

}  // namespace ptx

constexpr int BM = 64, BN = 64, BK = 32, THREADS = 128;

// C (m × n, f32) = A (m × k, bf16, ligne d'abord) · B (k × n, bf16, ligne d'abord). Quatre
// warps par bloc, chacun une tuile de 32 × 32 de C (2 × 4 instructions m16n8).
__global__ void gemm_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c, int n, int k) {
    __shared__ __align__(128) std::uint16_t a_tile[2][BM][BK];
    __shared__ __align__(128) std::uint16_t b_tile[2][BK][BN];
    const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
    const int row0 = int(blockIdx.y) * BM, col0 = int(blockIdx.x) * BN;
    const int warp_row = (warp / 2) * 32, warp_col = (warp % 2) * 32;

    auto load = [&](int stage, int k0) {
        for (int chunk = int(threadIdx.x); chunk < BM * BK / 8; chunk += THREADS) {  // 8 bf16 = 16 octets
            const int r = chunk / (BK / 8), c8 = chunk % (BK / 8) * 8;
            ptx::cp_async_16(ptx::smem(&a_tile[stage][r][c8]), &a[(row0 + r) * k + k0 + c8]);
        }
        for (int chunk = int(threadIdx.x); chunk < BK * BN / 8; chunk += THREADS) {
            const int r = chunk / (BN / 8), c8 = chunk % (BN / 8) * 8;
            ptx::cp_async_16(ptx::smem(&b_tile[stage][r][c8]), &b[(k0 + r) * n + col0 + c8]);
        }
        ptx::commit();
    };

    float acc[2][4][4] = {};
    const int steps = k / BK;
    load(0, 0);
    for (int step = 0; step < steps; ++step) {
        const int stage = step % 2;
        if (step + 1 < steps) {
            load(1 - stage, (step + 1) * BK);
            ptx::wait<1>();
        } else {
            ptx::wait<0>();
        }
        __syncthreads();
        for (int kk = 0; kk < BK; kk += 16) {
            // Lignes fournies par la lane : 16 lignes, puis les mêmes décalées de 8 en k (A)
            // ou en n (B), dans l'ordre des registres du PTX ISA.
            std::uint32_t fa[2][4], fb[2][4];
            for (int i = 0; i < 2; ++i)
                ptx::ldmatrix_x4(fa[i], ptx::smem(&a_tile[stage][warp_row + 16 * i + lane % 16][kk + lane / 16 * 8]));
            for (int j = 0; j < 2; ++j)
                ptx::ldmatrix_x4_trans(fb[j], ptx::smem(&b_tile[stage][kk + lane % 16][warp_col + 16 * j + lane / 16 * 8]));
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 4; ++j) ptx::mma(acc[i][j], fa[i], fb[j / 2][2 * (j % 2)], fb[j / 2][2 * (j % 2) + 1]);
        }
        __syncthreads();
    }
    const int group = lane / 4, t = lane % 4;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j)
            for (int v = 0; v < 4; ++v) {
                const int r = row0 + warp_row + 16 * i + group + 8 * (v / 2);
                const int col = col0 + warp_col + 8 * j + 2 * t + v % 2;
                c[r * n + col] = acc[i][j][v];
            }
}

std::uint16_t bf16(int value) { return std::uint16_t(std::bit_cast<std::uint32_t>(float(value)) >> 16); }

}  // namespace

TEST(PtxGemm, MmaLdmatrixCpAsyncMatchTheCpuExactly) {
    constexpr int m = 128, n = 128, k = 96;
    std::vector<int> a(m * k), b(k * n);
    for (int i = 0; i < m * k; ++i) a[i] = (i * 37 + 11) % 9 - 4;
    for (int i = 0; i < k * n; ++i) b[i] = (i * 53 + 5) % 9 - 4;
    std::vector<std::uint16_t> a16(a.size()), b16(b.size());
    for (std::size_t i = 0; i < a.size(); ++i) a16[i] = bf16(a[i]);
    for (std::size_t i = 0; i < b.size(); ++i) b16[i] = bf16(b[i]);

    std::uint16_t *da, *db;
    float* dc;
    ASSERT_EQ(cudaMalloc(&da, a16.size() * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&db, b16.size() * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dc, m * n * sizeof(float)), cudaSuccess);
    cudaMemcpy(da, a16.data(), a16.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b16.data(), b16.size() * 2, cudaMemcpyHostToDevice);
    gemm_bf16<<<dim3(n / BN, m / BM), THREADS>>>(da, db, dc, n, k);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<float> c(m * n);
    cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            int expected = 0;
            for (int p = 0; p < k; ++p) expected += a[i * k + p] * b[p * n + j];
            if (c[i * n + j] != float(expected) && ++wrong <= 5)
                ADD_FAILURE() << "C[" << i << "][" << j << "] = " << c[i * n + j] << ", attendu " << expected;
        }
    EXPECT_EQ(wrong, 0);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
}
