/**
 * @file
 * @brief Tests de l'effet de queue : calcul des vagues (partout) ; chaque bloc long attend au
 *        moins sa durée, une vague correspond à l'API d'occupation.
 */
#include "effet-de-queue.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

namespace tl = noyaux::glossaire::tail;

}  // namespace

TEST(TailWaves, FullWaveHasNoTail) {
    const tl::Waves w = tl::waves(132, 132);
    EXPECT_EQ(w.count, 1u);
    EXPECT_EQ(w.last_wave, 132u);
    EXPECT_DOUBLE_EQ(w.efficiency, 1.0);
}

TEST(TailWaves, OneMoreBlockMakesANearlyEmptyWave) {
    const tl::Waves w = tl::waves(133, 132);
    EXPECT_EQ(w.count, 2u);
    EXPECT_EQ(w.last_wave, 1u);
    EXPECT_DOUBLE_EQ(w.efficiency, 133.0 / 264.0);
}

TEST(TailWaves, ManyWavesDiluteTheTail) {
    // Cent vagues et un bloc : la queue ne coûte plus qu'un pour cent.
    const tl::Waves w = tl::waves(100 * 132 + 1, 132);
    EXPECT_EQ(w.count, 101u);
    EXPECT_GT(w.efficiency, 0.99);
}

TEST(TailWaves, EdgeCases) {
    EXPECT_EQ(tl::waves(0, 8).count, 0u);
    EXPECT_THROW(tl::waves(5, 0), std::invalid_argument);
}

TEST(TailBlocks, EveryBlockWaitsAtLeastItsCycles) {
    const unsigned blocks = 2 * tl::blocks_per_wave() + 1;
    const long long cycles = 20000;
    noyaux::DeviceBuffer<long long> elapsed(blocks);
    NOYAUX_CUDA_CHECK(cudaMemset(elapsed.data(), 0, elapsed.bytes()));
    tl::launch_long_blocks(blocks, cycles, elapsed.data());
    NOYAUX_CHECK_LAUNCH();
    const std::vector<long long> seen = elapsed.download();
    for (unsigned b = 0; b < blocks; ++b) ASSERT_GE(seen[b], cycles) << "bloc " << b;
}

TEST(TailBlocks, AWaveIsResidentBlocksTimesSms) {
    int device = 0;
    int sms = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    NOYAUX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const unsigned wave = tl::blocks_per_wave();
    EXPECT_EQ(wave % static_cast<unsigned>(sms), 0u);
    EXPECT_GE(wave, static_cast<unsigned>(sms));
}

TEST(TailBlocks, RejectsImpossibleLaunches) {
    EXPECT_THROW(tl::launch_long_blocks(0, 10, nullptr), std::invalid_argument);
    EXPECT_THROW(tl::launch_long_blocks(1, -1, nullptr), std::invalid_argument);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
