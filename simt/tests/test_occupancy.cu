// Le modèle d'occupation de l'émulateur, ressource par ressource (threads, registres,
// mémoire partagée statique et dynamique), puis son emploi par l'API runtime et par le
// moteur : cudaOccupancyMaxActiveBlocksPerMultiprocessor et la taille maximale d'une grille
// coopérative viennent du même calcul, et ne peuvent pas se contredire.
#include <gtest/gtest.h>
#include <simt/control.hpp>
#include <simt/occupancy.hpp>

#include <cooperative_groups.h>

#include <cstddef>

namespace {

constexpr std::size_t kKiB = 1024;

simt::Occupancy occupancy_of(unsigned threads, int registers_per_thread = simt::kAssumedRegistersPerThread,
                             std::size_t static_shared = 0, std::size_t dynamic_shared = 0,
                             std::size_t dynamic_shared_limit = 0) {
    simt::BlockResources resources;
    resources.threads = threads;
    resources.registers_per_thread = registers_per_thread;
    resources.static_shared_bytes = static_shared;
    resources.dynamic_shared_bytes = dynamic_shared;
    resources.dynamic_shared_limit = dynamic_shared_limit;
    return simt::occupancy(resources);
}

}  // namespace

// Le périphérique émulé garde 2 048 threads (64 warps) et 32 blocs par multiprocesseur.
TEST(Occupancy, ThreadsCountInWholeWarps) {
    EXPECT_EQ(occupancy_of(1024).blocks_per_multiprocessor, 2);
    EXPECT_EQ(occupancy_of(1024).limit_by_threads, 2);
    EXPECT_EQ(occupancy_of(256).blocks_per_multiprocessor, 8);
    // 80 threads occupent 3 warps : 21 blocs, et non 2 048 / 80 = 25.
    EXPECT_EQ(occupancy_of(80).limit_by_threads, 21);
    EXPECT_EQ(occupancy_of(80).blocks_per_multiprocessor, 21);
    // 32 threads : les warps permettraient 64 blocs, le plafond de 32 blocs l'emporte.
    EXPECT_EQ(occupancy_of(32).limit_by_threads, 64);
    EXPECT_EQ(occupancy_of(32).limit_by_blocks, 32);
    EXPECT_EQ(occupancy_of(32).blocks_per_multiprocessor, 32);
}

TEST(Occupancy, RegistersLimitWhenAKernelUsesMany) {
    // 32 registres par thread (ce que l'émulateur suppose) : jamais plus contraignant que les threads.
    EXPECT_EQ(occupancy_of(256).limit_by_registers, occupancy_of(256).limit_by_threads);
    // 64 registres : 2 048 par warp, 32 warps sur 65 536 registres, donc 4 blocs de 8 warps.
    const simt::Occupancy heavy = occupancy_of(256, 64);
    EXPECT_EQ(heavy.limit_by_registers, 4);
    EXPECT_EQ(heavy.blocks_per_multiprocessor, 4);
    // 255 registres, arrondis à 256 : 8 warps par multiprocesseur, un seul bloc de 256 threads.
    EXPECT_EQ(occupancy_of(256, 255).blocks_per_multiprocessor, 1);
}

TEST(Occupancy, StaticAndDynamicSharedMemoryCountAlike) {
    // 37 Kio par bloc, plus 1 Kio réservé par le pilote : 38 Kio, 6 blocs sur les 228 Kio d'un
    // multiprocesseur de capacité 9.0.
    const simt::Occupancy by_static = occupancy_of(128, 32, 37 * kKiB, 0);
    const simt::Occupancy by_dynamic = occupancy_of(128, 32, 0, 37 * kKiB);
    const simt::Occupancy split = occupancy_of(128, 32, 37 * kKiB / 2, 37 * kKiB / 2);
    for (const simt::Occupancy& o : {by_static, by_dynamic, split}) {
        EXPECT_EQ(o.shared_bytes_per_block, 38 * kKiB);
        EXPECT_EQ(o.limit_by_shared_memory, 6);
        EXPECT_EQ(o.blocks_per_multiprocessor, 6);
    }
    // Un octet de plus dans chacune : l'arrondi au grain de 128 octets fait tomber à 5 blocs.
    const simt::Occupancy over = occupancy_of(128, 32, 37 * kKiB / 2 + 1, 37 * kKiB / 2 + 1);
    EXPECT_EQ(over.shared_bytes_per_block, 38 * kKiB + 128);
    EXPECT_EQ(over.blocks_per_multiprocessor, 5);
    // Sans mémoire partagée, elle ne limite pas : les threads décident (16 blocs de 4 warps).
    EXPECT_EQ(occupancy_of(128).blocks_per_multiprocessor, 16);
}

