/**
 * @file
 * @brief Tests des trois noyaux de transposition contre la référence CPU : matrices carrées
 *        et rectangulaires, côtés non multiples de 32, une ligne, une colonne, matrices vides,
 *        dimensions refusées.
 */
#include "transposition.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using noyaux::DeviceBuffer;
using noyaux::ressources::TransposeKernel;
using noyaux::ressources::launch_transpose;

// Sentinelle : la sortie en est remplie avant le lancement, la zone de garde doit la garder.
constexpr float kGuardValue = -12345.0f;
constexpr std::size_t kGuardCount = 64;

// Transpose une matrice rows × cols de valeurs toutes distinctes et la compare, au bit près,
// à la référence CPU ; la zone placée après la sortie doit ressortir intacte.
void expect_transposes(TransposeKernel kernel, int rows, int cols) {
    const std::size_t count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    std::vector<float> in(count);
    for (std::size_t i = 0; i < count; ++i) in[i] = static_cast<float>(i) + 0.5f;
    const std::vector<float> guarded(count + kGuardCount, kGuardValue);

    DeviceBuffer<float> in_device{std::span<const float>(in)};
    DeviceBuffer<float> out_device{std::span<const float>(guarded)};
    launch_transpose(kernel, in_device.data(), out_device.data(), rows, cols);
    NOYAUX_CHECK_LAUNCH();

    const std::vector<float> result = out_device.download();
    const std::vector<float> expected = noyaux::ressources::transpose_reference(
        in, static_cast<std::size_t>(rows), static_cast<std::size_t>(cols));
    for (std::size_t i = 0; i < count; ++i)
        ASSERT_EQ(result[i], expected[i]) << "out[" << i / rows << "][" << i % rows << "] pour "
                                          << rows << " × " << cols;
    for (std::size_t i = count; i < count + kGuardCount; ++i)
        ASSERT_EQ(result[i], kGuardValue) << "écriture hors limites à l'indice " << i;
}

// Nom lisible de chaque instanciation : Noyaux/Transposition.SquareMultipleOfTile/naif…
std::string test_suffix(const testing::TestParamInfo<TransposeKernel>& test) {
    std::string name = noyaux::ressources::kernel_name(test.param);
    for (char& c : name)
        if (c == '-') c = '_';  // GoogleTest n'admet que lettres, chiffres et « _ »
    return name;
}

}  // namespace

// Hors de l'espace anonyme : les classes de test de GoogleTest en dérivent.
class Transposition : public testing::TestWithParam<TransposeKernel> {};

// --8<-- [start:garanties]
TEST_P(Transposition, SquareMultipleOfTile) {
    expect_transposes(GetParam(), 32, 32);
    expect_transposes(GetParam(), 64, 64);
}

TEST_P(Transposition, RectangularMultipleOfTile) {
    expect_transposes(GetParam(), 32, 96);
    expect_transposes(GetParam(), 96, 64);
}

TEST_P(Transposition, SidesNotMultipleOfTile) {
    expect_transposes(GetParam(), 33, 65);
    expect_transposes(GetParam(), 70, 31);
    expect_transposes(GetParam(), 7, 5);
    expect_transposes(GetParam(), 1, 1);
}

TEST_P(Transposition, SingleRowAndSingleColumn) {
    expect_transposes(GetParam(), 1, 100);
    expect_transposes(GetParam(), 100, 1);
}

TEST_P(Transposition, EmptyMatrixLaunchesNothing) {
    expect_transposes(GetParam(), 0, 0);
    expect_transposes(GetParam(), 0, 40);
    expect_transposes(GetParam(), 40, 0);
}
// --8<-- [end:garanties]

TEST_P(Transposition, TwiceGivesBackTheMatrix) {
    constexpr int kRows = 45;
    constexpr int kCols = 77;
    std::vector<float> in(kRows * kCols);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i) * -0.25f;
    DeviceBuffer<float> a{std::span<const float>(in)};
    DeviceBuffer<float> b(in.size());
    launch_transpose(GetParam(), a.data(), b.data(), kRows, kCols);
    NOYAUX_CUDA_CHECK(cudaMemset(a.data(), 0, a.bytes()));
    launch_transpose(GetParam(), b.data(), a.data(), kCols, kRows);
    NOYAUX_CHECK_LAUNCH();
    EXPECT_EQ(a.download(), in);
}

TEST_P(Transposition, RejectsInvalidDimensionsBeforeLaunch) {
    DeviceBuffer<float> in(16);
    DeviceBuffer<float> out(16);
    EXPECT_THROW(launch_transpose(GetParam(), in.data(), out.data(), -1, 4), std::invalid_argument);
    EXPECT_THROW(launch_transpose(GetParam(), in.data(), out.data(), 4, -1), std::invalid_argument);
    EXPECT_THROW(launch_transpose(GetParam(), in.data(), out.data(),
                                  noyaux::ressources::kMaxRows + 1, 1),
                 std::invalid_argument);
    // Rien n'a été lancé : aucune erreur de configuration en attente.
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

INSTANTIATE_TEST_SUITE_P(Noyaux, Transposition,
                         testing::ValuesIn(noyaux::ressources::kAllKernels),
                         test_suffix);

TEST(TranspositionNoms, NamesAreDistinct) {
    // Le programme choisit le noyau par son nom : deux noms égaux rendraient l'un inaccessible.
    std::set<std::string> names;
    for (TransposeKernel kernel : noyaux::ressources::kAllKernels)
        names.insert(noyaux::ressources::kernel_name(kernel));
    EXPECT_EQ(names, (std::set<std::string>{"naif", "partagee", "partagee-decalee"}));
}

TEST(TranspositionReference, TransposesSmallMatrix) {
    const std::vector<float> in{1, 2, 3, 4, 5, 6};  // 2 × 3
    EXPECT_EQ(noyaux::ressources::transpose_reference(in, 2, 3),
              (std::vector<float>{1, 4, 2, 5, 3, 6}));
    EXPECT_THROW(noyaux::ressources::transpose_reference(in, 4, 2), std::invalid_argument);
}
