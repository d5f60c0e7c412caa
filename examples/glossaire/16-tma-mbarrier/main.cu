/**
 * @file
 * @brief Programme : une matrice découpée en tuiles, chacune copiée en mémoire partagée par la
 *        TMA et attendue sur un mbarrier, plus une tuile qui déborde de la matrice (zéros) ;
 *        chaque tuile vérifiée sur le CPU.
 *
 * Usage : tma-mbarrier [--lignes R] [--colonnes C] [--pas-octets P]
 */
#include "tma-mbarrier.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace gt = noyaux::glossaire::tma;

int run(int argc, char** argv) {
    std::int64_t rows = 100;
    std::int64_t cols = 70;
    std::int64_t pitch = 0;  // 0 : la ligne arrondie au multiple de 16 octets suivant
    noyaux::cli::Parser parser("tma-mbarrier",
                               "Des tuiles copiées par la TMA en mémoire partagée, attendues sur un mbarrier.");
    parser.add_integer("--lignes", &rows, 1, 1 << 16, "lignes de la matrice");
    parser.add_integer("--colonnes", &cols, 1, 1 << 16, "colonnes de la matrice");
    parser.add_integer("--pas-octets", &pitch, 0, std::int64_t{1} << 20, "octets d'une ligne à la suivante (0 : minimal)");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;
    const auto row_bytes = static_cast<std::size_t>(cols) * sizeof(float);
    const gt::TileMapSpec spec{static_cast<std::size_t>(rows), static_cast<std::size_t>(cols),
                               pitch > 0 ? static_cast<std::size_t>(pitch) : (row_bytes + 15) / 16 * 16, gt::kTileRows,
                               gt::kTileCols};
    try {
        gt::validate_tile_map(spec);  // avant tout appel CUDA : refusé même sans GPU
    } catch (const std::invalid_argument& e) {
        throw noyaux::cli::UsageError(std::string("--pas-octets : ") + e.what());
    }

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_architecture(gt::load_tiles, "load_tiles", 90, "la TMA");

    // Matrice : l'élément (r, c) vaut r·1000 + c ; le bourrage de fin de ligne vaut −1.
    const std::size_t pitch_elements = spec.row_pitch_bytes / sizeof(float);
    std::vector<float> matrix(spec.rows * pitch_elements, -1.0f);
    for (std::size_t r = 0; r < spec.rows; ++r)
        for (std::size_t c = 0; c < spec.cols; ++c) matrix[r * pitch_elements + c] = static_cast<float>(r * 1000 + c);
    noyaux::DeviceBuffer<float> d_matrix(matrix);
    const CUtensorMap map = gt::encode_tile_map(d_matrix.data(), spec);

    // Toutes les tuiles qui couvrent la matrice, plus une qui déborde en haut à gauche.
    std::vector<int> origins;
    for (std::size_t r = 0; r < spec.rows; r += gt::kTileRows)
        for (std::size_t c = 0; c < spec.cols; c += gt::kTileCols) {
            origins.push_back(static_cast<int>(r));
            origins.push_back(static_cast<int>(c));
        }
    origins.push_back(-5);
    origins.push_back(-7);
    const auto count = static_cast<unsigned>(origins.size() / 2);
    noyaux::DeviceBuffer<int> d_origins(origins);
    noyaux::DeviceBuffer<float> d_tiles(std::size_t{count} * gt::kTileRows * gt::kTileCols);
    gt::launch_load_tiles(map, d_origins.data(), d_tiles.data(), count);
    NOYAUX_CHECK_LAUNCH();

    const std::vector<float> tiles = d_tiles.download();
    unsigned wrong = 0;
    const std::size_t tile_elements = std::size_t{gt::kTileRows} * gt::kTileCols;
    for (unsigned t = 0; t < count; ++t) {
        const std::vector<float> expected = gt::expected_tile(matrix, spec, origins[2 * t], origins[2 * t + 1]);
        wrong += !std::equal(expected.begin(), expected.end(), tiles.begin() + static_cast<std::ptrdiff_t>(t * tile_elements));
    }
    std::printf("GPU : %s\n", device.name);
    std::printf("Matrice %zu × %zu (pas de %zu octets), tuiles de %u × %u (%u octets attendus par le mbarrier)\n",
                spec.rows, spec.cols, spec.row_pitch_bytes, gt::kTileRows, gt::kTileCols, gt::kTileBytes);
    std::printf("%u tuiles copiées par la TMA, dont une qui déborde de la matrice : %s\n", count,
                wrong == 0 ? "toutes conformes (zéros hors de la matrice)" : "FAUX");
    return noyaux::conclude(wrong == 0);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("tma-mbarrier", [&] { return run(argc, argv); });
}
