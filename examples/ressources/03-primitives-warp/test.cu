/**
 * @file
 * @brief Tests des trois réductions (arbre, shuffle, CUB sur GPU) contre une somme CPU,
 *        et du filtrage des positifs par votes de warp.
 */
#include "primitives-warp.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace {

using noyaux::DeviceBuffer;
namespace wp = noyaux::ressources::warp_primitives;
using wp::Variant;

// Tailles limites : vide, un élément, autour d'un warp, non multiple d'un bloc, grande.
const std::vector<std::size_t> kSizes = {0, 1, 31, 32, 33, 1000, std::size_t{1} << 20};

// Valeurs de -500 à 500, pas toutes positives : la somme d'un million d'entre elles tient
// largement dans un int (|somme| < 5·10^8).
std::vector<int> signed_ints(std::size_t n) {
    std::vector<int> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>((i * 7919) % 1001) - 500;
    return values;
}

std::vector<float> signed_floats(std::size_t n) {
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i)
        values[i] = 0.01f * static_cast<float>(static_cast<int>((i * 104729) % 2001) - 1000);
    return values;
}

int multiprocessors() {
    int device = 0;
    int count = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    NOYAUX_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
}

template <typename T>
T gpu_sum(Variant variant, const std::vector<T>& host, unsigned blocks) {
    DeviceBuffer<T> in{std::span<const T>(host)};
    DeviceBuffer<T> block_sums(blocks);
    DeviceBuffer<T> result(1);
    wp::launch_reduce_sum(variant, in.data(), host.size(), block_sums.data(), result.data(), blocks);
    NOYAUX_CHECK_LAUNCH();
    return result.download()[0];
}

class Reduction : public testing::TestWithParam<Variant> {
protected:
    void SetUp() override {
        if (!wp::variant_available(GetParam()))
            GTEST_SKIP() << "variante " << wp::variant_name(GetParam()) << " : GPU seulement";
    }
};

// --8<-- [start:garanties]
TEST_P(Reduction, IntegerSumIsExact) {
    for (std::size_t n : kSizes) {
        const std::vector<int> values = signed_ints(n);
        std::int64_t expected = 0;
        for (int v : values) expected += v;
        const unsigned blocks = wp::reduction_blocks(n, multiprocessors());
        EXPECT_EQ(gpu_sum(GetParam(), values, blocks), expected) << "n = " << n;
    }
}

TEST_P(Reduction, FloatSumMatchesDoubleReference) {
    for (std::size_t n : kSizes) {
        const std::vector<float> values = signed_floats(n);
        double expected = 0.0;
        double magnitude = 0.0;
        for (float v : values) {
            expected += v;
            magnitude += std::fabs(v);
        }
        const unsigned blocks = wp::reduction_blocks(n, multiprocessors());
        const float sum = gpu_sum(GetParam(), values, blocks);
        // Erreur d'arrondi bornée par la somme des |x| fois un petit multiple de l'epsilon.
        EXPECT_NEAR(sum, expected, 1e-5 * magnitude + 1e-6) << "n = " << n;
    }
}
// --8<-- [end:garanties]

TEST_P(Reduction, NegativeValuesOnly) {
    std::vector<int> values(4097);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = -static_cast<int>(i % 13) - 1;
    std::int64_t expected = 0;
    for (int v : values) expected += v;
    EXPECT_EQ(gpu_sum(GetParam(), values, 3), expected);
}

TEST_P(Reduction, AnyGridGivesTheSameSum) {
    // Un seul bloc (chaque thread boucle), quelques blocs, un bloc par tranche de 256.
    const std::vector<int> values = signed_ints(100003);
    std::int64_t expected = 0;
    for (int v : values) expected += v;
    for (unsigned blocks : {1u, 7u, 391u})
        EXPECT_EQ(gpu_sum(GetParam(), values, blocks), expected) << blocks << " blocs";
    // 64 blocs pour 1000 éléments : la plupart des threads n'ont rien à lire.
    const std::vector<int> few = signed_ints(1000);
    std::int64_t few_expected = 0;
    for (int v : few) few_expected += v;
    EXPECT_EQ(gpu_sum(GetParam(), few, 64), few_expected);
}

