// Groupes coopératifs : bloc, tuiles statiques (tiled_partition<16>) et dynamiques
// (tiled_partition(bloc, 8)), réduction cg::reduce, et synchronisation de toute la grille
// sous cudaLaunchCooperativeKernel, refusée quand la grille dépasse le périphérique.
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <vector>

namespace cg = cooperative_groups;

namespace {

__global__ void reverse_with_block_sync(int* data) {
    cg::thread_block block = cg::this_thread_block();
    __shared__ int buffer[128];
    const unsigned rank = block.thread_rank();
    buffer[rank] = data[rank];
    block.sync();
    data[rank] = buffer[block.num_threads() - 1 - rank];
}

// Deux réductions par tuile de 16 : à la main par shfl_down, et par cg::reduce.
__global__ void tile_sums(const int* in, int* by_shuffle, int* by_reduce, int* ranks) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    const int value = in[block.thread_rank()];
    int sum = value;
    for (unsigned offset = tile.num_threads() / 2; offset > 0; offset /= 2) sum += tile.shfl_down(sum, offset);
    const int reduced = cg::reduce(tile, value, cg::plus<int>());
    const unsigned tile_index = block.thread_rank() / 16;
    if (tile.thread_rank() == 0) by_shuffle[tile_index] = sum;
    by_reduce[block.thread_rank()] = reduced;
    ranks[block.thread_rank()] = static_cast<int>(tile.thread_rank() + 100 * tile.meta_group_rank());
}

// Tuile de taille connue à l'exécution : chaque thread lit la valeur de son voisin de
// tuile par la mémoire partagée, après la synchronisation de la tuile.
__global__ void dynamic_tiles(int* out, unsigned tile_size) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, tile_size);
    __shared__ int values[64];
    const unsigned rank = block.thread_rank();
    values[rank] = static_cast<int>(rank * rank);
    tile.sync();
    const unsigned first = rank - tile.thread_rank();
    const unsigned neighbour = first + (tile.thread_rank() + 1) % tile.num_threads();
    out[rank] = values[neighbour] + 1000 * static_cast<int>(tile.num_threads());
}

// Somme en deux phases séparées par grid.sync() : partielles par bloc, puis total.
__global__ void grid_sum(const int* values, int* partial, int* total, unsigned long long* grid_size) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int block_sum;
    if (block.thread_rank() == 0) block_sum = 0;
    block.sync();
    atomicAdd(&block_sum, values[grid.thread_rank()]);
    block.sync();
    if (block.thread_rank() == 0) partial[grid.block_rank()] = block_sum;
    grid.sync();
    if (grid.thread_rank() == 0) {
        int sum = 0;
        for (unsigned long long b = 0; b < grid.num_blocks(); ++b) sum += partial[b];
        *total = sum;
        *grid_size = grid.size();
    }
}

}  // namespace

TEST(CooperativeGroups, ThreadBlockSync) {
    std::vector<int> host(128);
    for (int i = 0; i < 128; ++i) host[i] = i * 5 - 3;
    int* data;
    cudaMalloc(&data, 128 * sizeof(int));
    cudaMemcpy(data, host.data(), 128 * sizeof(int), cudaMemcpyHostToDevice);
    reverse_with_block_sync<<<1, dim3(32, 4)>>>(data);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<int> result(128);
    cudaMemcpy(result.data(), data, 128 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 128; ++i) EXPECT_EQ(result[i], host[127 - i]) << i;
    cudaFree(data);
}

