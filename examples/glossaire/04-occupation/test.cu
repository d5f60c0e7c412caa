/**
 * @file
 * @brief Tests de l'occupation : la mémoire partagée dynamique fait baisser les blocs résidents,
 *        `__launch_bounds__` plafonne les registres, le calculateur du toolkit retrouve les cas
 *        du Programming Guide ; le noyau à mémoire partagée calcule juste.
 */
#include "occupation.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace {

namespace occ = noyaux::glossaire::occupancy;

cudaDeviceProp current_device() {
    int device = 0;
    cudaDeviceProp p{};
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    NOYAUX_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    return p;
}

// Un SM de capacité 9.0 d'après le tableau des spécifications du CUDA Programming Guide :
// 64 warps, 32 blocs, 65 536 registres, 228 Kio de mémoire partagée (227 Kio par bloc au
// plus), 1 Kio réservé par bloc.
cudaDeviceProp compute_capability_9_0() {
    cudaDeviceProp p{};
    p.major = 9;
    p.minor = 0;
    p.multiProcessorCount = 132;
    p.warpSize = 32;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsPerMultiProcessor = 2048;
    p.maxBlocksPerMultiProcessor = 32;
    p.regsPerBlock = 65536;
    p.regsPerMultiprocessor = 65536;
    p.sharedMemPerBlock = 48 * 1024;
    p.sharedMemPerBlockOptin = 227 * 1024;
    p.sharedMemPerMultiprocessor = 228 * 1024;
    p.reservedSharedMemPerBlock = 1024;
    return p;
}

cudaFuncAttributes function_using(int registers, std::size_t max_dynamic_shared = 227 * 1024) {
    cudaFuncAttributes f{};
    f.maxThreadsPerBlock = 1024;
    f.numRegs = registers;
    f.maxDynamicSharedSizeBytes = static_cast<int>(max_dynamic_shared);
    return f;
}

}  // namespace

TEST(OccupancyCalculator, OneMoreRegisterHalvesTheBlocks) {
    // Blocs de 512 threads : à 64 registres, 2 × 512 × 64 = 65 536, deux blocs tiennent ; à 65
    // (arrondis à l'allocation par warp), un seul.
    const cudaDeviceProp sm90 = compute_capability_9_0();
    const cudaOccResult at64 = occ::occupancy_calculator(sm90, function_using(64), 512, 0);
    const cudaOccResult at65 = occ::occupancy_calculator(sm90, function_using(65), 512, 0);
    EXPECT_EQ(at64.activeBlocksPerMultiprocessor, 2);
    EXPECT_EQ(at65.activeBlocksPerMultiprocessor, 1);
    EXPECT_EQ(occ::limiting_factors_text(at65.limitingFactors), "registres");
}

TEST(OccupancyCalculator, HundredKibibytesPerBlockLeaveTwoBlocks) {
    // 228 Kio par SM, 100 Kio + 1 Kio réservé par bloc : deux blocs.
    const cudaOccResult r =
        occ::occupancy_calculator(compute_capability_9_0(), function_using(32), 256, 100 * 1024);
    EXPECT_EQ(r.activeBlocksPerMultiprocessor, 2);
    EXPECT_EQ(occ::limiting_factors_text(r.limitingFactors), "mémoire partagée");
}

TEST(OccupancyCalculator, FullBlocksAreLimitedByWarps) {
    // 32 registres, 1024 threads : deux blocs remplissent les 64 warps du SM.
    const cudaOccResult r = occ::occupancy_calculator(compute_capability_9_0(), function_using(32), 1024, 0);
    EXPECT_EQ(r.activeBlocksPerMultiprocessor, 2);
    EXPECT_NE(r.limitingFactors & OCC_LIMIT_WARPS, 0u);
}

TEST(OccupancyCalculator, FactorNames) {
    EXPECT_EQ(occ::limiting_factors_text(0), "aucune");
    EXPECT_EQ(occ::limiting_factors_text(OCC_LIMIT_WARPS | OCC_LIMIT_SHARED_MEMORY), "warps, mémoire partagée");
}

