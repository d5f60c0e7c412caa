/**
 * @file
 * @brief Programme : sommes par tuiles (16 et 32 threads, tuile dynamique) puis centrage
 *        d'un tableau sur sa moyenne en un lancement coopératif, vérifiés sur le CPU.
 *
 * Usage : groupes-cooperatifs [--taille N] [--tuile T]
 */
#include "groupes-cooperatifs.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

namespace co = noyaux::ressources::cooperative;
using noyaux::DeviceBuffer;

/** @brief Paramètres lus sur la ligne de commande. */
struct Options {
    std::int64_t size = std::int64_t{1} << 22;
    std::int64_t tile = 8;
};

/** @brief Sommes CPU par groupes consécutifs de @p group éléments. */
std::vector<int> chunk_sums(const std::vector<int>& values, std::size_t group) {
    std::vector<int> sums((values.size() + group - 1) / group, 0);
    for (std::size_t i = 0; i < values.size(); ++i) sums[i / group] += values[i];
    return sums;
}

/** @brief Affiche le verdict d'une étape et le renvoie. */
bool report(const char* what, bool ok) {
    std::printf("%s : %s\n", what, ok ? "juste" : "FAUX");
    return ok;
}

int run(int argc, char** argv) {
    Options options;
    noyaux::cli::Parser parser("groupes-cooperatifs",
                               "Réductions par tuiles et synchronisation de grille (groupes coopératifs).");
    // Valeurs de -50 à 50 : la somme de 2^24 d'entre elles tient dans un int.
    parser.add_integer("--taille", &options.size, 1, std::int64_t{1} << 24, "nombre d'éléments");
    parser.add_integer("--tuile", &options.tile, 1, 32, "taille de la tuile dynamique (puissance de 2)");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;
    if ((options.tile & (options.tile - 1)) != 0)
        throw noyaux::cli::UsageError("--tuile : « " + std::to_string(options.tile) +
                                      " » n'est pas une puissance de 2 ; attendu 1, 2, 4, 8, 16 ou 32");

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(co::center_on_grid, "center_on_grid");
    const unsigned max_blocks = co::max_cooperative_blocks();  // refuse un GPU non coopératif

    const auto n = static_cast<std::size_t>(options.size);
    const auto tile = static_cast<unsigned>(options.tile);
    std::vector<int> values(n);
    std::int64_t total_expected = 0;
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = static_cast<int>((i * 7919) % 101) - 50;
        total_expected += values[i];
    }
    const DeviceBuffer<int> in{std::span<const int>(values)};
    std::printf("GPU : %s (%d multiprocesseurs), %zu éléments\n", device.name,
                device.multiProcessorCount, n);

    bool ok = true;
    DeviceBuffer<int> sums16((n + 15) / 16);
    DeviceBuffer<int> sums32((n + 31) / 32);
    co::launch_tile_sums<16>(in.data(), n, sums16.data(), false);
    co::launch_tile_sums<32>(in.data(), n, sums32.data(), false);
    NOYAUX_CHECK_LAUNCH();
    ok &= report("tuiles de 16 et 32, shfl_down", sums16.download() == chunk_sums(values, 16) &&
                                                      sums32.download() == chunk_sums(values, 32));
    co::launch_tile_sums<16>(in.data(), n, sums16.data(), true);
    co::launch_tile_sums<32>(in.data(), n, sums32.data(), true);
    NOYAUX_CHECK_LAUNCH();
    ok &= report("tuiles de 16 et 32, cg::reduce", sums16.download() == chunk_sums(values, 16) &&
                                                       sums32.download() == chunk_sums(values, 32));

    DeviceBuffer<int> tile_sums((n + tile - 1) / tile);
    DeviceBuffer<int> block_sums((n + co::kThreadsPerBlock - 1) / co::kThreadsPerBlock);
    co::launch_dynamic_tile_sums(in.data(), n, tile, tile_sums.data(), block_sums.data());
    NOYAUX_CHECK_LAUNCH();
    std::printf("tuile dynamique de %u threads\n", tile);
    ok &= report("  sommes par tuile puis par bloc", tile_sums.download() == chunk_sums(values, tile) &&
                                                         block_sums.download() ==
                                                             chunk_sums(values, co::kThreadsPerBlock));

    const unsigned blocks = co::cooperative_blocks_for(n, max_blocks);
    DeviceBuffer<int> grid_sums(blocks);
    DeviceBuffer<int> total(1);
    DeviceBuffer<float> centered(n);
    co::launch_center_on_grid(in.data(), n, grid_sums.data(), total.data(), centered.data(), blocks);
    NOYAUX_CHECK_LAUNCH();
    std::printf("grille coopérative : %u blocs (au plus %u résidents)\n", blocks, max_blocks);
    const int total_device = total.download()[0];
    const double mean = static_cast<double>(total_expected) / static_cast<double>(n);
    const std::vector<float> result = centered.download();
    bool centered_ok = true;
    for (std::size_t i = 0; i < n && centered_ok; ++i)
        centered_ok = result[i] == static_cast<float>(values[i] - mean);
    ok &= report("  somme totale après grid.sync()", total_device == total_expected);
    ok &= report("  centrage après grid.sync()", centered_ok);
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("groupes-cooperatifs", [&] { return run(argc, argv); });
}