TEST(CooperativeGroups, StaticTilesOf16ReduceByShuffleAndCgReduce) {
    const int n = 96, tiles = n / 16;
    std::vector<int> host(n);
    for (int i = 0; i < n; ++i) host[i] = (i * 29) % 31 - 11;
    int *in, *by_shuffle, *by_reduce, *ranks;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&by_shuffle, tiles * sizeof(int));
    cudaMalloc(&by_reduce, n * sizeof(int));
    cudaMalloc(&ranks, n * sizeof(int));
    cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    tile_sums<<<1, n>>>(in, by_shuffle, by_reduce, ranks);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int> shuffle_sums(tiles), reduce_sums(n), rank_values(n);
    cudaMemcpy(shuffle_sums.data(), by_shuffle, tiles * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(reduce_sums.data(), by_reduce, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(rank_values.data(), ranks, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int t = 0; t < tiles; ++t) {
        int sum = 0;
        for (int k = 0; k < 16; ++k) sum += host[t * 16 + k];
        EXPECT_EQ(shuffle_sums[t], sum) << "tuile " << t;
        for (int k = 0; k < 16; ++k) {
            EXPECT_EQ(reduce_sums[t * 16 + k], sum) << "tuile " << t << ", thread " << k;
            EXPECT_EQ(rank_values[t * 16 + k], k + 100 * t);
        }
    }
    cudaFree(in);
    cudaFree(by_shuffle);
    cudaFree(by_reduce);
    cudaFree(ranks);
}

TEST(CooperativeGroups, DynamicTilesOf8) {
    const unsigned n = 64, size = 8;
    int* out;
    cudaMalloc(&out, n * sizeof(int));
    dynamic_tiles<<<1, n>>>(out, size);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<int> host(n);
    cudaMemcpy(host.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (unsigned r = 0; r < n; ++r) {
        const unsigned neighbour = r / size * size + (r % size + 1) % size;
        EXPECT_EQ(host[r], int(neighbour * neighbour + 1000 * size)) << r;
    }
    cudaFree(out);
}

TEST(CooperativeGroups, GridSyncUnderCooperativeLaunch) {
    int device = 0, supported = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, device);
    ASSERT_EQ(supported, 1);

    const int blocks = 4, threads = 128, n = blocks * threads;
    std::vector<int> host(n);
    for (int i = 0; i < n; ++i) host[i] = i % 17 - 4;
    int *values, *partial, *total;
    unsigned long long* grid_size;
    cudaMalloc(&values, n * sizeof(int));
    cudaMalloc(&partial, blocks * sizeof(int));
    cudaMalloc(&total, sizeof(int));
    cudaMalloc(&grid_size, sizeof(unsigned long long));
    cudaMemcpy(values, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    void* arguments[] = {&values, &partial, &total, &grid_size};
    ASSERT_EQ(cudaLaunchCooperativeKernel(grid_sum, blocks, threads, arguments), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    int sum = 0;
    unsigned long long size = 0;
    cudaMemcpy(&sum, total, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&size, grid_size, sizeof size, cudaMemcpyDeviceToHost);
    int expected = 0;
    for (int v : host) expected += v;
    EXPECT_EQ(sum, expected);
    EXPECT_EQ(size, static_cast<unsigned long long>(n));
    cudaFree(values);
    cudaFree(partial);
    cudaFree(total);
    cudaFree(grid_size);
}

TEST(CooperativeGroups, GridLargerThanTheDeviceIsRefused) {
    const int threads = 256;
    int per_multiprocessor = 0;
    cudaDeviceProp properties{};
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, grid_sum, threads, 0),
              cudaSuccess);
    ASSERT_EQ(cudaGetDeviceProperties(&properties, 0), cudaSuccess);
    const int resident = per_multiprocessor * properties.multiProcessorCount;
    ASSERT_GT(resident, 0);

    int *values = nullptr, *partial = nullptr, *total = nullptr;
    unsigned long long* grid_size = nullptr;
    void* arguments[] = {&values, &partial, &total, &grid_size};
    simt::set_quiet(true);
    const cudaError_t error = cudaLaunchCooperativeKernel(grid_sum, resident + 1, threads, arguments);
    simt::set_quiet(false);
    EXPECT_EQ(error, cudaErrorCooperativeLaunchTooLarge);
    EXPECT_EQ(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // erreur de lancement, non collante
    EXPECT_NE(simt::last_diagnostic().find("lancement coopératif de " + std::to_string(resident + 1) + " blocs"),
              std::string::npos)
        << simt::last_diagnostic();
}

TEST(CooperativeGroups, GridSyncWithoutCooperativeLaunchIsAFault) {
    int *values, *partial, *total;
    unsigned long long* grid_size;
    cudaMalloc(&values, 2 * 32 * sizeof(int));
    cudaMalloc(&partial, 2 * sizeof(int));
    cudaMalloc(&total, sizeof(int));
    cudaMalloc(&grid_size, sizeof(unsigned long long));
    cudaMemset(values, 0, 2 * 32 * sizeof(int));
    simt::set_quiet(true);
    grid_sum<<<2, 32>>>(values, partial, total, grid_size);
    simt::set_quiet(false);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_NE(simt::last_diagnostic().find("grid.sync() exige un lancement coopératif"), std::string::npos)
        << simt::last_diagnostic();
    cudaDeviceReset();  // l'erreur est collante, comme une faute sur GPU
    cudaFree(values);
    cudaFree(partial);
    cudaFree(total);
    cudaFree(grid_size);
}

namespace {

__global__ void add_offset(int* values, int n, int offset) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        values[i] += offset;
}

}  // namespace

TEST(LaunchKernelEx, ReadsShapeAndClusterFromConfig) {
    int* values = nullptr;
    ASSERT_EQ(cudaMalloc(&values, 100 * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMemset(values, 0, 100 * sizeof(int)), cudaSuccess);
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(2);
    config.blockDim = dim3(32);
    ASSERT_EQ(cudaLaunchKernelEx(&config, add_offset, values, 100, 7), cudaSuccess);
    std::vector<int> host(100);
    ASSERT_EQ(cudaMemcpy(host.data(), values, 100 * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    for (int v : host) ASSERT_EQ(v, 7);

    cudaLaunchAttribute cluster{};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = 2;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.attrs = &cluster;
    config.numAttrs = 1;
    ASSERT_EQ(cudaLaunchKernelEx(&config, add_offset, values, 100, 7), cudaSuccess);  // voir test_clusters.cu
    ASSERT_EQ(cudaMemcpy(host.data(), values, 100 * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    for (int v : host) ASSERT_EQ(v, 14);
    config.gridDim = dim3(3);  // pas un multiple du cluster
    simt::set_quiet(true);
    EXPECT_EQ(cudaLaunchKernelEx(&config, add_offset, values, 100, 7), cudaErrorInvalidClusterSize);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidClusterSize);
    simt::set_quiet(false);
    cudaFree(values);
}
