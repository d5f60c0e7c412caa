// Barrières : __syncthreads ordonne les accès à la mémoire partagée du bloc, ses variantes
// réduisent un prédicat sur tout le bloc, __syncwarp synchronise les lanes d'un warp.
#include <gtest/gtest.h>

#include <vector>

namespace {

constexpr int kBlock = 256;

// Retournement d'un segment : chaque thread lit la case écrite par un autre, ce qui
// n'est juste qu'une fois toutes les écritures faites, d'où la barrière.
__global__ void __launch_bounds__(kBlock) reverse_each_block(const int* __restrict__ in,
                                                             int* __restrict__ out) {
    __shared__ int segment[kBlock];
    const int base = blockIdx.x * kBlock;
    segment[threadIdx.x] = in[base + threadIdx.x];
    __syncthreads();
    out[base + threadIdx.x] = segment[kBlock - 1 - threadIdx.x];
}

// Les trois réductions d'un prédicat par la barrière, dans un bloc 2D.
__global__ void barrier_reductions(int* out, int modulus) {
    const int rank = threadIdx.y * blockDim.x + threadIdx.x;
    const int count = __syncthreads_count(rank % modulus == 0);
    const int all_positive = __syncthreads_and(rank >= 0);
    const int all_multiples = __syncthreads_and(rank % modulus == 0);
    const int some_last = __syncthreads_or(rank == int(blockDim.x * blockDim.y) - 1);
    const int none_negative = __syncthreads_or(rank < 0);
    if (rank == 0) {
        out[0] = count;
        out[1] = all_positive;
        out[2] = all_multiples;
        out[3] = some_last;
        out[4] = none_negative;
    }
}

// Rotation dans chaque warp par la mémoire partagée : __syncwarp suffit entre l'écriture
// et la lecture, puisque lecteurs et écrivains sont du même warp.
__global__ void rotate_within_warps(int* out) {
    __shared__ int values[128];
    const unsigned lane = threadIdx.x % warpSize;
    const unsigned warp_base = threadIdx.x - lane;
    values[threadIdx.x] = static_cast<int>(threadIdx.x * 10);
    __syncwarp();
    const int next = values[warp_base + (lane + 1) % warpSize];
    __syncwarp();
    values[threadIdx.x] = next + 1;  // réécriture après que tout le warp a lu
    __syncwarp();
    out[threadIdx.x] = values[threadIdx.x];
}

// Boucle dont chaque tour a sa barrière : la même ligne franchie plusieurs fois.
__global__ void repeated_barriers(int* out, int rounds) {
    __shared__ int cell[64];
    cell[threadIdx.x] = static_cast<int>(threadIdx.x);
    __syncthreads();
    for (int round = 0; round < rounds; ++round) {
        const int left = cell[(threadIdx.x + blockDim.x - 1) % blockDim.x];
        __syncthreads();
        cell[threadIdx.x] = left;
        __syncthreads();
    }
    out[threadIdx.x] = cell[threadIdx.x];
}

}  // namespace

TEST(Barriers, SyncthreadsOrdersSharedMemoryReversal) {
    const int blocks = 6, n = blocks * kBlock;
    std::vector<int> host(n);
    for (int i = 0; i < n; ++i) host[i] = 3 * i + 1;
    int *in = nullptr, *out = nullptr;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    reverse_each_block<<<blocks, kBlock>>>(in, out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int> result(n);
    cudaMemcpy(result.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < kBlock; ++t)
            ASSERT_EQ(result[b * kBlock + t], host[b * kBlock + kBlock - 1 - t]) << b << ", " << t;
    cudaFree(in);
    cudaFree(out);
}

TEST(Barriers, CountAndOrReducePredicateOverTheBlock) {
    int* out = nullptr;
    cudaMalloc(&out, 5 * sizeof(int));
    barrier_reductions<<<1, dim3(16, 6)>>>(out, 3);  // 96 threads, 32 multiples de 3
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    int host[5] = {};
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    EXPECT_EQ(host[0], 32);
    EXPECT_NE(host[1], 0);
    EXPECT_EQ(host[2], 0);
    EXPECT_NE(host[3], 0);
    EXPECT_EQ(host[4], 0);
    cudaFree(out);
}

TEST(Barriers, SyncwarpOrdersExchangesInsideEachWarp) {
    int* out = nullptr;
    cudaMalloc(&out, 128 * sizeof(int));
    rotate_within_warps<<<1, 128>>>(out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<int> host(128);
    cudaMemcpy(host.data(), out, 128 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 128; ++t) {
        const int lane = t % 32, base = t - lane;
        EXPECT_EQ(host[t], (base + (lane + 1) % 32) * 10 + 1) << t;
    }
    cudaFree(out);
}

TEST(Barriers, SameBarrierCrossedInEveryLoopIteration) {
    const int threads = 48, rounds = 5;
    int* out = nullptr;
    cudaMalloc(&out, threads * sizeof(int));
    repeated_barriers<<<1, threads>>>(out, rounds);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int> host(threads);
    cudaMemcpy(host.data(), out, threads * sizeof(int), cudaMemcpyDeviceToHost);
    for (int t = 0; t < threads; ++t) EXPECT_EQ(host[t], (t - rounds + threads) % threads) << t;
    cudaFree(out);
}
