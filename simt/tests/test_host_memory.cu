// Mémoire de l'hôte verrouillée et projetée : cudaHostAlloc et ses drapeaux,
// cudaHostRegister / cudaHostUnregister, cudaHostGetDevicePointer (un noyau écrit dans la
// mémoire de l'hôte sans copie), cudaHostGetFlags, et leurs refus.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <vector>

namespace {

__global__ void square_in_place(float* values, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) values[i] *= values[i];
}

__managed__ int managed_counter = 5;

__global__ void count_threads() { atomicAdd(&managed_counter, 1); }

}  // namespace

TEST(HostMemory, ManagedVariableIsSharedByHostAndKernels) {
    count_threads<<<3, 32>>>();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(managed_counter, 5 + 96);  // lue directement par l'hôte
    managed_counter = 0;                 // écrite directement par l'hôte
    count_threads<<<1, 8>>>();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(managed_counter, 8);
}

TEST(HostMemory, MappedAllocationIsWrittenByAKernelWithoutCopy) {
    const int n = 100;
    float* host = nullptr;
    ASSERT_EQ(cudaHostAlloc(reinterpret_cast<void**>(&host), n * sizeof(float),
                            cudaHostAllocMapped | cudaHostAllocPortable), cudaSuccess);
    for (int i = 0; i < n; ++i) host[i] = float(i);
    float* device = nullptr;
    ASSERT_EQ(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device), host, 0), cudaSuccess);
    ASSERT_NE(device, nullptr);
    square_in_place<<<4, 32>>>(device, n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < n; ++i) EXPECT_EQ(host[i], float(i * i)) << i;

    unsigned flags = 0;
    EXPECT_EQ(cudaHostGetFlags(&flags, host + 10), cudaSuccess);  // au milieu de la plage
    EXPECT_EQ(flags, unsigned(cudaHostAllocMapped | cudaHostAllocPortable));
    EXPECT_EQ(cudaFreeHost(host), cudaSuccess);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(HostMemory, RegisteredRangeIsMappedThenUnregistered) {
    std::vector<float> values(64, 3.0f);
    ASSERT_EQ(cudaHostRegister(values.data(), values.size() * sizeof(float), cudaHostRegisterMapped), cudaSuccess);
    float* device = nullptr;
    ASSERT_EQ(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device), values.data(), 0), cudaSuccess);
    square_in_place<<<2, 32>>>(device, int(values.size()));
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (float v : values) EXPECT_EQ(v, 9.0f);
    unsigned flags = 0;
    EXPECT_EQ(cudaHostGetFlags(&flags, values.data()), cudaSuccess);
    EXPECT_EQ(flags, unsigned(cudaHostRegisterMapped));

    // Une plage qui chevauche une plage enregistrée, puis la libération d'une plage enregistrée
    // par cudaFreeHost (elle n'a pas été allouée par CUDA) : refusées.
    EXPECT_EQ(cudaHostRegister(values.data() + 8, 16, 0), cudaErrorHostMemoryAlreadyRegistered);
    EXPECT_EQ(cudaFreeHost(values.data()), cudaErrorInvalidValue);
    EXPECT_EQ(cudaHostUnregister(values.data()), cudaSuccess);
    EXPECT_EQ(cudaHostUnregister(values.data()), cudaErrorHostMemoryNotRegistered);
    EXPECT_EQ(cudaGetLastError(), cudaErrorHostMemoryNotRegistered);
}

TEST(HostMemory, InvalidRequestsAreRefused) {
    int on_stack = 0;
    void* device = nullptr;
    unsigned flags = 0;
    EXPECT_EQ(cudaHostGetDevicePointer(&device, &on_stack, 0), cudaErrorInvalidValue);  // non verrouillée
    EXPECT_EQ(cudaHostGetFlags(&flags, &on_stack), cudaErrorInvalidValue);
    void* pinned = nullptr;
    EXPECT_EQ(cudaHostAlloc(&pinned, 16, 0x80), cudaErrorInvalidValue);  // drapeau inconnu
    EXPECT_EQ(cudaHostRegister(nullptr, 16, 0), cudaErrorInvalidValue);
    EXPECT_EQ(cudaHostRegister(&on_stack, sizeof on_stack, 0x40), cudaErrorInvalidValue);
    simt::set_quiet(true);
    EXPECT_EQ(cudaHostRegister(&on_stack, sizeof on_stack, cudaHostRegisterIoMemory), cudaErrorNotSupported);
    simt::set_quiet(false);
    EXPECT_EQ(cudaGetLastError(), cudaErrorNotSupported);
    ASSERT_EQ(cudaMallocHost(&pinned, 32), cudaSuccess);
    EXPECT_EQ(cudaHostGetDevicePointer(&device, pinned, 1), cudaErrorInvalidValue);  // flags doit valoir 0
    EXPECT_EQ(cudaHostGetDevicePointer(&device, pinned, 0), cudaSuccess);  // toute mémoire verrouillée est projetée
    EXPECT_EQ(device, pinned);
    EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
    cudaGetLastError();
}

TEST(HostMemory, ManagedMemoryFlagsAndHints) {
    int* managed = nullptr;
    ASSERT_EQ(cudaMallocManaged(&managed, 8 * sizeof(int)), cudaSuccess);
    managed[3] = 5;  // l'hôte y écrit directement
    const cudaMemLocation device_location{cudaMemLocationTypeDevice, 0};
    const cudaMemLocation host_location{cudaMemLocationTypeHost, 0};
    EXPECT_EQ(cudaMemPrefetchAsync(managed, 8 * sizeof(int), device_location, 0, nullptr), cudaSuccess);
    EXPECT_EQ(cudaMemAdvise(managed, 8 * sizeof(int), cudaMemAdviseSetPreferredLocation, host_location), cudaSuccess);
    EXPECT_EQ(cudaMemPrefetchAsync(managed, 8 * sizeof(int), cudaMemLocation{cudaMemLocationTypeDevice, 3}, 0, nullptr),
              cudaErrorInvalidDevice);
    EXPECT_EQ(cudaMemPrefetchAsync(managed, 8 * sizeof(int), device_location, 1, nullptr), cudaErrorInvalidValue);
    EXPECT_EQ(managed[3], 5);
    EXPECT_EQ(cudaFree(managed), cudaSuccess);
    int* refused = nullptr;
    EXPECT_EQ(cudaMallocManaged(&refused, 16, 0), cudaErrorInvalidValue);  // ni Global ni Host
    cudaGetLastError();
}
