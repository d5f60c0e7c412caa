/**
 * @file
 * @brief Programme : transpose une matrice sur le GPU avec le noyau choisi et vérifie le
 *        résultat contre la transposée calculée sur le CPU.
 *
 * Usage : transposition [--lignes L] [--colonnes C] [--noyau naif|partagee|partagee-decalee]
 */
#include "transposition.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace {

using noyaux::ressources::TransposeKernel;

/** @brief Au plus 2^28 éléments (1 Gio par matrice) : l'hôte garde trois copies. */
constexpr std::int64_t kMaxElements = std::int64_t{1} << 28;

/** @brief Paramètres lus sur la ligne de commande. */
struct Options {
    // Par défaut, une forme rectangulaire aux côtés non multiples de 32, assez petite pour
    // compute-sanitizer (ci/gpu-check lance chaque programme sans argument) : les tuiles du
    // bord sont ainsi contrôlées elles aussi.
    std::int64_t rows = 1000;
    std::int64_t cols = 1500;
    TransposeKernel kernel = TransposeKernel::shared_padded;
};

/** @brief Valeurs distinctes et exactes en float (jusqu'à 2^24), puis répétées. */
std::vector<float> make_matrix(std::size_t count) {
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i % (1u << 24));
    return values;
}

int run(int argc, char** argv) {
    Options options;
    noyaux::cli::Parser parser("transposition",
                               "Transposée d'une matrice de flottants sur le GPU, vérifiée sur le CPU.");
    parser.add_integer("--lignes", &options.rows, 1, noyaux::ressources::kMaxRows,
                       "lignes de la matrice lue");
    parser.add_integer("--colonnes", &options.cols, 1, kMaxElements, "colonnes de la matrice lue");
    std::vector<std::pair<std::string, TransposeKernel>> kernels;
    for (TransposeKernel kernel : noyaux::ressources::kAllKernels)
        kernels.emplace_back(noyaux::ressources::kernel_name(kernel), kernel);
    parser.add_choice("--noyau", &options.kernel, std::move(kernels), "noyau de transposition");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;
    if (options.rows * options.cols > kMaxElements)
        throw noyaux::cli::UsageError(
            "--lignes × --colonnes : " + std::to_string(options.rows) + " × " +
            std::to_string(options.cols) + " éléments, attendu au plus " +
            std::to_string(kMaxElements));

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(noyaux::ressources::kernel_entry(options.kernel),
                                 noyaux::ressources::kernel_name(options.kernel));

    const auto rows = static_cast<int>(options.rows);
    const auto cols = static_cast<int>(options.cols);
    const std::vector<float> in = make_matrix(static_cast<std::size_t>(rows) * cols);
    noyaux::DeviceBuffer<float> in_device{std::span<const float>(in)};
    noyaux::DeviceBuffer<float> out_device(in.size());

    noyaux::ressources::launch_transpose(options.kernel, in_device.data(), out_device.data(), rows,
                                         cols);
    NOYAUX_CHECK_LAUNCH();

    const std::vector<float> result = out_device.download();
    const std::vector<float> expected = noyaux::ressources::transpose_reference(
        in, static_cast<std::size_t>(rows), static_cast<std::size_t>(cols));
    const dim3 grid = noyaux::ressources::transpose_grid(rows, cols);
    std::printf("GPU : %s (%d multiprocesseurs)\n", device.name, device.multiProcessorCount);
    std::printf("Noyau %s : grille de %u × %u blocs de %d × %d threads pour %d × %d éléments\n",
                noyaux::ressources::kernel_name(options.kernel), grid.x, grid.y,
                noyaux::ressources::kTileDim, noyaux::ressources::kBlockRows, rows, cols);
    for (std::size_t i = 0; i < result.size(); ++i) {
        if (result[i] != expected[i]) {
            std::printf("ÉCHEC : out[%zu][%zu] = %.9g, attendu %.9g\n", i / rows, i % rows,
                        result[i], expected[i]);
            return noyaux::kExitFailure;
        }
    }
    std::printf("Transposée identique à la référence CPU (%d × %d → %d × %d).\n", rows, cols, cols,
                rows);
    return noyaux::kExitSuccess;
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("transposition", [&] { return run(argc, argv); });
}
