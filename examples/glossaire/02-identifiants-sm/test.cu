/**
 * @file
 * @brief Tests de l'exemple 02. Sur GPU : %laneid, un SM par bloc, numéros de SM et d'emplacement
 *        de warp dans leurs bornes. Partout (émulateur compris) : la logique hôte de répartition.
 */
#include "repartition.hpp"

#ifndef SIMT_EMULATOR
#include "identifiants-sm.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#endif

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

namespace ids = noyaux::glossaire::sm_ids;
using ids::WarpPlacement;

}  // namespace

TEST(SmIdsHost, CountsBlocksNotWarps) {
    // Deux blocs de deux warps sur le SM 3, un bloc sur le SM 0 : seuls les warps 0 comptent.
    const std::vector<WarpPlacement> warps = {{0, 0, 3, 0}, {0, 1, 3, 1}, {1, 0, 0, 0},
                                              {1, 1, 0, 1}, {2, 0, 3, 2}, {2, 1, 3, 3}};
    const std::vector<unsigned> histogram = ids::blocks_per_sm(warps, 4);
    EXPECT_EQ(histogram, (std::vector<unsigned>{1, 0, 0, 2}));
    const ids::Spread s = ids::spread(histogram);
    EXPECT_EQ(s.used, 2u);
    EXPECT_EQ(s.fewest, 1u);
    EXPECT_EQ(s.most, 2u);
    EXPECT_EQ(ids::first_inconsistency(warps, 3, 2), "");
}

TEST(SmIdsHost, RejectsSmOutsideTheLimit) {
    EXPECT_THROW(ids::blocks_per_sm({{0, 0, 4, 0}}, 4), std::invalid_argument);
}

TEST(SmIdsHost, DetectsABlockSplitAcrossSms) {
    const std::vector<WarpPlacement> warps = {{0, 0, 1, 0}, {0, 1, 2, 1}};
    EXPECT_EQ(ids::first_inconsistency(warps, 1, 2), "bloc 0 : warp 0 sur le SM 1, warp 1 sur le SM 2");
    EXPECT_NE(ids::first_inconsistency(warps, 2, 2), "");  // relevés manquants
}

TEST(SmIdsHost, EmptySpread) {
    const ids::Spread s = ids::spread({0, 0, 0});
    EXPECT_EQ(s.used, 0u);
    EXPECT_EQ(s.most, 0u);
}

#ifndef SIMT_EMULATOR
namespace {

struct Placements {
    std::vector<WarpPlacement> warps;
    std::vector<unsigned> lanes;
    unsigned sm_limit;    // %nsmid
    unsigned warp_limit;  // %nwarpid
};

Placements record(unsigned blocks, unsigned threads, long long spin_cycles) {
    noyaux::DeviceBuffer<WarpPlacement> warps(std::size_t{blocks} * threads / 32);
    noyaux::DeviceBuffer<unsigned> lanes(std::size_t{blocks} * threads);
    noyaux::DeviceBuffer<unsigned> limits(2);
    ids::launch_record_placement(blocks, threads, warps.data(), lanes.data(), limits.data(), spin_cycles);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<unsigned> bounds = limits.download();
    return {warps.download(), lanes.download(), bounds[0], bounds[1]};
}

cudaDeviceProp properties() {
    int device = 0;
    cudaDeviceProp p{};
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    NOYAUX_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    return p;
}

}  // namespace

TEST(SmIdsDevice, LaneIdIsThreadIndexModulo32) {
    const Placements run = record(3, 96, 0);
    for (std::size_t i = 0; i < run.lanes.size(); ++i) ASSERT_EQ(run.lanes[i], i % 32) << "thread " << i;
}

TEST(SmIdsDevice, EachBlockStaysOnOneSmWithinTheLimit) {
    const cudaDeviceProp p = properties();
    const auto blocks = 2u * static_cast<unsigned>(p.multiProcessorCount);
    const Placements run = record(blocks, 128, 100000);
    EXPECT_GE(run.sm_limit, static_cast<unsigned>(p.multiProcessorCount));
    EXPECT_EQ(ids::first_inconsistency(run.warps, blocks, 4), "");
    const std::vector<unsigned> histogram = ids::blocks_per_sm(run.warps, run.sm_limit);
    unsigned total = 0;
    for (unsigned count : histogram) total += count;
    EXPECT_EQ(total, blocks);
    EXPECT_LE(ids::spread(histogram).used, static_cast<unsigned>(p.multiProcessorCount));
}

TEST(SmIdsDevice, HardwareWarpSlotsAreBelowNwarpid) {
    // PTX ISA : %warpid est dans [0, %nwarpid) ; au moins autant d'emplacements que de warps
    // résidents possibles.
    const cudaDeviceProp p = properties();
    const Placements run = record(static_cast<unsigned>(p.multiProcessorCount), 256, 100000);
    EXPECT_GE(run.warp_limit, static_cast<unsigned>(p.maxThreadsPerMultiProcessor / 32));
    for (const WarpPlacement& w : run.warps) EXPECT_LT(w.hardware_warp, run.warp_limit);
}

TEST(SmIdsDevice, RejectsPartialWarps) {
    EXPECT_THROW(ids::launch_record_placement(1, 48, nullptr, nullptr, nullptr, 0), std::invalid_argument);
    EXPECT_THROW(ids::launch_record_placement(0, 64, nullptr, nullptr, nullptr, 0), std::invalid_argument);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
#endif
