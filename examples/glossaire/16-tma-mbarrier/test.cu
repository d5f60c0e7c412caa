/**
 * @file
 * @brief Tests de l'exemple 16, sur un GPU sm_90 ou plus et sur l'émulateur : les règles de la
 *        tensor map (pas multiple de 16 octets, boîte, dimensions, alignement), la tuile
 *        attendue, zéros hors de la matrice, et les tuiles copiées par la TMA.
 */
#include "tuile.hpp"
#include "tma-mbarrier.cuh"

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace gt = noyaux::glossaire::tma;

gt::TileMapSpec spec(std::size_t rows, std::size_t cols, std::size_t pitch_bytes) {
    return {rows, cols, pitch_bytes, gt::kTileRows, gt::kTileCols};
}

std::string rejection(const gt::TileMapSpec& s) {
    try {
        gt::validate_tile_map(s);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(TmaHost, PitchMustBeAMultipleOf16Bytes) {
    EXPECT_EQ(rejection(spec(10, 70, 284)),
              "pas entre lignes de 284 octets : la TMA exige un multiple de 16 octets (dimension principale "
              "multiple de 4 éléments)");
    EXPECT_EQ(rejection(spec(10, 70, 288)), "");
    EXPECT_NE(rejection(spec(10, 70, 272)).find("plus court qu'une ligne de 280 octets"), std::string::npos);
    EXPECT_NE(rejection(spec(10, 4, std::size_t{1} << 40)).find("moins de 2^40"), std::string::npos);
}

TEST(TmaHost, BoxAndDimensionsHaveLimits) {
    EXPECT_NE(rejection({10, 64, 256, 16, 5}).find("ligne de tuile de 20 octets"), std::string::npos);
    EXPECT_NE(rejection({10, 64, 256, 300, 32}).find("entre 1 et 256"), std::string::npos);
    EXPECT_NE(rejection({10, 64, 256, 0, 32}).find("entre 1 et 256"), std::string::npos);
    EXPECT_NE(rejection(spec(0, 64, 256)).find("entre 1 et 2^32"), std::string::npos);
    EXPECT_THROW(gt::validate_tile_map(spec(8, 32, 128), 0x1008), std::invalid_argument);  // adresse
    EXPECT_NO_THROW(gt::validate_tile_map(spec(8, 32, 128), 0x1010));
}

TEST(TmaHost, ExpectedTileIsZeroOutsideTheMatrix) {
    // Matrice 3 × 2, pas de 4 flottants (16 octets) ; tuile 2 × 4 d'origine (2, -1).
    const std::vector<float> m = {1, 2, -1, -1, 3, 4, -1, -1, 5, 6, -1, -1};
    const gt::TileMapSpec s{3, 2, 16, 2, 4};
    EXPECT_EQ(gt::expected_tile(m, s, 2, -1), (std::vector<float>{0, 5, 6, 0, 0, 0, 0, 0}));
    EXPECT_EQ(gt::expected_tile(m, s, 0, 0), (std::vector<float>{1, 2, 0, 0, 3, 4, 0, 0}));  // bourrage exclu
}

namespace {

// Le code sm_80 du noyau n'est qu'un piège : il faut le code venu de sm_90 (simt annonce le
// sien comme tel).
bool has_tma() { return noyaux::kernel_ptx_version(gt::load_tiles, "load_tiles") >= 90; }

}  // namespace

TEST(TmaDevice, TilesArriveWholeAndZeroFilledAtTheEdges) {
    if (!has_tma()) GTEST_SKIP() << "TMA : sm_90 ou plus";
    const gt::TileMapSpec s = spec(50, 45, 192);  // 45 colonnes, pas de 48 flottants
    std::vector<float> matrix(50 * 48, -1.0f);
    for (std::size_t r = 0; r < 50; ++r)
        for (std::size_t c = 0; c < 45; ++c) matrix[r * 48 + c] = static_cast<float>(r * 100 + c);
    noyaux::DeviceBuffer<float> d_matrix(matrix);
    const auto map = gt::encode_tile_map(d_matrix.data(), s);
    const std::vector<int> origins = {0, 0, 16, 32, 40, 20, -3, -9, 49, 44};
    noyaux::DeviceBuffer<int> d_origins(origins);
    const std::size_t tile = std::size_t{gt::kTileRows} * gt::kTileCols;
    noyaux::DeviceBuffer<float> d_tiles(5 * tile);
    gt::launch_load_tiles(map, d_origins.data(), d_tiles.data(), 5);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> tiles = d_tiles.download();
    for (unsigned t = 0; t < 5; ++t)
        EXPECT_EQ(std::vector<float>(tiles.begin() + t * tile, tiles.begin() + (t + 1) * tile),
                  gt::expected_tile(matrix, s, origins[2 * t], origins[2 * t + 1]))
            << "tuile d'origine (" << origins[2 * t] << ", " << origins[2 * t + 1] << ")";
}

TEST(TmaDevice, EncoderRejectsBadMapsBeforeTheDriver) {
    noyaux::DeviceBuffer<float> d_matrix(1024);
    EXPECT_THROW(gt::encode_tile_map(d_matrix.data() + 1, spec(8, 32, 128)), std::invalid_argument);  // 4 octets
    EXPECT_THROW(gt::encode_tile_map(d_matrix.data(), spec(8, 30, 120)), std::invalid_argument);
    if (!has_tma()) GTEST_SKIP() << "tensor map : sm_90 ou plus";
    const auto map = gt::encode_tile_map(d_matrix.data(), spec(8, 32, 128));
    EXPECT_THROW(gt::launch_load_tiles(map, nullptr, nullptr, 0), std::invalid_argument);
}
