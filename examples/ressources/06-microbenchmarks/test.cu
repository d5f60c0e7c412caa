/**
 * @file
 * @brief Tests de justesse des microbenchmarks : la copie en flux copie, la poursuite de
 *        pointeurs visite chaque case de son cycle exactement une fois, le noyau FMA
 *        calcule la valeur de sa forme close. Aucun temps n'est vérifié ici.
 */
#include "microbenchmarks.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace {

namespace mb = noyaux::ressources::microbench;
using noyaux::DeviceBuffer;

// Copie de bytes octets suivie d'une zone de garde qui doit rester intacte.
void expect_copy(std::size_t bytes, mb::StreamConfig config) {
    const std::size_t n = bytes / sizeof(float);
    constexpr std::size_t kGuard = 16;
    std::vector<float> source(n);
    for (std::size_t i = 0; i < n; ++i) source[i] = static_cast<float>(i % 4099) * 0.5f - 7.0f;
    std::vector<float> destination(n + kGuard, -1.0f);
    DeviceBuffer<float> source_device{std::span<const float>(source)};
    DeviceBuffer<float> destination_device{std::span<const float>(destination)};
    mb::launch_stream_copy(source_device.data(), destination_device.data(), bytes, config);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> result = destination_device.download();
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(result[i], source[i]) << "indice " << i;
    for (std::size_t i = n; i < n + kGuard; ++i)
        ASSERT_EQ(result[i], -1.0f) << "écriture hors limites à l'indice " << i;
}

}  // namespace

TEST(StreamCopy, CopiesEveryByte) {
    expect_copy(16, {1, 32});
    expect_copy(4096 * 16 + 48, {3, 64});  // plusieurs tours de boucle grid-stride
    expect_copy(1 << 20, mb::stream_config(4));
}

TEST(StreamCopy, RejectsSizesAndAddressesThatFloat4CannotHandle) {
    DeviceBuffer<float> a(64);
    DeviceBuffer<float> b(64);
    EXPECT_THROW(mb::launch_stream_copy(a.data(), b.data(), 20, {1, 32}), std::invalid_argument);
    EXPECT_THROW(mb::launch_stream_copy(a.data() + 1, b.data(), 64, {1, 32}),
                 std::invalid_argument);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(ChaseArray, IsOneCycleThroughEveryLine) {
    for (std::size_t bytes : {std::size_t{256}, std::size_t{128 * 1000}}) {
        const std::vector<unsigned> next = mb::make_chase_array(bytes, 42);
        const std::size_t lines = bytes / (mb::kChaseStride * sizeof(unsigned));
        std::vector<int> seen(lines, 0);
        unsigned j = 0;
        for (std::size_t s = 0; s < lines; ++s) {
            j = next[j];
            ASSERT_EQ(j % mb::kChaseStride, 0u) << "une case hors des débuts de ligne";
            ++seen[j / mb::kChaseStride];
        }
        EXPECT_EQ(j, 0u) << "le cycle ne revient pas au départ après " << lines << " pas";
        for (std::size_t line = 0; line < lines; ++line)
            ASSERT_EQ(seen[line], 1) << "ligne " << line << " visitée " << seen[line] << " fois";
    }
}

TEST(ChaseArray, RejectsUnusableSizes) {
    EXPECT_THROW(mb::make_chase_array(128, 1), std::invalid_argument);
    EXPECT_THROW(mb::make_chase_array(1000, 1), std::invalid_argument);
}

// --8<-- [start:garanties]
TEST(PointerChase, KernelVisitsEveryElementOfTheCycleExactlyOnce) {
    constexpr std::size_t kBytes = 128 * 4096;  // 4096 lignes
    constexpr std::size_t kLines = kBytes / 128;
    const std::vector<unsigned> next = mb::make_chase_array(kBytes, 7);
    DeviceBuffer<unsigned> next_device{std::span<const unsigned>(next)};
    DeviceBuffer<unsigned> trace(kLines);
    DeviceBuffer<mb::ChaseResult> result(1);
    // Un tour complet d'échauffement, puis un tour chronométré et tracé.
    mb::launch_pointer_chase(next_device.data(), kLines, kLines, trace.data(), result.data());
    NOYAUX_CHECK_LAUNCH();

    const std::vector<unsigned> visited = trace.download();
    std::vector<int> seen(kLines, 0);
    unsigned expected = 0;
    for (std::size_t s = 0; s < kLines; ++s) {
        expected = next[expected];
        ASSERT_EQ(visited[s], expected) << "pas " << s;
        ++seen[visited[s] / mb::kChaseStride];
    }
    for (std::size_t line = 0; line < kLines; ++line)
        ASSERT_EQ(seen[line], 1) << "ligne " << line;
    const mb::ChaseResult chase = result.download()[0];
    EXPECT_EQ(chase.last, 0u);
    EXPECT_GE(chase.cycles, 0);
}
// --8<-- [end:garanties]

TEST(PointerChase, StopsWhereTheHostWalkStops) {
    const std::vector<unsigned> next = mb::make_chase_array(128 * 37, 3);
    DeviceBuffer<unsigned> next_device{std::span<const unsigned>(next)};
    DeviceBuffer<mb::ChaseResult> result(1);
    mb::launch_pointer_chase(next_device.data(), 5, 100, nullptr, result.data());
    NOYAUX_CHECK_LAUNCH();
    unsigned j = 0;
    for (int s = 0; s < 105; ++s) j = next[j];
    EXPECT_EQ(result.download()[0].last, j);
}

TEST(FmaThroughput, MatchesClosedFormWithUnitMultiplier) {
    constexpr unsigned kBlocks = 5;
    constexpr unsigned kThreads = 256;  // 1280 threads : t mod 1024 se replie
    constexpr int kIterations = 300;
    DeviceBuffer<float> out(kBlocks * kThreads);
    mb::launch_fma_throughput(out.data(), kBlocks, kThreads, kIterations, 1.0f, 1.0f);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> result = out.download();
    for (unsigned t = 0; t < kBlocks * kThreads; ++t)
        ASSERT_EQ(result[t], static_cast<float>(mb::fma_expected(t, kIterations, 1.0, 1.0)))
            << "thread " << t;
}

TEST(FmaThroughput, MatchesClosedFormWithDoubling) {
    // x ← 2x + 3 : xₙ = 2ⁿ·x₀ + 3·(2ⁿ − 1), entiers exacts en float pour n = 10.
    DeviceBuffer<float> out(2 * 128);
    mb::launch_fma_throughput(out.data(), 2, 128, 10, 2.0f, 3.0f);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> result = out.download();
    for (unsigned t = 0; t < 256; ++t)
        ASSERT_EQ(result[t], static_cast<float>(mb::fma_expected(t, 10, 2.0, 3.0))) << "thread " << t;
    EXPECT_EQ(result[0], 1024.0f * 28.0f + 8.0f * 3.0f * 1023.0f);  // t = 0 : x₀ = 0…7
}

TEST(FmaThroughput, CountsTwoFlopsPerFma) {
    EXPECT_DOUBLE_EQ(mb::fma_flops(2, 128, 10), 2.0 * 8 * 10 * 256);
    DeviceBuffer<float> out(1);
    EXPECT_THROW(mb::launch_fma_throughput(out.data(), 0, 128, 1, 1.0f, 1.0f),
                 std::invalid_argument);
}
