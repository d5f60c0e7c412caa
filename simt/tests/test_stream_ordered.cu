// Travail ordonné dans un flux : rappels de l'hôte (cudaStreamAddCallback, cudaLaunchHostFunc)
// après le travail qui les précède, et allocation ordonnée par flux (cudaMallocAsync,
// cudaFreeAsync, réserves de mémoire), avec leurs refus pendant une capture.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <cstdint>
#include <vector>

namespace {

__global__ void fill_with(int* values, int n, int value) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) values[i] = value;
}

struct Seen {
    const int* pinned = nullptr;
    int value = -1;
    cudaError_t status = cudaErrorUnknown;
    int calls = 0;
};

void CUDART_CB on_callback(cudaStream_t, cudaError_t status, void* data) {
    auto* seen = static_cast<Seen*>(data);
    seen->status = status;
    seen->value = seen->pinned[7];
    ++seen->calls;
}

void CUDART_CB on_host_function(void* data) {
    auto* seen = static_cast<Seen*>(data);
    seen->value = seen->pinned[7];
    ++seen->calls;
}

}  // namespace

TEST(StreamOrdered, HostCallbacksRunAfterThePrecedingWork) {
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    int *device = nullptr, *pinned = nullptr;
    ASSERT_EQ(cudaMalloc(&device, 32 * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMallocHost(&pinned, 32 * sizeof(int)), cudaSuccess);
    Seen seen{pinned};
    fill_with<<<1, 32, 0, stream>>>(device, 32, 41);
    ASSERT_EQ(cudaMemcpyAsync(pinned, device, 32 * sizeof(int), cudaMemcpyDeviceToHost, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamAddCallback(stream, on_callback, &seen, 0), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.value, 41);
    EXPECT_EQ(seen.status, cudaSuccess);

    fill_with<<<1, 32, 0, stream>>>(device, 32, 42);
    ASSERT_EQ(cudaMemcpyAsync(pinned, device, 32 * sizeof(int), cudaMemcpyDeviceToHost, stream), cudaSuccess);
    ASSERT_EQ(cudaLaunchHostFunc(stream, on_host_function, &seen), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_EQ(seen.calls, 2);
    EXPECT_EQ(seen.value, 42);

    EXPECT_EQ(cudaStreamAddCallback(stream, on_callback, &seen, 1), cudaErrorInvalidValue);  // flags : 0
    EXPECT_EQ(cudaLaunchHostFunc(stream, nullptr, &seen), cudaErrorInvalidValue);
    cudaGetLastError();
    EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
    EXPECT_EQ(cudaFree(device), cudaSuccess);
    EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(StreamOrdered, HostWorkDuringACaptureIsRefused) {
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    Seen seen;
    simt::set_quiet(true);
    ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
    EXPECT_EQ(cudaLaunchHostFunc(stream, on_host_function, &seen), cudaErrorNotSupported);
    EXPECT_THAT(simt::last_diagnostic(), testing::HasSubstr("nœuds d'hôte"));
    cudaGraph_t graph = nullptr;
    EXPECT_EQ(cudaStreamEndCapture(stream, &graph), cudaErrorStreamCaptureInvalidated);
    ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
    void* memory = nullptr;
    EXPECT_EQ(cudaMallocAsync(&memory, 64, stream), cudaErrorNotSupported);
    EXPECT_EQ(cudaStreamEndCapture(stream, &graph), cudaErrorStreamCaptureInvalidated);
    simt::set_quiet(false);
    EXPECT_EQ(seen.calls, 0);
    cudaGetLastError();
    EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(StreamOrdered, AllocationsFromTheDefaultPoolAreCounted) {
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    cudaMemPool_t pool = nullptr;
    ASSERT_EQ(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    cudaMemPool_t current = nullptr;
    ASSERT_EQ(cudaDeviceGetMemPool(&current, 0), cudaSuccess);
    EXPECT_EQ(current, pool);
    std::uint64_t threshold = UINT64_MAX;
    EXPECT_EQ(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold), cudaSuccess);
    std::uint64_t read = 0;
    EXPECT_EQ(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &read), cudaSuccess);
    EXPECT_EQ(read, UINT64_MAX);

    int *a = nullptr, *b = nullptr;
    ASSERT_EQ(cudaMallocAsync(&a, 1000 * sizeof(int), stream), cudaSuccess);
    ASSERT_EQ(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&b), 24 * sizeof(int), pool, stream), cudaSuccess);
    fill_with<<<8, 128, 0, stream>>>(a, 1000, 6);
    std::vector<int> host(1000);
    ASSERT_EQ(cudaMemcpyAsync(host.data(), a, 1000 * sizeof(int), cudaMemcpyDeviceToHost, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_EQ(host[999], 6);
    EXPECT_EQ(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &read), cudaSuccess);
    EXPECT_EQ(read, 1024 * sizeof(int));
    EXPECT_EQ(cudaFreeAsync(a, stream), cudaSuccess);
    EXPECT_EQ(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &read), cudaSuccess);
    EXPECT_EQ(read, 24 * sizeof(int));
    EXPECT_EQ(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &read), cudaSuccess);
    EXPECT_EQ(read, 1024 * sizeof(int));
    EXPECT_EQ(cudaFree(b), cudaSuccess);  // cudaFree libère aussi une allocation ordonnée
    EXPECT_EQ(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &read), cudaSuccess);
    EXPECT_EQ(read, 0u);
    std::uint64_t zero = 0, nonzero = 5;
    EXPECT_EQ(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero), cudaSuccess);
    EXPECT_EQ(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &read), cudaSuccess);
    EXPECT_EQ(read, 0u);
    EXPECT_EQ(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &nonzero), cudaErrorInvalidValue);
    EXPECT_EQ(cudaFreeAsync(a, stream), cudaErrorInvalidValue);  // déjà libérée
    EXPECT_EQ(cudaDeviceGetDefaultMemPool(&pool, 2), cudaErrorInvalidDevice);
    EXPECT_EQ(cudaMemPoolDestroy(pool), cudaErrorInvalidValue);  // la réserve par défaut ne se détruit pas
    cudaGetLastError();
    EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(StreamOrdered, ExplicitPoolBecomesTheCurrentOne) {
    cudaMemPoolProps properties{};
    properties.allocType = cudaMemAllocationTypePinned;
    properties.location = {cudaMemLocationTypeDevice, 0};
    cudaMemPool_t pool = nullptr;
    ASSERT_EQ(cudaMemPoolCreate(&pool, &properties), cudaSuccess);
    ASSERT_EQ(cudaDeviceSetMemPool(0, pool), cudaSuccess);
    void* memory = nullptr;
    ASSERT_EQ(cudaMallocAsync(&memory, 256, nullptr), cudaSuccess);
    std::uint64_t used = 0;
    EXPECT_EQ(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used), cudaSuccess);
    EXPECT_EQ(used, 256u);
    EXPECT_EQ(cudaFreeAsync(memory, nullptr), cudaSuccess);
    EXPECT_EQ(cudaMemPoolDestroy(pool), cudaSuccess);  // la réserve par défaut redevient courante
    cudaMemPool_t current = nullptr, default_pool = nullptr;
    EXPECT_EQ(cudaDeviceGetMemPool(&current, 0), cudaSuccess);
    EXPECT_EQ(cudaDeviceGetDefaultMemPool(&default_pool, 0), cudaSuccess);
    EXPECT_EQ(current, default_pool);
    properties.location.id = 1;
    EXPECT_EQ(cudaMemPoolCreate(&pool, &properties), cudaErrorInvalidDevice);
    cudaGetLastError();
}
