// Mémoire partagée : statique (__shared__) propre à chaque bloc, dynamique (extern
// __shared__) dimensionnée au lancement, et la limite de 48 Kio qu'on ne dépasse qu'après
// cudaFuncSetAttribute, comme sur un GPU.
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <numeric>
#include <vector>

namespace {

constexpr int kThreads = 64;

// Chaque bloc remplit sa mémoire partagée avec son propre indice puis relit ; les blocs
// tournent en même temps : un tampon commun à tous mélangerait les indices.
__global__ void write_block_index_and_read_back(int* mismatches, int* sums) {
    __shared__ int tile[kThreads];
    tile[threadIdx.x] = static_cast<int>(blockIdx.x);
    __syncthreads();
    const int neighbour = tile[(threadIdx.x + 1) % kThreads];
    if (neighbour != static_cast<int>(blockIdx.x)) atomicAdd(mismatches, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int i = 0; i < kThreads; ++i) sum += tile[i];
        sums[blockIdx.x] = sum;
    }
}

// Produit scalaire par blocs : la taille du tampon partagé vient du lancement.
__global__ void block_dot_product(const float* __restrict__ x, const float* __restrict__ y,
                                  float* __restrict__ partial, int n) {
    extern __shared__ float products[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    products[threadIdx.x] = i < n ? x[i] * y[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) products[threadIdx.x] += products[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = products[0];
}

// Deux tableaux de types différents dans le même tampon dynamique, à la main.
__global__ void split_dynamic_buffer(int* out) {
    extern __shared__ __align__(16) unsigned char buffer[];
    double* weights = reinterpret_cast<double*>(buffer);
    int* counts = reinterpret_cast<int*>(buffer + blockDim.x * sizeof(double));
    weights[threadIdx.x] = 0.5 * threadIdx.x;
    counts[threadIdx.x] = static_cast<int>(threadIdx.x);
    __syncthreads();
    const unsigned mirror = blockDim.x - 1 - threadIdx.x;
    out[threadIdx.x] = static_cast<int>(2.0 * weights[mirror]) + counts[mirror];
}

// Touche le premier et le dernier octet du tampon dynamique (au-delà de 48 Kio).
__global__ void touch_large_buffer(unsigned char* out, unsigned bytes) {
    extern __shared__ unsigned char large[];
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) large[i] = static_cast<unsigned char>(i % 251);
    __syncthreads();
    if (threadIdx.x == 0) {
        out[0] = large[0];
        out[1] = large[bytes - 1];
    }
}

}  // namespace

TEST(SharedMemory, StaticSharedMemoryIsPrivateToEachBlock) {
    const int blocks = 12;
    int *mismatches = nullptr, *sums = nullptr;
    ASSERT_EQ(cudaMalloc(&mismatches, sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&sums, blocks * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMemset(mismatches, 0, sizeof(int)), cudaSuccess);
    write_block_index_and_read_back<<<blocks, kThreads>>>(mismatches, sums);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    int host_mismatches = -1;
    std::vector<int> host_sums(blocks);
    cudaMemcpy(&host_mismatches, mismatches, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(host_sums.data(), sums, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    EXPECT_EQ(host_mismatches, 0);
    for (int b = 0; b < blocks; ++b) EXPECT_EQ(host_sums[b], b * kThreads) << "bloc " << b;
    cudaFree(mismatches);
    cudaFree(sums);
}

TEST(SharedMemory, DynamicSharedMemorySizedAtLaunch) {
    const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 7);
        y[i] = static_cast<float>(i % 5) - 2.0f;
    }
    float *dx = nullptr, *dy = nullptr, *dpartial = nullptr;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMalloc(&dpartial, blocks * sizeof(float));
    cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    block_dot_product<<<blocks, threads, threads * sizeof(float)>>>(dx, dy, dpartial, n);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<float> partial(blocks);
    cudaMemcpy(partial.data(), dpartial, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; ++b) {
        float expected = 0.0f;  // entiers exacts en float : l'ordre de sommation est indifférent
        for (int i = b * threads; i < std::min(n, (b + 1) * threads); ++i) expected += x[i] * y[i];
        EXPECT_EQ(partial[b], expected) << "bloc " << b;
    }
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(dpartial);
}

TEST(SharedMemory, DynamicBufferSplitIntoSeveralArrays) {
    const unsigned threads = 96;
    int* out = nullptr;
    cudaMalloc(&out, threads * sizeof(int));
    split_dynamic_buffer<<<1, threads, threads * (sizeof(double) + sizeof(int))>>>(out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<int> host(threads);
    cudaMemcpy(host.data(), out, threads * sizeof(int), cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < threads; ++t) EXPECT_EQ(host[t], 2 * int(threads - 1 - t)) << t;
    cudaFree(out);
}

TEST(SharedMemory, MoreThan48KiBNeedsCudaFuncSetAttribute) {
    const unsigned bytes = 64 * 1024;
    unsigned char* out = nullptr;
    cudaMalloc(&out, 2);
    simt::set_quiet(true);
    touch_large_buffer<<<1, 128, bytes>>>(out, bytes);
    simt::set_quiet(false);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_NE(simt::last_diagnostic().find("65536 octets de mémoire partagée dynamique"), std::string::npos)
        << simt::last_diagnostic();

    ASSERT_EQ(cudaFuncSetAttribute(touch_large_buffer, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
              cudaSuccess);
    touch_large_buffer<<<1, 128, bytes>>>(out, bytes);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    unsigned char host[2] = {};
    cudaMemcpy(host, out, 2, cudaMemcpyDeviceToHost);
    EXPECT_EQ(host[0], 0);
    EXPECT_EQ(host[1], (bytes - 1) % 251);

    // Au-delà de ce que le périphérique permet même sur demande : refusé d'emblée.
    EXPECT_EQ(cudaFuncSetAttribute(touch_large_buffer, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 20),
              cudaErrorInvalidValue);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    cudaFree(out);
}
