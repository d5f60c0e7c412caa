/**
 * @file
 * @brief Tests des deux variantes (indice dynamique, sélections déroulées) contre une
 *        référence CPU : même résultat au bit près, indices pris modulo 16, tailles limites.
 */
#include "pression-registres.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <vector>

namespace {

namespace rp = noyaux::glossaire::register_pressure;
using rp::Variant;

struct Input {
    std::vector<float> rows;  // kLength lignes de n valeurs
    std::vector<unsigned> pick;
};

Input make_input(std::size_t n) {
    Input input{std::vector<float>(rp::kLength * n), std::vector<unsigned>(n)};
    for (std::size_t k = 0; k < static_cast<std::size_t>(rp::kLength); ++k)
        for (std::size_t i = 0; i < n; ++i)
            input.rows[k * n + i] = static_cast<float>(static_cast<int>((k * 31 + i * 7) % 19) - 9) * 0.25f;
    for (std::size_t i = 0; i < n; ++i) input.pick[i] = static_cast<unsigned>(i * 2654435761u);
    return input;
}

// Référence : sommes préfixes dans le même ordre que le noyau, donc mêmes arrondis.
std::vector<float> reference(const Input& input, std::size_t n) {
    std::vector<float> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = rp::reference_column(input.rows.data(), input.pick[i], n, i);
    return out;
}

std::vector<float> run(Variant variant, const Input& input, std::size_t n) {
    noyaux::DeviceBuffer<float> rows{std::span<const float>(input.rows)};
    noyaux::DeviceBuffer<unsigned> pick{std::span<const unsigned>(input.pick)};
    noyaux::DeviceBuffer<float> out(n);
    rp::launch_pick(variant, rows.data(), pick.data(), out.data(), n);
    NOYAUX_CHECK_LAUNCH();
    return out.download();
}

}  // namespace

class RegisterPressure : public testing::TestWithParam<Variant> {};

TEST_P(RegisterPressure, MatchesReferenceBitForBit) {
    for (std::size_t n : {1, 255, 256, 257, 10000}) {
        const Input input = make_input(n);
        EXPECT_EQ(run(GetParam(), input, n), reference(input, n)) << "n = " << n;
    }
}

TEST_P(RegisterPressure, EveryStartingCellIsReachable) {
    // Graines 0 à 63 : chaque case du tableau est la première incrémentée d'au moins une colonne.
    const std::size_t n = 64;
    Input input = make_input(n);
    for (std::size_t j = 0; j < n; ++j) input.pick[j] = static_cast<unsigned>(j);
    EXPECT_EQ(run(GetParam(), input, n), reference(input, n));
}

TEST(RegisterPressureReference, IncrementsLandWhereTheSequenceSays) {
    // Une colonne de zéros : le résultat compte les incréments tombés sur la case finale.
    const std::vector<float> zeros(rp::kLength, 0.0f);
    for (unsigned seed : {0u, 1u, 7u, 123456789u}) {
        unsigned j = seed;
        unsigned counts[rp::kLength] = {};
        for (int step = 0; step < rp::kSteps; ++step) {
            ++counts[j % rp::kLength];
            j = rp::next_position(j);
        }
        EXPECT_EQ(rp::reference_column(zeros.data(), seed, 1, 0), static_cast<float>(counts[j % rp::kLength]))
            << "graine " << seed;
    }
}

TEST_P(RegisterPressure, EmptyInputLaunchesNothing) {
    rp::launch_pick(GetParam(), nullptr, nullptr, nullptr, 0);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

INSTANTIATE_TEST_SUITE_P(Variants, RegisterPressure, testing::Values(Variant::dynamic_index, Variant::unrolled),
                         [](const testing::TestParamInfo<Variant>& param_info) {
                             return std::string(param_info.param == Variant::dynamic_index ? "IndiceDynamique"
                                                                                     : "Deroule");
                         });
