/**
 * @file
 * @brief Tests de l'exemple 15, sur un GPU sm_90 ou plus et sur l'émulateur : rang, voisin,
 *        grille admissible et résultat attendu de l'échange ; chaque bloc connaît son rang et
 *        lit la mémoire partagée de son voisin de cluster.
 */
#include "cluster.hpp"
#include "cluster-dsmem.cuh"

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

namespace cl = noyaux::glossaire::clusters;

}  // namespace

TEST(ClustersHost, NeighbourIsTheNextRankInTheSameCluster) {
    EXPECT_EQ(cl::neighbour_block(0, 4), 1u);
    EXPECT_EQ(cl::neighbour_block(3, 4), 0u);  // le dernier rang lit le premier
    EXPECT_EQ(cl::neighbour_block(7, 4), 4u);  // sans quitter son cluster
    EXPECT_EQ(cl::cluster_rank(6, 4), 2u);
    EXPECT_EQ(cl::neighbour_block(5, 1), 5u);  // cluster d'un bloc : lui-même
}

TEST(ClustersHost, ReferenceRotatesTilesWithinClusters) {
    const std::vector<float> input = {0, 1, 10, 11, 20, 21, 30, 31};  // 4 blocs de 2 threads
    EXPECT_EQ(cl::exchange_reference(input, 4, 2, 4), (std::vector<float>{10, 11, 20, 21, 30, 31, 0, 1}));
    EXPECT_EQ(cl::exchange_reference(input, 4, 2, 2), (std::vector<float>{10, 11, 0, 1, 30, 31, 20, 21}));
}

TEST(ClustersHost, RejectsPartialClusters) {
    EXPECT_THROW(cl::validate_grid(6, 4), std::invalid_argument);
    EXPECT_THROW(cl::validate_grid(0, 4), std::invalid_argument);
    EXPECT_NO_THROW(cl::validate_grid(8, 4));
    EXPECT_THROW(cl::exchange_reference(std::vector<float>(7), 4, 2, 4), std::invalid_argument);
}

namespace {

// Le code sm_80 du noyau n'est qu'un piège : il faut le code venu de sm_90 (simt annonce le
// sien comme tel).
bool has_clusters() { return noyaux::kernel_ptx_version(cl::neighbour_exchange, "neighbour_exchange") >= 90; }

}  // namespace

TEST(ClustersDevice, EachBlockReadsItsNeighboursSharedMemory) {
    if (!has_clusters()) GTEST_SKIP() << "clusters de blocs : sm_90 ou plus";
    for (unsigned clusters : {1u, 3u, 200u}) {
        const unsigned blocks = clusters * cl::kClusterSize;
        std::vector<float> input(std::size_t{blocks} * cl::kThreads);
        for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i) * 0.5f;
        noyaux::DeviceBuffer<float> in(input);
        noyaux::DeviceBuffer<float> out(input.size());
        noyaux::DeviceBuffer<unsigned> ranks(blocks);
        cl::launch_neighbour_exchange(blocks, in.data(), out.data(), ranks.data());
        NOYAUX_CHECK_LAUNCH();
        const std::vector<unsigned> rank_values = ranks.download();
        for (unsigned b = 0; b < blocks; ++b) EXPECT_EQ(rank_values[b], b % cl::kClusterSize) << "bloc " << b;
        EXPECT_EQ(out.download(), cl::exchange_reference(input, blocks, cl::kThreads, cl::kClusterSize))
            << clusters << " clusters";
    }
}

TEST(ClustersDevice, SomeClustersFitAtOnce) {
    if (!has_clusters()) GTEST_SKIP() << "clusters de blocs : sm_90 ou plus";
    EXPECT_GE(cl::max_active_clusters(), 1);
}

TEST(ClustersDevice, RejectsPartialClusterGrids) {
    EXPECT_THROW(cl::launch_neighbour_exchange(6, nullptr, nullptr, nullptr), std::invalid_argument);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