TEST(Occupancy, DynamicSharedMemoryBeyondTheKernelLimitFitsNowhere) {
    // 50 Kio dépassent le plafond par défaut (48 Kio) : aucun bloc, sauf à relever le plafond
    // (alors 51 Kio par bloc : 4 blocs sur 228 Kio).
    EXPECT_EQ(occupancy_of(128, 32, 0, 50 * kKiB).blocks_per_multiprocessor, 0);
    EXPECT_EQ(occupancy_of(128, 32, 0, 50 * kKiB, 96 * kKiB).blocks_per_multiprocessor, 4);
    // Le plafond sur option de la capacité 9.0 : 227 Kio tiennent (un bloc), pas davantage.
    EXPECT_EQ(occupancy_of(128, 32, 0, 227 * kKiB, 227 * kKiB).blocks_per_multiprocessor, 1);
    EXPECT_EQ(occupancy_of(128, 32, 0, 227 * kKiB + 1, 227 * kKiB).blocks_per_multiprocessor, 0);
}

namespace occupancy_test {

__global__ void count_blocks_after_grid_sync(unsigned* blocks) {
    extern __shared__ unsigned char scratch[];
    scratch[threadIdx.x] = 1;
    cooperative_groups::this_grid().sync();
    if (threadIdx.x == 0) atomicAdd(blocks, unsigned(scratch[0]));
}

}  // namespace occupancy_test

TEST(Occupancy, RuntimeApiAndCooperativeLaunchesAgree) {
    const std::size_t shared = 40 * kKiB;
    const int threads = 128;
    int per_multiprocessor = 0;
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                  &per_multiprocessor, occupancy_test::count_blocks_after_grid_sync, threads, shared),
              cudaSuccess);
    EXPECT_EQ(per_multiprocessor, occupancy_of(threads, 32, 0, shared).blocks_per_multiprocessor);
    cudaDeviceProp properties{};
    ASSERT_EQ(cudaGetDeviceProperties(&properties, 0), cudaSuccess);
    const unsigned resident = unsigned(per_multiprocessor * properties.multiProcessorCount);
    ASSERT_EQ(resident, 20u);  // 5 blocs de 41 Kio (sur 228) par multiprocesseur, 4 multiprocesseurs

    unsigned* blocks = nullptr;
    ASSERT_EQ(cudaMalloc(&blocks, sizeof(unsigned)), cudaSuccess);
    ASSERT_EQ(cudaMemset(blocks, 0, sizeof(unsigned)), cudaSuccess);
    void* arguments[] = {&blocks};
    // Toute la grille résidente : la synchronisation de grille aboutit.
    ASSERT_EQ(cudaLaunchCooperativeKernel(occupancy_test::count_blocks_after_grid_sync, resident, threads,
                                          arguments, shared),
              cudaSuccess);
    unsigned counted = 0;
    ASSERT_EQ(cudaMemcpy(&counted, blocks, sizeof counted, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(counted, resident);
    // Un bloc de plus ne tient pas, à cause de la mémoire partagée seule (les threads
    // permettraient 16 blocs par multiprocesseur).
    simt::set_quiet(true);
    EXPECT_EQ(cudaLaunchCooperativeKernel(occupancy_test::count_blocks_after_grid_sync, resident + 1,
                                          threads, arguments, shared),
              cudaErrorCooperativeLaunchTooLarge);
    simt::set_quiet(false);
    EXPECT_EQ(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
    cudaFree(blocks);
}

TEST(Occupancy, DeviceAndKernelAttributesMatchTheModel) {
    int reserved = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0), cudaSuccess);
    EXPECT_EQ(reserved, 1024);
    cudaFuncAttributes attributes{};
    ASSERT_EQ(cudaFuncGetAttributes(&attributes, occupancy_test::count_blocks_after_grid_sync), cudaSuccess);
    EXPECT_EQ(attributes.numRegs, simt::kAssumedRegistersPerThread);
    EXPECT_EQ(attributes.sharedSizeBytes, 0u);  // la mémoire partagée statique n'est pas connue
}
