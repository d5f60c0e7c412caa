// API runtime : copies et remplissages (synchrones et asynchrones) avec leurs erreurs,
// flux, événements, propriétés et attributs du périphérique, occupation, attributs des
// noyaux, noms et textes des erreurs.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

__global__ void add_constant(int* values, int n, int constant) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) values[i] += constant;
}

__global__ void __launch_bounds__(128) busy_kernel(float* out) {
    float acc = 0.0f;
    for (int k = 0; k < 100; ++k) acc += __sinf(float(k + threadIdx.x));
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

}  // namespace

TEST(Runtime, MemcpyAndMemsetRoundTrip) {
    const int n = 300;
    std::vector<int> host(n), back(n, -1);
    for (int i = 0; i < n; ++i) host[i] = i * i;
    int *a, *b;
    ASSERT_EQ(cudaMalloc(&a, n * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&b, n * sizeof(int)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(a, host.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(back.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(back, host);

    // cudaMemset remplit octet par octet : 0x01 partout donne 0x01010101 par entier.
    EXPECT_EQ(cudaMemset(a, 0x01, n * sizeof(int)), cudaSuccess);
    EXPECT_EQ(cudaMemset(a + 10, 0, 5 * sizeof(int)), cudaSuccess);  // au milieu d'une allocation
    EXPECT_EQ(cudaMemcpy(back.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < n; ++i) EXPECT_EQ(back[i], i >= 10 && i < 15 ? 0 : 0x01010101) << i;
    EXPECT_EQ(cudaMemcpy(back.data(), a, 0, cudaMemcpyDeviceToHost), cudaSuccess);  // rien à copier
    EXPECT_EQ(cudaFree(a), cudaSuccess);
    EXPECT_EQ(cudaFree(b), cudaSuccess);
    EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(Runtime, InvalidDevicePointersAreRejected) {
    std::vector<int> host(16, 7), other(16);
    int* device;
    ASSERT_EQ(cudaMalloc(&device, 16 * sizeof(int)), cudaSuccess);
    // Un pointeur de l'hôte là où le périphérique est attendu, dans chaque sens.
    EXPECT_EQ(cudaMemcpy(other.data(), host.data(), 64, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // non collante
    EXPECT_EQ(cudaMemcpy(other.data(), host.data(), 64, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_EQ(cudaMemcpy(device, host.data(), 64, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
    EXPECT_EQ(cudaMemcpy(device, nullptr, 64, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_EQ(cudaMemset(host.data(), 0, 64), cudaErrorInvalidValue);
    EXPECT_EQ(cudaMemset(nullptr, 0, 64), cudaErrorInvalidValue);
    EXPECT_EQ(cudaMemcpyAsync(other.data(), host.data(), 64, cudaMemcpyHostToDevice, nullptr),
              cudaErrorInvalidValue);
    EXPECT_EQ(cudaMemsetAsync(host.data(), 0, 64, nullptr), cudaErrorInvalidValue);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    // Libérer ce qui n'a pas été alloué par cudaMalloc.
    EXPECT_EQ(cudaFree(host.data()), cudaErrorInvalidValue);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    // Rien de tout cela n'a touché l'hôte ni le périphérique.
    EXPECT_EQ(host, std::vector<int>(16, 7));
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaFree(device);
}

TEST(Runtime, StreamsRunInOrder) {
    const int n = 1000;
    std::vector<int> host(n);
    for (int i = 0; i < n; ++i) host[i] = i;
    int* device;
    cudaMalloc(&device, n * sizeof(int));
    cudaStream_t first, second;
    ASSERT_EQ(cudaStreamCreate(&first), cudaSuccess);
    ASSERT_EQ(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking), cudaSuccess);
    int* pinned;
    ASSERT_EQ(cudaMallocHost(&pinned, n * sizeof(int)), cudaSuccess);
    std::memcpy(pinned, host.data(), n * sizeof(int));

    EXPECT_EQ(cudaMemsetAsync(device, 0, n * sizeof(int), first), cudaSuccess);
    EXPECT_EQ(cudaMemcpyAsync(device, pinned, n * sizeof(int), cudaMemcpyHostToDevice, first), cudaSuccess);
    add_constant<<<(n + 255) / 256, 256, 0, first>>>(device, n, 5);
    add_constant<<<(n + 255) / 256, 256, 0, first>>>(device, n, 100);
    EXPECT_EQ(cudaMemcpyAsync(pinned, device, n * sizeof(int), cudaMemcpyDeviceToHost, first), cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(first), cudaSuccess);
    for (int i = 0; i < n; ++i) ASSERT_EQ(pinned[i], i + 105) << i;

    cudaEvent_t done;
    ASSERT_EQ(cudaEventCreate(&done), cudaSuccess);
    EXPECT_EQ(cudaEventRecord(done, first), cudaSuccess);
    EXPECT_EQ(cudaStreamWaitEvent(second, done, 0), cudaSuccess);
    add_constant<<<(n + 255) / 256, 256, 0, second>>>(device, n, -105);
    EXPECT_EQ(cudaStreamSynchronize(second), cudaSuccess);
    std::vector<int> back(n);
    cudaMemcpy(back.data(), device, n * sizeof(int), cudaMemcpyDeviceToHost);
    EXPECT_EQ(back, host);

    EXPECT_EQ(cudaEventDestroy(done), cudaSuccess);
    EXPECT_EQ(cudaStreamDestroy(first), cudaSuccess);
    EXPECT_EQ(cudaStreamDestroy(second), cudaSuccess);
    EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
    cudaFree(device);
}

TEST(Runtime, EventsMeasureElapsedTime) {
    float* out;
    cudaMalloc(&out, 4 * 128 * sizeof(float));
    cudaEvent_t start, stop;
    ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
    ASSERT_EQ(cudaEventCreate(&stop), cudaSuccess);
    float never_recorded = -1.0f;
    EXPECT_NE(cudaEventElapsedTime(&never_recorded, start, stop), cudaSuccess);
    cudaGetLastError();

    EXPECT_EQ(cudaEventRecord(start), cudaSuccess);
    busy_kernel<<<4, 128>>>(out);
    EXPECT_EQ(cudaEventRecord(stop), cudaSuccess);
    EXPECT_EQ(cudaEventSynchronize(stop), cudaSuccess);
    EXPECT_EQ(cudaEventQuery(stop), cudaSuccess);
    float milliseconds = -1.0f;
    EXPECT_EQ(cudaEventElapsedTime(&milliseconds, start, stop), cudaSuccess);
    EXPECT_GE(milliseconds, 0.0f);
    EXPECT_LT(milliseconds, 10000.0f);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(out);
}

TEST(Runtime, DevicePropertiesAndAttributes) {
    int count = 0, device = -1;
    EXPECT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
    EXPECT_EQ(count, 1);
    EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
    EXPECT_EQ(device, 0);
    EXPECT_EQ(cudaSetDevice(0), cudaSuccess);
    EXPECT_EQ(cudaSetDevice(1), cudaErrorInvalidDevice);
    cudaGetLastError();

    cudaDeviceProp p{};
    ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    EXPECT_NE(std::string(p.name).find("émulé"), std::string::npos) << p.name;
    EXPECT_EQ(p.warpSize, 32);
    EXPECT_EQ(p.maxThreadsPerBlock, 1024);
    EXPECT_EQ(p.maxThreadsDim[0], 1024);
    EXPECT_EQ(p.maxThreadsDim[2], 64);
    EXPECT_EQ(p.sharedMemPerBlock, 48u * 1024);
    EXPECT_GT(p.sharedMemPerBlockOptin, p.sharedMemPerBlock);
    EXPECT_GT(p.multiProcessorCount, 0);
    EXPECT_GE(p.maxThreadsPerMultiProcessor, p.maxThreadsPerBlock);
    EXPECT_GE(p.major, 7);
    EXPECT_GT(p.totalGlobalMem, 0u);
    EXPECT_EQ(cudaGetDeviceProperties(&p, 3), cudaErrorInvalidDevice);
    cudaGetLastError();

    int value = 0;
    EXPECT_EQ(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    EXPECT_EQ(value, p.multiProcessorCount);
    EXPECT_EQ(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 0), cudaSuccess);
    EXPECT_EQ(value, 32);
    EXPECT_EQ(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
    EXPECT_EQ(value, int(p.sharedMemPerBlockOptin));
    EXPECT_EQ(cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
    EXPECT_EQ(value, p.major);
    EXPECT_EQ(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 1), cudaErrorInvalidDevice);
    cudaGetLastError();

    int driver = 0, runtime = 0;
    EXPECT_EQ(cudaDriverGetVersion(&driver), cudaSuccess);
    EXPECT_EQ(cudaRuntimeGetVersion(&runtime), cudaSuccess);
    EXPECT_GE(driver, runtime);
    size_t free_bytes = 0, total_bytes = 0;
    EXPECT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
    EXPECT_EQ(total_bytes, p.totalGlobalMem);
    EXPECT_LE(free_bytes, total_bytes);
}

TEST(Runtime, OccupancyAndFunctionAttributes) {
    cudaDeviceProp p{};
    ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    for (int block : {32, 128, 256, 1024}) {
        int blocks = 0;
        ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, busy_kernel, block, 0), cudaSuccess);
        EXPECT_GT(blocks, 0) << block;
        EXPECT_LE(blocks, p.maxBlocksPerMultiProcessor) << block;
        EXPECT_LE(blocks * block, p.maxThreadsPerMultiProcessor) << block;
    }
    // Plus de mémoire partagée par bloc : moins de blocs par multiprocesseur.
    int light = 0, heavy = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&light, busy_kernel, 128, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&heavy, busy_kernel, 128, 40 * 1024);
    EXPECT_LT(heavy, light);
    EXPECT_LE(heavy * 40 * 1024, int(p.sharedMemPerMultiprocessor));

    cudaFuncAttributes attributes{};
    ASSERT_EQ(cudaFuncGetAttributes(&attributes, add_constant), cudaSuccess);
    EXPECT_EQ(attributes.maxThreadsPerBlock, p.maxThreadsPerBlock);
    EXPECT_EQ(attributes.maxDynamicSharedSizeBytes, int(p.sharedMemPerBlock));
    EXPECT_GT(attributes.numRegs, 0);
    ASSERT_EQ(cudaFuncSetAttribute(add_constant, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024),
              cudaSuccess);
    ASSERT_EQ(cudaFuncGetAttributes(&attributes, add_constant), cudaSuccess);
    EXPECT_EQ(attributes.maxDynamicSharedSizeBytes, 96 * 1024);
}

TEST(Runtime, ErrorNamesAndStrings) {
    EXPECT_STREQ(cudaGetErrorName(cudaSuccess), "cudaSuccess");
    EXPECT_STREQ(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue");
    EXPECT_STREQ(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration");
    EXPECT_STREQ(cudaGetErrorName(cudaErrorLaunchTimeout), "cudaErrorLaunchTimeout");
    EXPECT_STREQ(cudaGetErrorName(cudaErrorCooperativeLaunchTooLarge), "cudaErrorCooperativeLaunchTooLarge");
    for (cudaError_t error : {cudaSuccess, cudaErrorInvalidValue, cudaErrorMemoryAllocation,
                              cudaErrorLaunchFailure, cudaErrorLaunchTimeout}) {
        const std::string text = cudaGetErrorString(error);
        EXPECT_FALSE(text.empty()) << cudaGetErrorName(error);
        EXPECT_NE(text, cudaGetErrorName(error));
    }
    EXPECT_NE(std::string(cudaGetErrorString(cudaErrorInvalidValue)),
              std::string(cudaGetErrorString(cudaErrorMemoryAllocation)));
}
