/**
 * @file
 * @brief Programme : SAXPY grid-stride sur le GPU, vérifié contre la référence CPU.
 *
 * Usage : boucle-grid-stride [--taille N] [--blocs B] [--threads T] [--alpha A]
 */
#include "boucle-grid-stride.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"
#include "common/reference.hpp"

#include <cinttypes>
#include <cstdio>
#include <vector>

namespace {

using noyaux::ressources::LaunchConfig;

/** @brief Paramètres lus sur la ligne de commande. */
struct Options {
    std::int64_t size = std::int64_t{1} << 24;
    std::int64_t blocks = 0;  // 0 : grille par défaut, calculée d'après le GPU
    std::int64_t threads = 256;
    double alpha = 2.0;
};

/** @brief Données d'entrée déterministes et variées (signes et exposants différents). */
std::vector<float> make_input(std::size_t n, float scale, float offset) {
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i)
        values[i] = scale * static_cast<float>(static_cast<int>(i % 2003) - 1001) + offset;
    return values;
}

int run(int argc, char** argv) {
    Options options;
    noyaux::cli::Parser parser("boucle-grid-stride",
                               "SAXPY (y ← a·x + y) par une boucle grid-stride, vérifié sur le CPU.");
    parser.add_integer("--taille", &options.size, 0, std::int64_t{1} << 30, "nombre d'éléments");
    parser.add_integer("--blocs", &options.blocks, 0, std::int64_t{1} << 31,
                       "blocs de la grille (0 : 32 par multiprocesseur)");
    parser.add_integer("--threads", &options.threads, 1, 1024, "threads par bloc");
    parser.add_real("--alpha", &options.alpha, -1e6, 1e6, "coefficient a");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(noyaux::ressources::saxpy_grid_stride, "saxpy_grid_stride");

    const auto n = static_cast<std::size_t>(options.size);
    const auto a = static_cast<float>(options.alpha);
    LaunchConfig config = noyaux::ressources::default_launch_config(device.multiProcessorCount);
    if (options.blocks > 0) config.blocks = static_cast<unsigned>(options.blocks);
    config.threads_per_block = static_cast<unsigned>(options.threads);

    const std::vector<float> x = make_input(n, 0.001f, 0.25f);
    const std::vector<float> y = make_input(n, -0.002f, 1.0f);
    noyaux::DeviceBuffer<float> x_device{std::span<const float>(x)};
    noyaux::DeviceBuffer<float> y_device{std::span<const float>(y)};

    noyaux::ressources::launch_saxpy_grid_stride(n, a, x_device.data(), y_device.data(), config);
    NOYAUX_CHECK_LAUNCH();

    const std::vector<float> result = y_device.download();
    const std::vector<float> expected = noyaux::reference::saxpy(a, x, y);
    const std::uint64_t threads = std::uint64_t{config.blocks} * config.threads_per_block;
    std::printf("GPU : %s (%d multiprocesseurs)\n", device.name, device.multiProcessorCount);
    std::printf("Grille : %u blocs × %u threads = %" PRIu64 " threads pour %zu éléments\n",
                config.blocks, config.threads_per_block, threads, n);
    for (std::size_t i = 0; i < n; ++i) {
        if (result[i] != expected[i]) {
            std::printf("ÉCHEC : y[%zu] = %.9g, attendu %.9g\n", i, result[i], expected[i]);
            return noyaux::kExitFailure;
        }
    }
    std::printf("Résultat identique, au bit près, à la référence CPU (%zu éléments).\n", n);
    return noyaux::kExitSuccess;
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("boucle-grid-stride", [&] { return run(argc, argv); });
}
