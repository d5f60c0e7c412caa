// Groupes coopératifs : la fonction libre cg::sync, la conversion du bloc et des tuiles en
// thread_group, le groupe coalescé (coalesced_threads), block_tile_memory, les scans
// (inclusive_scan, exclusive_scan), reduce sur un groupe coalescé, et labeled_partition et
// binary_partition (groupes de même étiquette).
#include <gtest/gtest.h>

#include <algorithm>

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

// Comme l'échantillon warpAggregatedAtomicsCG de NVIDIA : dans une branche divergente, les
// threads actifs se partitionnent par étiquette ; un thread par groupe fait l'atomique.
__global__ void labeled(int* out, int* counters) {
    const unsigned t = threadIdx.x;
    int* row = out + 6 * t;
    if (t % 3 != 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        const int bucket = int(t % 4);
        cg::coalesced_group same = cg::labeled_partition(active, bucket);
        row[0] = int(same.size());
        row[1] = int(same.thread_rank());
        int first = 0;
        if (same.thread_rank() == 0) first = atomicAdd(&counters[bucket], int(same.size()));
        row[2] = same.shfl(first, 0u) + int(same.thread_rank());  // indice unique dans le seau
        row[3] = cg::reduce(same, int(t), cg::greater<int>());
    }
    // Sans barrière : une lane sortie de la branche arrive à la correspondance de la tuile
    // pendant qu'une lane de son masque achève encore les opérations de la branche, ce que
    // permet l'ordonnancement indépendant des threads (sm_70 et après).
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
    cg::coalesced_group half = cg::binary_partition(tile, t % 2 == 0);
    row[4] = int(half.size());
    row[5] = cg::reduce(half, int(t), cg::plus<int>());
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

TEST(GroupConversions, LabeledPartitionGroupsEqualLabels) {
    // 48 threads : dans chaque warp, les threads t % 3 != 0 se partitionnent selon t % 4.
    const int n = 48;
    int *out = nullptr, *counters = nullptr;
    ASSERT_EQ(cudaMalloc(&out, 6 * n * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&counters, 4 * sizeof(int)), cudaSuccess);
    cudaMemset(out, 0, 6 * n * sizeof(int));
    cudaMemset(counters, 0, 4 * sizeof(int));
    labeled<<<1, n>>>(out, counters);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int> host(6 * n), count(4);
    cudaMemcpy(host.data(), out, host.size() * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(count.data(), counters, count.size() * sizeof(int), cudaMemcpyDeviceToHost);
    std::vector<std::vector<bool>> taken(4, std::vector<bool>(n, false));
    for (int t = 0; t < n; ++t) {
        const int* row = &host[6 * t];
        const int warp_base = t / 32 * 32, warp_end = std::min(warp_base + 32, n);
        if (t % 3 != 0) {
            int size = 0, rank = 0, largest = 0;
            for (int u = warp_base; u < warp_end; ++u)
                if (u % 3 != 0 && u % 4 == t % 4) {
                    rank += u < t;
                    ++size;
                    largest = u;
                }
            EXPECT_EQ(row[0], size) << t;
            EXPECT_EQ(row[1], rank) << t;
            ASSERT_GE(row[2], 0) << t;
            ASSERT_LT(row[2], count[t % 4]) << t;
            EXPECT_FALSE(taken[t % 4][row[2]]) << t;  // chaque indice du seau une seule fois
            taken[t % 4][row[2]] = true;
            EXPECT_EQ(row[3], largest) << t;
        }
        const int tile_base = t / 8 * 8;
        int half_sum = 0;
        for (int u = tile_base; u < tile_base + 8; ++u) half_sum += u % 2 == t % 2 ? u : 0;
        EXPECT_EQ(row[4], 4) << t;
        EXPECT_EQ(row[5], half_sum) << t;
    }
    int expected_total = 0;
    for (int t = 0; t < n; ++t) expected_total += t % 3 != 0;
    EXPECT_EQ(count[0] + count[1] + count[2] + count[3], expected_total);
    cudaFree(out);
    cudaFree(counters);
}