TEST(OccupancyApi, MoreDynamicSharedMemoryNeverAddsBlocks) {
    const cudaDeviceProp p = current_device();
    int previous = 1 << 30;
    for (std::size_t kib : {1, 8, 16, 32, 48, 64, 96}) {
        const occ::Occupancy o = occ::query_occupancy(occ::reverse_blocks, 256, kib * 1024);
        EXPECT_LE(o.blocks_per_sm, previous) << kib << " Kio";
        EXPECT_GE(o.blocks_per_sm, 1) << kib << " Kio";
        // Jamais plus de blocs que la mémoire partagée du SM n'en contient.
        EXPECT_LE(static_cast<std::size_t>(o.blocks_per_sm) * kib * 1024, p.sharedMemPerMultiprocessor);
        previous = o.blocks_per_sm;
    }
    // Sans mémoire partagée, des blocs de 256 threads ne sont limités que par les warps.
    const occ::Occupancy none = occ::query_occupancy(occ::reverse_blocks, 256, 0);
    EXPECT_EQ(none.blocks_per_sm, p.maxThreadsPerMultiProcessor / 256);
    EXPECT_DOUBLE_EQ(none.percent(), 100.0);
}

TEST(OccupancyApi, LaunchBoundsGuaranteeTheirMinimum) {
    // __launch_bounds__(256, k) promet k blocs résidents, dans la limite des threads du SM
    // (1 536 sur certaines cartes 8.x) : l'API doit en trouver au moins autant.
    const int by_threads = current_device().maxThreadsPerMultiProcessor / 256;
    EXPECT_GE(occ::query_occupancy(occ::many_live_values<4>, 256, 0).blocks_per_sm, std::min(4, by_threads));
    EXPECT_GE(occ::query_occupancy(occ::many_live_values<8>, 256, 0).blocks_per_sm, std::min(8, by_threads));
}

TEST(OccupancyApi, LaunchBoundsCapRegisters) {
#ifdef SIMT_EMULATOR
    GTEST_SKIP() << "l'émulateur ne connaît pas le nombre de registres d'un noyau";
#else
    const int unbounded = occ::query_occupancy(occ::many_live_values<1>, 256, 0).registers_per_thread;
    const int four = occ::query_occupancy(occ::many_live_values<4>, 256, 0).registers_per_thread;
    const int eight = occ::query_occupancy(occ::many_live_values<8>, 256, 0).registers_per_thread;
    EXPECT_LE(four, 64);
    EXPECT_LE(eight, 32);
    EXPECT_GT(unbounded, eight);  // sans contrainte, le noyau prend plus que 32 registres
#endif
}

TEST(OccupancyApi, RuntimeAgreesWithTheToolkitCalculator) {
    const cudaDeviceProp p = current_device();
    for (std::size_t kib : {0, 16, 64, 100}) {
        const occ::Occupancy o = occ::query_occupancy(occ::reverse_blocks, 256, kib * 1024);
        cudaFuncAttributes attributes{};
        NOYAUX_CUDA_CHECK(cudaFuncGetAttributes(&attributes, occ::reverse_blocks));
        EXPECT_EQ(o.blocks_per_sm,
                  occ::occupancy_calculator(p, attributes, 256, kib * 1024).activeBlocksPerMultiprocessor)
            << kib << " Kio";
    }
}

TEST(OccupancyKernels, ReverseBlocksWithExtraSharedMemory) {
    for (std::size_t n : {1, 255, 256, 1000}) {
        std::vector<float> input(n);
        for (std::size_t i = 0; i < n; ++i) input[i] = static_cast<float>(i) + 0.5f;
        noyaux::DeviceBuffer<float> in{std::span<const float>(input)};
        noyaux::DeviceBuffer<float> out(n);
        const auto blocks = static_cast<unsigned>((n + 255) / 256);
        occ::reverse_blocks<<<blocks, 256, 32 * 1024>>>(in.data(), out.data(), n);
        NOYAUX_CHECK_LAUNCH();
        const std::vector<float> result = out.download();
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t base = i / 256 * 256;
            const std::size_t last = std::min(base + 256, n) - 1;
            ASSERT_EQ(result[i], input[base + last - i]) << "n = " << n << ", i = " << i;
        }
    }
}

TEST(OccupancyKernels, ManyLiveValuesIsTheSameWhateverTheBounds) {
    // Le plafond de registres change le code machine (débordements), jamais le résultat.
    const std::size_t n = 5000;
    std::vector<float> input(n);
    for (std::size_t i = 0; i < n; ++i) input[i] = static_cast<float>(i % 17) - 8.0f;
    noyaux::DeviceBuffer<float> in{std::span<const float>(input)};
    noyaux::DeviceBuffer<float> a(n), b(n);
    occ::many_live_values<1><<<(n + 255) / 256, 256>>>(in.data(), a.data(), n);
    occ::many_live_values<8><<<(n + 255) / 256, 256>>>(in.data(), b.data(), n);
    NOYAUX_CHECK_LAUNCH();
    EXPECT_EQ(a.download(), b.download());
}
