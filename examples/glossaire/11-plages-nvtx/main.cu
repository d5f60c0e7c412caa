/**
 * @file
 * @brief Programme : un petit calcul découpé en phases annotées par des plages NVTX ; affiche
 *        l'arbre des plages, vérifie leur équilibre et le résultat. À lancer sous
 *        « nsys profile --trace=cuda,nvtx » pour voir les plages sur la frise.
 *
 * Usage : plages-nvtx [--taille N] [--iterations K]
 */
#include "plages-nvtx.cuh"

#include "common/cli.hpp"
#include "common/device.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

namespace nr = noyaux::glossaire::nvtx_ranges;

constexpr float kFactor = 1.5f;

int run(int argc, char** argv) {
    std::int64_t size = 1 << 20;
    std::int64_t iterations = 4;
    noyaux::cli::Parser parser("plages-nvtx",
                               "Les phases d'un programme annotées par des plages NVTX, pour Nsight Systems.");
    parser.add_integer("--taille", &size, 1, std::int64_t{1} << 26, "éléments du tableau");
    parser.add_integer("--iterations", &iterations, 1, 100, "noyaux lancés dans la phase « calcul »");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(nr::scale, "scale");
    std::printf("GPU : %s\n", device.name);
    nr::RangeJournal journal;
    const auto n = static_cast<std::size_t>(size);
    const std::vector<float> result = nr::run_phases(journal, n, static_cast<int>(iterations), kFactor);

    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
        wrong += result[i] != nr::scaled_reference(static_cast<float>(i % 100) * 0.01f, kFactor,
                                                   static_cast<int>(iterations));
    std::printf("Plages NVTX du domaine « %s » :\n%s", nr::NoyauxDomain::name, journal.tree().c_str());
    std::printf("Plages équilibrées : %s (%zu ouvertes, autant de fermées)\n", journal.balanced() ? "oui" : "NON",
                journal.entries().size());
    std::printf("Résultat : %s\n", wrong == 0 ? "identique à la référence" : "FAUX");
    return noyaux::conclude(journal.balanced() && wrong == 0);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("plages-nvtx", [&] { return run(argc, argv); });
}
