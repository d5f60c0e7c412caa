// Copies asynchrones (cp.async) : elles n'ont lieu qu'à l'attente qui les couvre, si bien
// qu'un noyau qui lit sa tuile sans l'attendre lit l'ancienne valeur, comme cela peut
// arriver sur GPU.
#include <cuda_pipeline_primitives.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <vector>

namespace {

// Chaque thread copie un flottant de global vers partagé, puis relit la case partagée.
__global__ void copy_then_read(const float* source, float* seen, bool wait) {
    __shared__ __align__(16) float tile[64];
    tile[threadIdx.x] = -1.0f;
    __pipeline_memcpy_async(&tile[threadIdx.x], &source[threadIdx.x], sizeof(float));
    __pipeline_commit();
    if (wait) __pipeline_wait_prior(0);
    __syncthreads();
    seen[threadIdx.x] = tile[threadIdx.x];
}

// Deux groupes : wait_prior(1) n'attend que le plus ancien.
__global__ void two_groups(const float* source, float* seen) {
    __shared__ __align__(16) float first[4], second[4];
    first[0] = second[0] = -1.0f;
    __pipeline_memcpy_async(first, source, 4 * sizeof(float));
    __pipeline_commit();
    __pipeline_memcpy_async(second, source + 4, 4 * sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    seen[0] = first[0];
    seen[1] = second[0];
    __pipeline_wait_prior(0);
    seen[2] = second[0];
}

__global__ void misaligned_copy(const float* source) {
    __shared__ __align__(16) float tile[8];
    __pipeline_memcpy_async(&tile[1], source, 16);
}

std::vector<float> run(bool wait) {
    std::vector<float> host(64);
    for (int i = 0; i < 64; ++i) host[i] = float(i);
    float *source, *seen;
    cudaMalloc(&source, 64 * sizeof(float));
    cudaMalloc(&seen, 64 * sizeof(float));
    cudaMemcpy(source, host.data(), 64 * sizeof(float), cudaMemcpyHostToDevice);
    copy_then_read<<<1, 64>>>(source, seen, wait);
    cudaMemcpy(host.data(), seen, 64 * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(source);
    cudaFree(seen);
    return host;
}

}  // namespace

TEST(AsyncCopy, DataArrivesAtTheWait) {
    const std::vector<float> seen = run(true);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(seen[i], float(i));
}

TEST(AsyncCopy, ReadingWithoutWaitingSeesTheOldValue) {
    const std::vector<float> seen = run(false);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(seen[i], -1.0f);
}

TEST(AsyncCopy, WaitPriorLeavesTheNewestGroupsPending) {
    const std::vector<float> host{1, 2, 3, 4, 5, 6, 7, 8};
    float *source, *seen;
    cudaMalloc(&source, 8 * sizeof(float));
    cudaMalloc(&seen, 3 * sizeof(float));
    cudaMemcpy(source, host.data(), 8 * sizeof(float), cudaMemcpyHostToDevice);
    two_groups<<<1, 1>>>(source, seen);
    float result[3];
    cudaMemcpy(result, seen, sizeof result, cudaMemcpyDeviceToHost);
    EXPECT_EQ(result[0], 1.0f);
    EXPECT_EQ(result[1], -1.0f);
    EXPECT_EQ(result[2], 5.0f);
    cudaFree(source);
    cudaFree(seen);
}

TEST(AsyncCopy, MisalignedCopyIsReported) {
    float* source;
    cudaMalloc(&source, 16 * sizeof(float));
    simt::set_quiet(true);
    misaligned_copy<<<1, 1>>>(source);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_NE(simt::last_diagnostic().find("copie asynchrone invalide"), std::string::npos)
        << simt::last_diagnostic();
    simt::set_quiet(false);
    cudaDeviceReset();
    cudaFree(source);
}
