// Formes de noyaux et de lancements que nvcc accepte et que la réécriture doit traduire :
// arguments par défaut, surcharges, arguments de modèle déduits, 0 ou NULL pour un
// pointeur, extern __shared__ écrit dans tous les ordres ou à la portée d'un espace de
// noms, cudaLaunchCooperativeKernel((void*)noyau, …).
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <cstddef>
#include <cstdint>

namespace {

// À la portée d'un espace de noms, comme l'écrivent des programmes réels : avant, la
// réécriture en faisait une variable globale initialisée avant main, hors de tout bloc.
extern __shared__ float namespace_scope_buffer[];

__global__ void reverse_through_namespace_buffer(float* data) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    namespace_scope_buffer[threadIdx.x] = data[i];
    __syncthreads();
    data[i] = namespace_scope_buffer[blockDim.x - 1 - threadIdx.x];
}

// Toutes ces déclarations désignent le même tampon dynamique.
__global__ void qualifiers_in_any_order(int* same) {
    extern int __shared__ a[];
    __shared__ extern int b[];
    extern __shared__ __align__(16) int c[];
    extern __align__(8) __shared__ int d[];
    extern volatile __shared__ int e[];
    const void* first = a;
    same[threadIdx.x] = first == b && first == c && first == d && first == const_cast<int*>(e);
}

__global__ void fill_with_default(int* out, int value = 7) { out[threadIdx.x] = value; }

__global__ void mark(int* out) { out[0] = 1; }
__global__ void mark(float* out) { out[0] = 2.0f; }

template <typename T>
__global__ void scale(T* data, T factor) {
    data[threadIdx.x] *= factor;
}

// Le modèle se déduit du premier argument ; le second se convertit (unsigned → int).
template <typename T>
__global__ void add_count(T* data, int count) {
    data[threadIdx.x] += T(count);
}

__global__ void is_null(int* out, const float* maybe) { out[0] = maybe == nullptr; }

__global__ void count_threads(unsigned* counter) { atomicAdd(counter, 1u); }

template <typename T>
T* device_array(std::size_t n) {
    T* data = nullptr;
    EXPECT_EQ(cudaMallocManaged(&data, n * sizeof(T)), cudaSuccess);
    return data;
}

TEST(KernelForms, ExternSharedAtNamespaceScope) {
    constexpr unsigned kBlocks = 3;
    for (unsigned threads : {32u, 64u}) {  // deux tailles : le pointeur suit chaque lancement
        float* data = device_array<float>(kBlocks * threads);
        for (unsigned i = 0; i < kBlocks * threads; ++i) data[i] = float(i);
        reverse_through_namespace_buffer<<<kBlocks, threads, threads * sizeof(float)>>>(data);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        for (unsigned i = 0; i < kBlocks * threads; ++i)
            EXPECT_EQ(data[i], float(i / threads * threads + threads - 1 - i % threads)) << i;
        cudaFree(data);
    }
}

TEST(KernelForms, ExternSharedAtNamespaceScopeUnderThreadOrders) {
    simt::set_thread_orders(3);
    float* data = device_array<float>(64);
    for (int i = 0; i < 64; ++i) data[i] = float(i);
    reverse_through_namespace_buffer<<<2, 32, 32 * sizeof(float)>>>(data);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    simt::set_thread_orders(1);
    EXPECT_EQ(data[0], 31.0f);
    EXPECT_EQ(data[63], 32.0f);
    cudaFree(data);
}

TEST(KernelForms, ExternSharedQualifiersInAnyOrder) {
    int* same = device_array<int>(4);
    qualifiers_in_any_order<<<1, 4, 4 * sizeof(int)>>>(same);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(same[i], 1);
    cudaFree(same);
}

TEST(KernelForms, DefaultArgumentsOverloadsAndDeducedTemplates) {
    int* ints = device_array<int>(4);
    fill_with_default<<<1, 4>>>(ints);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(ints[3], 7);
    fill_with_default<<<1, 4>>>(ints, 9);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(ints[3], 9);

    float* floats = device_array<float>(4);
    mark<<<1, 1>>>(ints);
    mark<<<1, 1>>>(floats);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(ints[0], 1);
    EXPECT_EQ(floats[0], 2.0f);

    double* doubles = device_array<double>(4);
    for (int i = 0; i < 4; ++i) doubles[i] = 1.5;
    scale<<<1, 4>>>(doubles, 2.0);  // T = double, déduit
    add_count<<<1, 4>>>(doubles, 2u);  // T = double, déduit ; unsigned converti en int
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(doubles[2], 5.0);
    cudaFree(doubles);
    cudaFree(floats);
    cudaFree(ints);
}

TEST(KernelForms, ZeroOrNullForAPointerParameter) {
    int* out = device_array<int>(1);
    out[0] = 0;
    is_null<<<1, 1>>>(out, 0);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(out[0], 1);
    out[0] = 0;
    is_null<<<1, 1>>>(out, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(out[0], 1);
    cudaFree(out);
}

TEST(KernelForms, CooperativeLaunchOfAKernelCastToVoidPointer) {
    unsigned* counter = device_array<unsigned>(1);
    *counter = 0;
    void* args[] = {&counter};
    ASSERT_EQ(cudaLaunchCooperativeKernel((void*)count_threads, dim3(2), dim3(32), args), cudaSuccess);
    ASSERT_EQ(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(count_threads), 2, 32, args, 0, 0),
              cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(*counter, 128u);
    cudaFree(counter);
}

}  // namespace
