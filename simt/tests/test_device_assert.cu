// assert dans un noyau : comme sur GPU, le message (fichier, ligne, fonction, bloc, thread,
// expression), le noyau arrêté, cudaErrorAssert collante à la synchronisation suivante
// (jusqu'à cudaDeviceReset) ; le processus continue. Occupation avec drapeaux.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

// La construction Release définit NDEBUG, qui retirerait les assert : ce test les garde.
#undef NDEBUG
#include <cassert>

namespace {

constexpr int kAssertLine = __LINE__ + 4;  // ligne de l'assert ci-dessous

__global__ void check_index(int* out, int limit) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < limit);
    out[i] = i;
}

}  // namespace

using testing::HasSubstr;

TEST(DeviceAssert, FailingAssertStopsTheKernelAndLeavesCudaErrorAssert) {
    int* out = nullptr;
    ASSERT_EQ(cudaMalloc(&out, 64 * sizeof(int)), cudaSuccess);
    check_index<<<2, 32>>>(out, 64);  // aucune assertion fausse
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

    simt::set_quiet(true);
    simt::clear_diagnostic();
    check_index<<<2, 32>>>(out, 60);  // thread 28 du bloc 1 : i = 60
    EXPECT_EQ(cudaGetLastError(), cudaErrorAssert);  // consignée pour cudaGetLastError
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorAssert);
    simt::set_quiet(false);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("test_device_assert.cu:" + std::to_string(kAssertLine) + ": "),
                      HasSubstr("check_index(int*, int)"), HasSubstr("block: [1,0,0], thread: [28,0,0]"),
                      HasSubstr("Assertion `i < limit` failed.")));
    // Collante, comme sur GPU : les copies et synchronisations suivantes échouent aussi.
    int value = 0;
    EXPECT_EQ(cudaMemcpy(&value, out, sizeof(int), cudaMemcpyDeviceToHost), cudaErrorAssert);
    EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaErrorAssert);
    EXPECT_STREQ(cudaGetErrorName(cudaErrorAssert), "cudaErrorAssert");
    cudaDeviceReset();
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(&value, out, sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(cudaFree(out), cudaSuccess);
}

TEST(DeviceAssert, HostAssertStillAbortsTheProcess) {
    EXPECT_DEATH(
        {
            int limit = 0;
            assert(limit > 0);
        },
        "Assertion `limit > 0' failed");
}

TEST(DeviceAssert, OccupancyWithFlags) {
    int plain = 0, flagged = 0;
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&plain, check_index, 256, 0), cudaSuccess);
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&flagged, check_index, 256, 0,
                                                                     cudaOccupancyDisableCachingOverride),
              cudaSuccess);
    EXPECT_EQ(flagged, plain);
    EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&flagged, check_index, 256, 0, 4),
              cudaErrorInvalidValue);
    cudaGetLastError();
    // Le modèle de NVIDIA (cuda_runtime.h) passe par l'appel avec drapeaux.
    int min_grid = 0, block = 0;
    ASSERT_EQ(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, check_index), cudaSuccess);
    EXPECT_GT(block, 0);
    EXPECT_GT(min_grid, 0);
}
