// Groupes coopératifs : la fonction libre cg::sync, la conversion du bloc et des tuiles en
// thread_group, le groupe coalescé (coalesced_threads), block_tile_memory, les scans
// (inclusive_scan, exclusive_scan) et reduce sur un groupe coalescé.
#include <gtest/gtest.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>

namespace cg = cooperative_groups;

namespace {

/** Rang et taille vus à travers un thread_group (nature connue à l'exécution seulement). */
__device__ void record(const cg::thread_group& group, int* rank, int* size) {
    *rank = int(group.thread_rank());
    *size = int(group.size());
    cg::sync(group);
}

__global__ void groups_as_thread_group(int* out) {
    __shared__ cg::block_tile_memory<64> tile_memory;
    cg::thread_block block = cg::this_thread_block(tile_memory);
    const unsigned t = block.thread_rank();
    __shared__ int staged[64];
    staged[t] = int(t);
    cg::sync(block);  // fonction libre
    const int neighbour = staged[(t + 1) % block.size()];
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int* row = out + 6 * t;
    record(block, &row[0], &row[1]);
    record(tile, &row[2], &row[3]);
    row[4] = neighbour;
    row[5] = int(cg::thread_group(tile).meta_group_rank());
}

__global__ void coalesced(int* out) {
    cg::coalesced_group active = cg::coalesced_threads();
    const unsigned t = threadIdx.x;
    int* row = out + 8 * t;
    row[0] = int(active.thread_rank());
    row[1] = int(active.size());
    row[2] = active.shfl(int(t) * 10, 3u);  // valeur du rang 3
    row[3] = int(active.ballot(t % 2 == 0));
    row[4] = active.any(t == 5) + 2 * active.all(t < 1000);
    row[5] = cg::reduce(active, int(t), cg::plus<int>());
    row[6] = active.shfl_up(int(t), 1u);
    cg::thread_group as_group = active;
    row[7] = int(as_group.size());
}

__global__ void scans(int* out) {
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
    const int value = int(tile.thread_rank()) + 1;
    out[2 * threadIdx.x] = cg::inclusive_scan(tile, value);
    out[2 * threadIdx.x + 1] = cg::exclusive_scan(tile, value, cg::plus<int>());
}

std::vector<int> run(void (*kernel)(int*), unsigned threads, unsigned per_thread) {
    int* device = nullptr;
    std::vector<int> host(threads * per_thread, -1);
    EXPECT_EQ(cudaMalloc(&device, host.size() * sizeof(int)), cudaSuccess);
    kernel<<<1, threads>>>(device);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(host.data(), device, host.size() * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(cudaFree(device), cudaSuccess);
    return host;
}

}  // namespace

TEST(GroupConversions, BlockAndTilesConvertToThreadGroup) {
    const std::vector<int> out = run(groups_as_thread_group, 64, 6);
    for (int t = 0; t < 64; ++t) {
        const int* row = &out[6 * t];
        EXPECT_EQ(row[0], t);
        EXPECT_EQ(row[1], 64);
        EXPECT_EQ(row[2], t % 8);
        EXPECT_EQ(row[3], 8);
        EXPECT_EQ(row[4], (t + 1) % 64);
        EXPECT_EQ(row[5], t / 8);
    }
}

TEST(GroupConversions, CoalescedGroupCountsRanksAmongItsLanes) {
    // 48 threads : le second warp n'a que 16 lanes, qui forment son groupe coalescé.
    const std::vector<int> out = run(coalesced, 48, 8);
    for (int t = 0; t < 48; ++t) {
        const int* row = &out[8 * t];
        const int warp_base = t / 32 * 32, size = t < 32 ? 32 : 16;
        EXPECT_EQ(row[0], t - warp_base) << t;
        EXPECT_EQ(row[1], size) << t;
        EXPECT_EQ(row[2], (warp_base + 3) * 10) << t;
        EXPECT_EQ(unsigned(row[3]), size == 32 ? 0x55555555u : 0x5555u) << t;
        EXPECT_EQ(row[4], (t < 32 ? 1 : 0) + 2) << t;  // t == 5 n'est que dans le premier warp
        const int sum = size * (2 * warp_base + size - 1) / 2;
        EXPECT_EQ(row[5], sum) << t;
        EXPECT_EQ(row[6], t == warp_base ? t : t - 1) << t;
        EXPECT_EQ(row[7], size) << t;
    }
}

TEST(GroupConversions, InclusiveAndExclusiveScansOnATile) {
    const std::vector<int> out = run(scans, 32, 2);
    for (int t = 0; t < 32; ++t) {
        const int r = t % 8 + 1;  // valeur du thread : son rang + 1
        EXPECT_EQ(out[2 * t], r * (r + 1) / 2) << t;
        EXPECT_EQ(out[2 * t + 1], r * (r - 1) / 2) << t;
    }
}