TEST_P(Reduction, FloatResultIsDeterministic) {
    // Deux passes sans atomique : même ordre des additions, même résultat au bit près.
    const std::vector<float> values = signed_floats(1 << 18);
    const unsigned blocks = wp::reduction_blocks(values.size(), multiprocessors());
    EXPECT_EQ(gpu_sum(GetParam(), values, blocks), gpu_sum(GetParam(), values, blocks));
}

INSTANTIATE_TEST_SUITE_P(Variants, Reduction,
                         testing::Values(Variant::tree, Variant::shuffle, Variant::cub),
                         [](const testing::TestParamInfo<Variant>& param_info) {
                             return std::string(param_info.param == Variant::tree      ? "Arbre"
                                                : param_info.param == Variant::shuffle ? "Shuffle"
                                                                                 : "Cub");
                         });

TEST(ReductionLaunch, RejectsZeroBlocks) {
    DeviceBuffer<int> buffer(4);
    EXPECT_THROW(wp::launch_reduce_sum(Variant::shuffle, buffer.data(), 4, buffer.data(),
                                       buffer.data(), 0),
                 std::invalid_argument);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(ReductionLaunch, GridFillsTheMachineAtMost) {
    EXPECT_EQ(wp::reduction_blocks(0, 132), 1u);
    EXPECT_EQ(wp::reduction_blocks(1000, 132), 4u);
    EXPECT_EQ(wp::reduction_blocks(std::size_t{1} << 30, 132), 132u * 8u);
}

// Filtrage : même multiensemble de valeurs que sur le CPU, compteur exact.
void expect_compaction(const std::vector<int>& values, unsigned blocks) {
    std::vector<int> expected;
    for (int v : values)
        if (v > 0) expected.push_back(v);
    DeviceBuffer<int> in{std::span<const int>(values)};
    DeviceBuffer<int> out(values.size() + 1);
    DeviceBuffer<unsigned> count(1);
    wp::launch_compact_positive(in.data(), values.size(), out.data(), count.data(), blocks);
    NOYAUX_CHECK_LAUNCH();
    const unsigned kept = count.download()[0];
    ASSERT_EQ(kept, expected.size()) << values.size() << " éléments";
    std::vector<int> result = out.download();
    result.resize(kept);
    std::sort(result.begin(), result.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(result, expected);
}

TEST(WarpVotes, CompactsPositiveValues) {
    for (std::size_t n : kSizes) expect_compaction(signed_ints(n), 13);
}

TEST(WarpVotes, SkipsWarpsWithoutPositiveValues) {
    // Des paquets de 32 entièrement négatifs, d'autres avec une seule valeur positive.
    std::vector<int> values(32 * 40, -1);
    for (std::size_t w = 0; w < 40; w += 3) values[w * 32 + (w % 32)] = static_cast<int>(w) + 1;
    expect_compaction(values, 2);
    expect_compaction(std::vector<int>(1000, -7), 4);
}

TEST(WarpVotes, KeepsOrderInsideAWarp) {
    std::vector<int> values(32);
    for (int i = 0; i < 32; ++i) values[static_cast<std::size_t>(i)] = i % 3 == 0 ? i + 1 : -i;
    DeviceBuffer<int> in{std::span<const int>(values)};
    DeviceBuffer<int> out(32);
    DeviceBuffer<unsigned> count(1);
    wp::launch_compact_positive(in.data(), values.size(), out.data(), count.data(), 1);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<int> result = out.download();
    ASSERT_EQ(count.download()[0], 11u);
    for (unsigned k = 0; k < 11; ++k) EXPECT_EQ(result[k], static_cast<int>(3 * k + 1)) << k;
}

}  // namespace
