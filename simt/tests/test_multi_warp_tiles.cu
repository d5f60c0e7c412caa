// Tuiles de plusieurs warps (thread_block_tile<N>, N de 64 à 1 024), avec et sans
// block_tile_memory : rang, taille, rang de la tuile, sync, shfl, any, all, reduce et scans,
// conversion en thread_group ; une tuile dont un thread ne vient pas à sync() est signalée.
// Puis coalesced_threads() dans des branches divergentes : le groupe ne compte que les lanes
// arrivées au même appel.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <algorithm>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

namespace tiles {

constexpr unsigned kBlock = 256;
constexpr unsigned kFields = 10;

/** Ce que voit chaque thread d'une tuile de Size threads, dans une rangée de kFields entiers. */
template <unsigned Size, typename Parent>
__device__ void observe(const cg::thread_block_tile<Size, Parent>& tile, int* staged, int* row) {
    const unsigned t = threadIdx.x;
    staged[t] = int(t);
    tile.sync();  // les autres threads de la tuile ont écrit leur case
    const unsigned base = t - tile.thread_rank();
    row[0] = int(tile.thread_rank());
    row[1] = int(tile.num_threads());
    row[2] = int(tile.meta_group_rank());
    row[3] = int(tile.meta_group_size());
    row[4] = staged[base + (tile.thread_rank() + 1) % Size];
    row[5] = tile.shfl(int(t) * 10, 5u);
    row[6] = tile.any(t == base + 7) + 2 * tile.all(t % 2 == 0);
    row[7] = cg::reduce(tile, int(t), cg::plus<int>());
    row[8] = cg::inclusive_scan(tile, 1);
    const cg::thread_group as_group = tile;
    as_group.sync();
    row[9] = int(as_group.thread_rank());
}

template <unsigned Size>
__global__ void with_tile_memory(int* out) {
    __shared__ cg::block_tile_memory<kBlock> memory;
    __shared__ int staged[kBlock];
    const cg::thread_block block = cg::this_thread_block(memory);
    observe(cg::tiled_partition<Size>(block), staged, out + kFields * threadIdx.x);
}

template <unsigned Size>
__global__ void without_tile_memory(int* out) {
    __shared__ int staged[kBlock];
    observe(cg::tiled_partition<Size>(cg::this_thread_block()), staged, out + kFields * threadIdx.x);
}

/** Une tuile de 32 taillée dans une tuile de 128 : les opérations de warp y restent permises. */
__global__ void warp_inside_multi_warp_tile(int* out) {
    const auto big = cg::tiled_partition<128>(cg::this_thread_block());
    const auto warp = cg::tiled_partition<32>(big);
    out[threadIdx.x] = warp.shfl_down(int(threadIdx.x), 1u) + int(1000 * big.meta_group_rank());
}

__global__ void whole_block_tile(int* out) {
    const auto tile = cg::tiled_partition<1024>(cg::this_thread_block());
    out[threadIdx.x] = cg::reduce(tile, 1, cg::plus<int>()) + int(tile.meta_group_size()) * 10000;
}

constexpr int kTileSyncLine = __LINE__ + 4;
__global__ void tile_sync_not_reached(int* out) {
    const auto tile = cg::tiled_partition<64>(cg::this_thread_block());
    if (tile.thread_rank() == 63) return;  // le dernier thread de chaque tuile quitte
    tile.sync();
    out[threadIdx.x] = 1;
}

/**
 * Comptage agrégé par warp dans deux branches : chaque groupe coalescé ajoute sa taille en
 * une atomique, puis diffuse l'ancienne valeur à ses lanes (comme atomicAggInc).
 */
__device__ int aggregated_increment(int* counter) {
    const cg::coalesced_group group = cg::coalesced_threads();
    int previous = 0;
    if (group.thread_rank() == 0) previous = atomicAdd(counter, int(group.num_threads()));
    return group.shfl(previous, 0) + int(group.thread_rank());
}

__global__ void coalesced_in_branches(int* counters, int* out) {
    const unsigned t = threadIdx.x;
    int* row = out + 3 * t;
    if (t % 2 == 0) {
        const cg::coalesced_group even = cg::coalesced_threads();
        row[0] = int(even.num_threads());
        row[1] = int(even.thread_rank());
        row[2] = aggregated_increment(&counters[0]);
    } else {
        const cg::coalesced_group odd = cg::coalesced_threads();
        row[0] = int(odd.num_threads());
        row[1] = int(odd.thread_rank());
        row[2] = aggregated_increment(&counters[1]);
    }
}

std::vector<int> run(void (*kernel)(int*), unsigned threads, unsigned per_thread) {
    int* device = nullptr;
    std::vector<int> host(threads * per_thread, -1);
    EXPECT_EQ(cudaMalloc(&device, host.size() * sizeof(int)), cudaSuccess);
    EXPECT_EQ(cudaMemset(device, 0xff, host.size() * sizeof(int)), cudaSuccess);
    kernel<<<1, threads>>>(device);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(host.data(), device, host.size() * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(cudaFree(device), cudaSuccess);
    return host;
}

std::string line_of(int line) { return "test_multi_warp_tiles.cu:" + std::to_string(line); }

template <unsigned Size>
void expect_tiles(const std::vector<int>& out) {
    for (unsigned t = 0; t < kBlock; ++t) {
        const int* row = &out[kFields * t];
        const int rank = int(t % Size), base = int(t - t % Size);
        EXPECT_EQ(row[0], rank) << t;
        EXPECT_EQ(row[1], int(Size)) << t;
        EXPECT_EQ(row[2], int(t / Size)) << t;
        EXPECT_EQ(row[3], int(kBlock / Size)) << t;
        EXPECT_EQ(row[4], base + (rank + 1) % int(Size)) << t;
        EXPECT_EQ(row[5], (base + 5) * 10) << t;
        EXPECT_EQ(row[6], 1) << t;  // any : le rang 7 ; all : faux (rangs impairs)
        EXPECT_EQ(row[7], int(Size) * (2 * base + int(Size) - 1) / 2) << t;
        EXPECT_EQ(row[8], rank + 1) << t;
        EXPECT_EQ(row[9], rank) << t;
    }
}

}  // namespace tiles

using namespace tiles;

TEST(MultiWarpTiles, TilesOf64To256WithBlockTileMemory) {
    expect_tiles<64>(run(with_tile_memory<64>, kBlock, kFields));
    expect_tiles<128>(run(with_tile_memory<128>, kBlock, kFields));
    expect_tiles<256>(run(with_tile_memory<256>, kBlock, kFields));
}

TEST(MultiWarpTiles, TilesWithoutBlockTileMemory) {
    expect_tiles<64>(run(without_tile_memory<64>, kBlock, kFields));
    expect_tiles<128>(run(without_tile_memory<128>, kBlock, kFields));
}

TEST(MultiWarpTiles, TileOf1024CoversTheWholeBlock) {
    const std::vector<int> out = run(whole_block_tile, 1024, 1);
    for (int value : out) EXPECT_EQ(value, 1024 + 10000);
}

TEST(MultiWarpTiles, WarpTileCarvedFromAMultiWarpTile) {
    const std::vector<int> out = run(warp_inside_multi_warp_tile, kBlock, 1);
    for (unsigned t = 0; t < kBlock; ++t) {
        const int below = t % 32 == 31 ? int(t) : int(t) + 1;  // la dernière lane garde sa valeur
        EXPECT_EQ(out[t], below + int(1000 * (t / 128))) << t;
    }
}

TEST(MultiWarpTiles, TileSyncNotReachedByEveryThreadIsReported) {
    simt::set_quiet(true);
    simt::clear_diagnostic();
    int* device = nullptr;
    ASSERT_EQ(cudaMalloc(&device, 128 * sizeof(int)), cudaSuccess);
    tile_sync_not_reached<<<1, 128>>>(device);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                testing::AllOf(testing::HasSubstr("thread_block_tile<64>::sync() (" + line_of(kTileSyncLine) + ")"),
                               testing::HasSubstr("thread (63, 0, 0) a terminé")));
    cudaDeviceReset();
    cudaFree(device);
    simt::set_quiet(false);
}

