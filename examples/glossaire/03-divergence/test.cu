/**
 * @file
 * @brief Tests de la divergence : le vote trouve chaque warp divisé par la condition par lane
 *        et aucun par la condition par warp ; les deux répartitions calculent le même résultat
 *        que le CPU ; la petite branche aussi.
 */
#include "divergence.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace {

namespace dv = noyaux::glossaire::divergence;
using dv::Split;

unsigned divergent_warps(Split split, unsigned blocks, unsigned threads) {
    noyaux::DeviceBuffer<unsigned> count(1);
    NOYAUX_CUDA_CHECK(cudaMemset(count.data(), 0, count.bytes()));
    dv::count_divergent_warps<<<blocks, threads>>>(split, count.data());
    NOYAUX_CHECK_LAUNCH();
    return count.download()[0];
}

std::vector<float> input(std::size_t n) {
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<float>(static_cast<int>(i % 201) - 100) * 0.03f;
    return values;
}

}  // namespace

TEST(DivergenceVote, LaneSplitDividesEveryWarp) {
    EXPECT_EQ(divergent_warps(Split::by_lane, 3, 256), 3u * 8u);
}

TEST(DivergenceVote, WarpSplitDividesNone) {
    EXPECT_EQ(divergent_warps(Split::by_warp, 3, 256), 0u);
}

TEST(DivergenceWork, BothSplitsMatchTheReference) {
    const std::size_t n = 10000;
    const int iterations = 40;
    for (Split split : {Split::by_lane, Split::by_warp}) {
        const std::vector<float> values = input(n);
        noyaux::DeviceBuffer<float> data{std::span<const float>(values)};
        dv::launch_branchy_work(data.data(), n, iterations, split);
        NOYAUX_CHECK_LAUNCH();
        const std::vector<float> result = data.download();
        for (std::size_t i = 0; i < n; ++i) {
            const unsigned thread = static_cast<unsigned>(i % 256);
            const float expected = dv::takes_first_path(thread, split) ? dv::first_path(values[i], iterations)
                                                                       : dv::second_path(values[i], iterations);
            ASSERT_EQ(result[i], expected) << "i = " << i;
        }
    }
}

TEST(DivergenceWork, RejectsNegativeIterations) {
    noyaux::DeviceBuffer<float> data(4);
    EXPECT_THROW(dv::launch_branchy_work(data.data(), 4, -1, Split::by_lane), std::invalid_argument);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(DivergencePredication, HalvesOnlyNegatives) {
    const std::vector<float> values = input(1000);
    noyaux::DeviceBuffer<float> data{std::span<const float>(values)};
    dv::halve_negatives<<<4, 256>>>(data.data(), values.size());
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> result = data.download();
    for (std::size_t i = 0; i < values.size(); ++i)
        ASSERT_EQ(result[i], values[i] < 0.0f ? values[i] * 0.5f : values[i]) << "i = " << i;
}
