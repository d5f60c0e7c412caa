// __CUDA_ARCH__ sous simt : la réécriture le remplace par 900 (et __CUDA_ARCH_FEAT_SM90_ALL par
// 1) dans le corps des fonctions __global__ et __device__, le seul code que le périphérique
// émulé exécute ; le code de l'hôte et les fonctions __host__ __device__ ne le voient pas,
// comme dans la passe hôte de nvcc. Un noyau qui choisit sa branche par __CUDA_ARCH__ dans son
// corps prend donc celle d'un sm_90a ; une région #if de la portée du fichier qui ne déclare que
// du code de périphérique aussi (simt/README.md, « __CUDA_ARCH__ »).
#include <gtest/gtest.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <vector>

namespace cuda_arch_test {

__global__ void report_architecture(int* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    out[0] = __CUDA_ARCH__;
#else
    out[0] = -1;  // branche de l'hôte, ou d'une architecture antérieure
#endif
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    out[1] = 1;
#else
    out[1] = 0;
#endif
}

// Somme d'un warp, comme l'échantillon « reduction » : cg::reduce à partir de sm_80, papillon
// de shuffles sinon.
__device__ int warp_sum(int value) {
#if __CUDA_ARCH__ >= 800
    const auto warp = cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block());
    return cooperative_groups::reduce(warp, value, cooperative_groups::plus<int>());
#else
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
    return -value;  // signe inversé : la mauvaise branche se voit
#endif
}

__global__ void sum_lanes(int* out) { out[threadIdx.x] = warp_sum(static_cast<int>(threadIdx.x)); }

// Comme l'échantillon « reduction » : une version générique par shuffles, spécialisée pour int
// à la portée du fichier sous #if __CUDA_ARCH__ >= 800. Appelée par 8 lanes avec le masque
// 0xff, la version générique lirait la lane 16, hors du masque (simt l'arrête) : le noyau doit
// voir la spécialisation, comme dans la passe périphérique de nvcc.
template <class T>
__device__ __forceinline__ T warp_total(unsigned mask, T value) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) value += __shfl_down_sync(mask, value, offset);
    return value;
}

#if __CUDA_ARCH__ >= 800
template <>
__device__ __forceinline__ int warp_total<int>(unsigned mask, int value) {
    return __reduce_add_sync(mask, value);
}
#endif

__global__ void eight_lane_total(int* out) {
    if (threadIdx.x < 8) out[threadIdx.x] = warp_total<int>(0xffu, static_cast<int>(threadIdx.x) + 1);
}

__host__ __device__ int compiled_for_device() {
#ifdef __CUDA_ARCH__
    return 1;
#else
    return 0;
#endif
}

__global__ void call_host_device(int* out) { out[0] = compiled_for_device(); }

int host_view() {
#ifdef __CUDA_ARCH__
    return 1;
#else
    return 0;
#endif
}

}  // namespace cuda_arch_test

namespace {

std::vector<int> run(void (*kernel)(int*), unsigned threads, std::size_t count) {
    int* device = nullptr;
    EXPECT_EQ(cudaMalloc(&device, count * sizeof(int)), cudaSuccess);
    kernel<<<1, threads>>>(device);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int> host(count);
    EXPECT_EQ(cudaMemcpy(host.data(), device, count * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(device);
    return host;
}

}  // namespace

TEST(CudaArch, DeviceCodeSeesSm90a) {
    EXPECT_EQ(run(cuda_arch_test::report_architecture, 1, 2), (std::vector<int>{900, 1}));
    // La branche sm_80 et après : 0 + 1 + … + 31.
    EXPECT_EQ(run(cuda_arch_test::sum_lanes, 32, 32), std::vector<int>(32, 496));
}

TEST(CudaArch, FileScopeRegionOfDeviceCodeSeesSm90a) {
    EXPECT_EQ(run(cuda_arch_test::eight_lane_total, 32, 8), std::vector<int>(8, 36));  // 1 + … + 8
}

TEST(CudaArch, HostCodeAndHostDeviceFunctionsDoNotSeeIt) {
    EXPECT_EQ(cuda_arch_test::host_view(), 0);
    EXPECT_EQ(cuda_arch_test::compiled_for_device(), 0);
    // Une seule fonction __host__ __device__ sert aux deux : simt lui donne la vue de l'hôte,
    // même appelée depuis un noyau (limite écrite dans simt/README.md).
    EXPECT_EQ(run(cuda_arch_test::call_host_device, 1, 1), std::vector<int>{0});
}
