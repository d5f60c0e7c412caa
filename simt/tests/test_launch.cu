// Lancements : variables intégrées, grilles et blocs en 3D, noyaux génériques, erreurs
// de configuration rendues par cudaGetLastError comme sur un GPU.
#include <gtest/gtest.h>

#include <vector>

namespace {

__global__ void record_coordinates(uint4* out) {
    const unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    const unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const unsigned linear = block * blockDim.x * blockDim.y * blockDim.z + thread;
    out[linear] = make_uint4(threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z,
                             blockIdx.x + 10 * blockIdx.y + 100 * blockIdx.z,
                             blockDim.x * blockDim.y * blockDim.z, gridDim.x * gridDim.y * gridDim.z);
}

template <typename T, int Factor>
__global__ void scale(T* values, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        values[i] *= T(Factor);
}

}  // namespace

TEST(Launch, BuiltinVariablesCoverEveryThreadOnce) {
    const dim3 grid(3, 2, 2), block(4, 2, 3);
    const unsigned total = 12 * 24;
    uint4* out = nullptr;
    ASSERT_EQ(cudaMalloc(&out, total * sizeof(uint4)), cudaSuccess);
    record_coordinates<<<grid, block>>>(out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<uint4> host(total);
    ASSERT_EQ(cudaMemcpy(host.data(), out, total * sizeof(uint4), cudaMemcpyDeviceToHost), cudaSuccess);
    for (unsigned i = 0; i < total; ++i) {
        const unsigned thread = i % 24, block_index = i / 24;
        EXPECT_EQ(host[i].x, thread % 4 + 10 * (thread / 4 % 2) + 100 * (thread / 8)) << i;
        EXPECT_EQ(host[i].y, block_index % 3 + 10 * (block_index / 3 % 2) + 100 * (block_index / 6)) << i;
        EXPECT_EQ(host[i].z, 24u);
        EXPECT_EQ(host[i].w, 12u);
    }
    cudaFree(out);
}

TEST(Launch, TemplateKernelWithStreamArgument) {
    std::vector<double> host(1000, 1.5);
    double* values = nullptr;
    ASSERT_EQ(cudaMalloc(&values, host.size() * sizeof(double)), cudaSuccess);
    cudaMemcpy(values, host.data(), host.size() * sizeof(double), cudaMemcpyHostToDevice);
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    scale<double, 3><<<2, 64, 0, stream>>>(values, 1000);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    cudaMemcpy(host.data(), values, host.size() * sizeof(double), cudaMemcpyDeviceToHost);
    for (double v : host) ASSERT_EQ(v, 4.5);
    cudaStreamDestroy(stream);
    cudaFree(values);
}

TEST(Launch, TooManyThreadsPerBlockIsAnInvalidConfiguration) {
    int* unused = nullptr;
    scale<int, 2><<<1, 1025>>>(unused, 0);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // non collante : effacée par la lecture
    scale<int, 2><<<dim3(1, 1, 0), 32>>>(unused, 0);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
    scale<int, 2><<<1, dim3(32, 32, 2)>>>(unused, 0);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
}
