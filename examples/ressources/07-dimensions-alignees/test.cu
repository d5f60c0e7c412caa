/**
 * @file
 * @brief Tests de gemv_tiles_128 : formes alignées justes au bit près, formes et adresses
 *        mal alignées refusées avant le lancement avec le message exact, et preuve que le
 *        noyau brut, sans garde-fou, rend un résultat faux sur K = 2880.
 */
#include "dimensions-alignees.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

using noyaux::DeviceBuffer;
namespace ex = noyaux::ressources;

// Petits entiers : toutes les sommes sont exactes en float, quel que soit leur ordre.
std::vector<float> matrix(int rows, int k) {
    std::vector<float> w(static_cast<std::size_t>(rows) * k);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(int(i * 7 % 5) - 2);
    return w;
}
std::vector<float> vector_x(int k) {
    std::vector<float> x(k);
    for (int i = 0; i < k; ++i) x[i] = static_cast<float>(i * 3 % 7 - 3);
    return x;
}
// Référence CPU sur les @p columns premières colonnes.
std::vector<float> reference(const std::vector<float>& w, const std::vector<float>& x, int rows,
                             int k, int columns) {
    std::vector<float> y(rows, 0.0f);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c) y[r] += w[std::size_t(r) * k + c] * x[c];
    return y;
}

// Message exact levé par launch_gemv, qui ne doit rien avoir lancé.
std::string rejection(const float* w, const float* x, float* y, int rows, int k) {
    try {
        ex::launch_gemv(w, x, y, rows, k);
    } catch (const std::invalid_argument& error) {
        EXPECT_EQ(cudaGetLastError(), cudaSuccess);
        return error.what();
    }
    return "aucun refus";
}

struct Problem {
    std::vector<float> w, x;
    DeviceBuffer<float> w_device, x_device, y_device;
    Problem(int rows, int k)
        : w(matrix(rows, k)), x(vector_x(k)), w_device{std::span<const float>(w)},
          x_device{std::span<const float>(x)}, y_device(std::size_t(rows) + 4) {}
};

}  // namespace

TEST(DimensionsAlignees, AlignedShapesMatchCpu) {
    for (auto [rows, k] : {std::pair{8, 128}, std::pair{64, 2944}, std::pair{24, 4096}}) {
        Problem p(rows, k);
        ex::launch_gemv(p.w_device.data(), p.x_device.data(), p.y_device.data(), rows, k);
        NOYAUX_CHECK_LAUNCH();
        const std::vector<float> y = p.y_device.download();
        const std::vector<float> expected = reference(p.w, p.x, rows, k, k);
        for (int r = 0; r < rows; ++r) ASSERT_EQ(y[r], expected[r]) << "N=" << rows << " K=" << k << " ligne " << r;
    }
}

TEST(DimensionsAlignees, EmptyMatrixLaunchesNothing) {
    DeviceBuffer<float> buffer(4);
    EXPECT_NO_THROW(ex::launch_gemv(buffer.data(), buffer.data(), buffer.data(), 0, 128));
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

// --8<-- [start:garanties]
TEST(DimensionsAlignees, MisalignedShapesAreRejectedWithTheExactMessage) {
    Problem p(64, 2880 + 64);
    float* w = p.w_device.data();
    float* x = p.x_device.data();
    float* y = p.y_device.data();
    EXPECT_EQ(rejection(w, x, y, 64, 2880),
              "K = 2880 n'est pas un multiple de 128 : le noyau lit des tuiles de 128 colonnes "
              "et ignorerait les 64 dernières colonnes de chaque ligne");
    EXPECT_EQ(rejection(w, x, y, 60, 128),
              "N = 60 n'est pas un multiple de 8 : chaque bloc calcule 8 lignes et lirait "
              "au-delà de la matrice");
    EXPECT_EQ(rejection(w, x, y, -8, 128), "dimensions négatives : N = -8, K = 128");
}

TEST(DimensionsAlignees, MisalignedPointersAreRejectedWithTheExactMessage) {
    Problem p(8, 256);
    float* w = p.w_device.data();
    float* x = p.x_device.data();
    float* y = p.y_device.data();
    const std::string suffix = " n'est pas aligné sur 16 octets : les chargements de 128 bits (float4) l'exigent";
    EXPECT_EQ(rejection(w + 1, x, y, 8, 128), "W" + suffix);
    EXPECT_EQ(rejection(w, x + 2, y, 8, 128), "x" + suffix);
    EXPECT_EQ(rejection(w, x, y + 3, 8, 128), "y" + suffix);
}

// Le point de l'exemple : sans le garde-fou, K = 2880 (la dimension de l'issue vLLM #38022)
// ne provoque aucune erreur, seulement un résultat faux.
TEST(DimensionsAlignees, WithoutTheGuardTheKernelSilentlyComputesAWrongResult) {
    constexpr int kRows = 16;
    constexpr int kK = 2880;  // 22 tuiles de 128 = 2816 colonnes ; 64 oubliées
    Problem p(kRows, kK);
    ex::launch_gemv_unchecked(p.w_device.data(), p.x_device.data(), p.y_device.data(), kRows, kK);
    NOYAUX_CHECK_LAUNCH();  // aucune erreur CUDA : le défaut est silencieux
    const std::vector<float> y = p.y_device.download();
    const std::vector<float> expected = reference(p.w, p.x, kRows, kK, kK);
    const std::vector<float> truncated = reference(p.w, p.x, kRows, kK, 2816);
    int wrong = 0;
    for (int r = 0; r < kRows; ++r) {
        EXPECT_EQ(y[r], truncated[r]) << "ligne " << r << " : somme des 2816 premières colonnes";
        wrong += y[r] != expected[r];
    }
    EXPECT_GT(wrong, kRows / 2) << "le noyau brut devait se tromper sur la plupart des lignes";
}
// --8<-- [end:garanties]