TEST(CoalescedThreads, GroupIsTheLanesOfTheSameBranch) {
    int* device = nullptr;
    constexpr unsigned kThreads = 64;
    ASSERT_EQ(cudaMalloc(&device, (2 + 3 * kThreads) * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMemset(device, 0, (2 + 3 * kThreads) * sizeof(int)), cudaSuccess);
    coalesced_in_branches<<<1, kThreads>>>(device, device + 2);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int> host(2 + 3 * kThreads);
    ASSERT_EQ(cudaMemcpy(host.data(), device, host.size() * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(host[0], int(kThreads / 2));  // chaque thread pair compté une fois
    EXPECT_EQ(host[1], int(kThreads / 2));
    std::vector<int> seen_even, seen_odd;
    for (unsigned t = 0; t < kThreads; ++t) {
        const int* row = &host[2 + 3 * t];
        EXPECT_EQ(row[0], 16) << t;                // 16 lanes de la même branche par warp
        EXPECT_EQ(row[1], int(t % 32 / 2)) << t;   // rang parmi elles
        (t % 2 == 0 ? seen_even : seen_odd).push_back(row[2]);
    }
    // Chaque thread d'une branche reçoit un indice distinct de 0 à 31.
    for (auto* seen : {&seen_even, &seen_odd}) {
        std::sort(seen->begin(), seen->end());
        for (int i = 0; i < int(kThreads / 2); ++i) EXPECT_EQ((*seen)[std::size_t(i)], i);
    }
    cudaFree(device);
}
