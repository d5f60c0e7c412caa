/**
 * @file
 * @brief Tests des groupes coopératifs contre le CPU : tuiles de 16 et 32 (shfl_down et
 *        cg::reduce), tuiles dynamiques, et les trois phases séparées par grid.sync().
 */
#include "groupes-cooperatifs.cuh"

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using noyaux::DeviceBuffer;
namespace co = noyaux::ressources::cooperative;

const std::vector<std::size_t> kSizes = {1, 15, 16, 17, 31, 33, 1000, 50000};

std::vector<int> signed_ints(std::size_t n) {
    std::vector<int> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>((i * 7919) % 101) - 50;
    return values;
}

// Sommes CPU par groupes consécutifs de @p group éléments (le dernier éventuellement entamé).
std::vector<int> chunk_sums(const std::vector<int>& values, std::size_t group) {
    std::vector<int> sums((values.size() + group - 1) / group, 0);
    for (std::size_t i = 0; i < values.size(); ++i) sums[i / group] += values[i];
    return sums;
}

template <unsigned TileSize>
void expect_static_tiles(bool use_reduce) {
    for (std::size_t n : kSizes) {
        const std::vector<int> values = signed_ints(n);
        DeviceBuffer<int> in{std::span<const int>(values)};
        DeviceBuffer<int> sums((n + TileSize - 1) / TileSize);
        co::launch_tile_sums<TileSize>(in.data(), n, sums.data(), use_reduce);
        NOYAUX_CHECK_LAUNCH();
        EXPECT_EQ(sums.download(), chunk_sums(values, TileSize)) << "n = " << n;
    }
}

TEST(StaticTiles, ShuffleDownTilesOf16) { expect_static_tiles<16>(false); }
TEST(StaticTiles, ShuffleDownTilesOf32) { expect_static_tiles<32>(false); }
TEST(StaticTiles, CgReduceTilesOf16) { expect_static_tiles<16>(true); }
TEST(StaticTiles, CgReduceTilesOf32) { expect_static_tiles<32>(true); }

TEST(DynamicTiles, EveryPowerOfTwoUpToAWarp) {
    const std::size_t n = 3000;
    const std::vector<int> values = signed_ints(n);
    DeviceBuffer<int> in{std::span<const int>(values)};
    for (unsigned tile_size : {1u, 2u, 4u, 8u, 16u, 32u}) {
        DeviceBuffer<int> tile_sums((n + tile_size - 1) / tile_size);
        DeviceBuffer<int> block_sums((n + co::kThreadsPerBlock - 1) / co::kThreadsPerBlock);
        co::launch_dynamic_tile_sums(in.data(), n, tile_size, tile_sums.data(), block_sums.data());
        NOYAUX_CHECK_LAUNCH();
        EXPECT_EQ(tile_sums.download(), chunk_sums(values, tile_size)) << "tuiles de " << tile_size;
        EXPECT_EQ(block_sums.download(), chunk_sums(values, co::kThreadsPerBlock))
            << "blocs, tuiles de " << tile_size;
    }
}

