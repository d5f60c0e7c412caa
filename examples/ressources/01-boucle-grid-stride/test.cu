/**
 * @file
 * @brief Tests de saxpy_grid_stride contre la référence CPU : tailles limites, grilles
 *        plus petites et plus grandes que les données, configurations refusées.
 */
#include "boucle-grid-stride.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace {

using noyaux::DeviceBuffer;
using noyaux::ressources::LaunchConfig;
using noyaux::ressources::launch_saxpy_grid_stride;

// Sentinelle placée après les n éléments : elle doit ressortir intacte.
constexpr float kGuardValue = -12345.0f;
constexpr std::size_t kGuardCount = 64;

std::vector<float> ramp(std::size_t n, float scale, float offset) {
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i)
        values[i] = scale * static_cast<float>(static_cast<int>(i % 977) - 488) + offset;
    return values;
}

// Exécute le noyau sur n éléments suivis d'une zone de garde, puis compare au bit près
// avec la référence (nvcc fusionne a·x + y en FFMA, la référence utilise std::fma).
void expect_matches_reference(std::size_t n, float a, LaunchConfig config) {
    const std::vector<float> x = ramp(n, 0.003f, 0.5f);
    const std::vector<float> y = ramp(n, -0.001f, 2.0f);
    std::vector<float> y_guarded = y;
    y_guarded.resize(n + kGuardCount, kGuardValue);

    DeviceBuffer<float> x_device{std::span<const float>(x)};
    DeviceBuffer<float> y_device{std::span<const float>(y_guarded)};
    launch_saxpy_grid_stride(n, a, x_device.data(), y_device.data(), config);
    NOYAUX_CHECK_LAUNCH();

    const std::vector<float> result = y_device.download();
    const std::vector<float> expected = noyaux::reference::saxpy(a, x, y);
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(result[i], expected[i]) << "indice " << i << " sur " << n;
    for (std::size_t i = n; i < n + kGuardCount; ++i)
        ASSERT_EQ(result[i], kGuardValue) << "écriture hors limites à l'indice " << i;
}

}  // namespace

// --8<-- [start:garanties]
TEST(SaxpyGridStride, EmptyInputLeavesMemoryUntouched) {
    expect_matches_reference(0, 2.0f, {4, 128});
}

TEST(SaxpyGridStride, SizeNotMultipleOfBlockSize) {
    expect_matches_reference(1000, 1.5f, {2, 256});
    expect_matches_reference(257, -3.0f, {1, 256});
}

TEST(SaxpyGridStride, GridSmallerThanDataLoopsOverIt) {
    // 32 threads pour 100 003 éléments : plus de 3 000 passages de boucle par thread.
    expect_matches_reference(100003, 0.75f, {1, 32});
    expect_matches_reference(1 << 20, 2.0f, {3, 96});
}

TEST(SaxpyGridStride, GridLargerThanDataIdlesExtraThreads) {
    expect_matches_reference(5, 4.0f, {1000, 256});
}

TEST(SaxpyGridStride, SingleThreadComputesEverything) {
    expect_matches_reference(4099, -0.5f, {1, 1});
}
// --8<-- [end:garanties]

TEST(SaxpyGridStride, DefaultConfigurationOnThisDevice) {
    int device = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    int multiprocessors = 0;
    NOYAUX_CUDA_CHECK(
        cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    const LaunchConfig config = noyaux::ressources::default_launch_config(multiprocessors);
    EXPECT_EQ(config.blocks, 32u * static_cast<unsigned>(multiprocessors));
    expect_matches_reference((1 << 22) + 17, 2.0f, config);
}

TEST(SaxpyGridStride, ZeroCoefficientKeepsY) {
    expect_matches_reference(4096, 0.0f, {8, 128});
}

TEST(SaxpyGridStride, RejectsImpossibleConfigurationsBeforeLaunch) {
    DeviceBuffer<float> x(16);
    DeviceBuffer<float> y(16);
    EXPECT_THROW(launch_saxpy_grid_stride(16, 1.0f, x.data(), y.data(), {0, 128}),
                 std::invalid_argument);
    EXPECT_THROW(launch_saxpy_grid_stride(16, 1.0f, x.data(), y.data(), {1, 0}),
                 std::invalid_argument);
    EXPECT_THROW(launch_saxpy_grid_stride(16, 1.0f, x.data(), y.data(), {1, 1025}),
                 std::invalid_argument);
    // Rien n'a été lancé : aucune erreur de configuration en attente.
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
