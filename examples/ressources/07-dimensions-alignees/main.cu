/**
 * @file
 * @brief Programme : y ← W·x par tuiles de 128 colonnes, après un garde-fou qui refuse
 *        les dimensions mal alignées avant tout appel au GPU.
 *
 * Usage : dimensions-alignees [--lignes N] [--k K]
 */
#include "dimensions-alignees.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace {

namespace ex = noyaux::ressources;

/** @brief Paramètres lus sur la ligne de commande. */
struct Options {
    std::int64_t rows = 1024;
    std::int64_t k = 4096;
};

int run(int argc, char** argv) {
    Options options;
    noyaux::cli::Parser parser("dimensions-alignees",
                               "Produit matrice-vecteur par tuiles de 128 colonnes, dimensions vérifiées avant le lancement.");
    parser.add_integer("--lignes", &options.rows, 0, 1 << 16, "N, lignes de W (multiple de 8)");
    parser.add_integer("--k", &options.k, 0, 1 << 16, "K, colonnes de W (multiple de 128)");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;
    // Le garde-fou passe avant la recherche d'un GPU : une forme refusée l'est partout.
    try {
        ex::check_gemv_shape(options.rows, options.k);
    } catch (const std::invalid_argument& error) {
        throw noyaux::cli::UsageError(error.what());
    }

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(ex::gemv_tiles_128, "gemv_tiles_128");
    const int rows = static_cast<int>(options.rows);
    const int k = static_cast<int>(options.k);
    std::vector<float> w(static_cast<std::size_t>(rows) * k);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(int(i % 5) - 2);
    std::vector<float> x(k);
    for (int i = 0; i < k; ++i) x[i] = static_cast<float>(i % 7 - 3);

    noyaux::DeviceBuffer<float> w_device{std::span<const float>(w)};
    noyaux::DeviceBuffer<float> x_device{std::span<const float>(x)};
    noyaux::DeviceBuffer<float> y_device(static_cast<std::size_t>(rows));
    ex::launch_gemv(w_device.data(), x_device.data(), y_device.data(), rows, k);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> y = y_device.download();

    std::printf("GPU : %s\n", device.name);
    for (int r = 0; r < rows; ++r) {
        float expected = 0.0f;  // petits entiers : somme exacte dans n'importe quel ordre
        for (int c = 0; c < k; ++c) expected += w[std::size_t(r) * k + c] * x[c];
        if (y[r] != expected) {
            std::printf("ÉCHEC : y[%d] = %.9g, attendu %.9g\n", r, y[r], expected);
            return noyaux::kExitFailure;
        }
    }
    std::printf("N = %d, K = %d : %d tuiles de 128 par ligne, résultat identique à la référence CPU.\n",
                rows, k, k / ex::kTileK);
    return noyaux::kExitSuccess;
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("dimensions-alignees", [&] { return run(argc, argv); });
}