TEST(DynamicTiles, RejectsSizesThatAreNotAPowerOfTwoUpTo32) {
    DeviceBuffer<int> buffer(8);
    for (unsigned tile_size : {0u, 3u, 12u, 64u})
        EXPECT_THROW(co::launch_dynamic_tile_sums(buffer.data(), 8, tile_size, buffer.data(),
                                                  buffer.data()),
                     std::invalid_argument)
            << tile_size;
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

// --8<-- [start:garanties]
// Vérifie chaque phase de center_on_grid : sommes par bloc, total, tableau centré.
void expect_centered(std::size_t n, unsigned blocks) {
    const std::vector<int> values = signed_ints(n);
    DeviceBuffer<int> in{std::span<const int>(values)};
    DeviceBuffer<int> block_sums(blocks);
    DeviceBuffer<int> total(1);
    DeviceBuffer<float> centered(n);
    co::launch_center_on_grid(in.data(), n, block_sums.data(), total.data(), centered.data(), blocks);
    NOYAUX_CHECK_LAUNCH();

    // Phase 1 : le bloc b a sommé les éléments i tels que (i / 256) % blocks == b.
    std::vector<int> expected_blocks(blocks, 0);
    std::int64_t expected_total = 0;
    for (std::size_t i = 0; i < n; ++i) {
        expected_blocks[(i / co::kThreadsPerBlock) % blocks] += values[i];
        expected_total += values[i];
    }
    EXPECT_EQ(block_sums.download(), expected_blocks) << "phase 1, n = " << n;
    // Phase 2.
    ASSERT_EQ(total.download()[0], expected_total) << "phase 2, n = " << n;
    // Phase 3 : mêmes opérations en double que le noyau, donc le même flottant.
    const double mean = static_cast<double>(expected_total) / static_cast<double>(n);
    const std::vector<float> result = centered.download();
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(result[i], static_cast<float>(values[i] - mean)) << "phase 3, indice " << i;
}

TEST(GridSync, ThreePhasesOnTheLargestCooperativeGrid) {
    const unsigned max_blocks = co::max_cooperative_blocks();
    ASSERT_GT(max_blocks, 0u);
    const std::size_t n = std::size_t{1} << 20;
    expect_centered(n, co::cooperative_blocks_for(n, max_blocks));
}

TEST(GridSync, SmallSizesAndSmallGrids) {
    const unsigned max_blocks = co::max_cooperative_blocks();
    for (std::size_t n : {std::size_t{1}, std::size_t{255}, std::size_t{257}, std::size_t{10000}})
        expect_centered(n, co::cooperative_blocks_for(n, max_blocks));
    expect_centered(10000, 1);  // un seul bloc : grid.sync() se réduit à une barrière de bloc
    expect_centered(10000, 3);
}
// --8<-- [end:garanties]

TEST(GridSync, OccupancyTimesMultiprocessors) {
    int device = 0;
    int multiprocessors = 0;
    int per_multiprocessor = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    NOYAUX_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    NOYAUX_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_multiprocessor, co::center_on_grid, static_cast<int>(co::kThreadsPerBlock), 0));
    EXPECT_EQ(co::max_cooperative_blocks(), unsigned(per_multiprocessor * multiprocessors));
    EXPECT_EQ(co::cooperative_blocks_for(1000, 500), 4u);
    EXPECT_EQ(co::cooperative_blocks_for(std::size_t{1} << 30, 500), 500u);
}

TEST(GridSync, GridLargerThanTheDeviceIsRefused) {
    const unsigned too_many = co::max_cooperative_blocks() + 1;
    DeviceBuffer<int> in(16);
    DeviceBuffer<int> block_sums(too_many);
    DeviceBuffer<int> total(1);
    DeviceBuffer<float> centered(16);
    try {
        co::launch_center_on_grid(in.data(), 16, block_sums.data(), total.data(), centered.data(),
                                  too_many);
        FAIL() << "une grille de " << too_many << " blocs ne tient pas sur le GPU";
    } catch (const noyaux::CudaError& error) {
        EXPECT_EQ(error.code(), cudaErrorCooperativeLaunchTooLarge);
    }
    (void)cudaGetLastError();  // l'erreur de lancement n'est pas persistante
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(GridSync, RejectsEmptyInputAndEmptyGrid) {
    DeviceBuffer<int> buffer(4);
    DeviceBuffer<float> centered(4);
    EXPECT_THROW(co::launch_center_on_grid(buffer.data(), 0, buffer.data(), buffer.data(),
                                           centered.data(), 1),
                 std::invalid_argument);
    EXPECT_THROW(co::launch_center_on_grid(buffer.data(), 4, buffer.data(), buffer.data(),
                                           centered.data(), 0),
                 std::invalid_argument);
}

TEST(GridSync, DeviceWithoutCooperativeLaunchIsRefusedInFrench) {
    try {
        co::require_cooperative_launch(0, "GPU imaginaire");
        FAIL() << "un GPU sans lancement coopératif doit être refusé";
    } catch (const noyaux::NoDeviceError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("ne permet pas le lancement coopératif"), std::string::npos) << message;
        EXPECT_NE(message.find("GPU imaginaire"), std::string::npos) << message;
    }
    EXPECT_NO_THROW(co::require_cooperative_launch(1, "GPU réel"));
}

}  // namespace
