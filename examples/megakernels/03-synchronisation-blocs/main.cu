/**
 * @file
 * @brief Programme : producteurs et consommateurs entre blocs (relais de drapeaux, compteur),
 *        vérifiés sur le CPU ; une grille qui ne tient pas entière sur le GPU est refusée avant
 *        le lancement.
 *
 * Usage : synchronisation-blocs [--blocs B] [--lancements L]
 */
#include "synchronisation-blocs.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

namespace rl = noyaux::megakernels::relay;
namespace mk = noyaux::megakernels;

int run(int argc, char** argv) {
    std::int64_t blocks = 0;
    std::int64_t launches = 3;
    noyaux::cli::Parser parser("synchronisation-blocs",
                               "Producteurs et consommateurs entre blocs, et refus d'une grille non co-résidente.");
    parser.add_integer("--blocs", &blocks, 0, rl::kMaxBlocks, "blocs de la grille (0 : tous ceux qui tiennent à la fois)");
    parser.add_integer("--lancements", &launches, 1, 100, "lancements successifs, sans remise à zéro des drapeaux");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;
    if (blocks == 1)
        throw noyaux::cli::UsageError("--blocs : « 1 » ne suffit pas ; il faut au moins 2 blocs (un producteur, un "
                                      "consommateur)");

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(rl::relay_prefixes, "relay_prefixes");
    const int resident = rl::largest_co_resident_grid();
    const auto grid = static_cast<unsigned>(blocks == 0 ? resident : blocks);
    std::printf("GPU : %s (%d multiprocesseurs), au plus %d blocs résidents à la fois\n", device.name,
                device.multiProcessorCount, resident);
    std::printf("Grille : %u blocs de %u threads, %u éléments par bloc\n", grid, rl::kThreads, rl::kChunk);

    rl::RelayGrid relay(grid);
    const std::vector<std::uint32_t> sums = rl::chunk_sums(rl::relay_input(grid));
    const std::vector<std::uint32_t> prefixes = rl::inclusive_prefixes(sums);
    std::uint32_t produced = 0;
    for (unsigned p = 0; p < relay.producers(); ++p) produced += sums[p];
    bool ok = true;
    try {
        for (std::int64_t l = 0; l < launches; ++l) {
            relay.run_relay();
            relay.run_fan_in();
            NOYAUX_CHECK_LAUNCH();
            ok &= relay.prefixes() == prefixes;
            ok &= relay.totals() == std::vector<std::uint32_t>(relay.consumers(), produced);
        }
    } catch (const mk::CoResidencyError& error) {
        throw noyaux::cli::UsageError(std::string("--blocs : ") + error.what());
    }
    std::printf("Relais de drapeaux, %lld lancements : préfixes %s\n", static_cast<long long>(launches),
                ok ? "identiques à la référence" : "FAUX");
    std::printf("Compteur : %u producteurs, %u consommateurs ; compteur final %u (attendu %u)\n", relay.producers(),
                relay.consumers(), relay.ready(), relay.producers() * static_cast<unsigned>(launches));
    ok &= relay.ready() == relay.producers() * static_cast<unsigned>(launches);
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("synchronisation-blocs", [&] { return run(argc, argv); });
}
