/**
 * @file
 * @brief Programme : une chaîne de FMA contre plusieurs chaînes indépendantes, au même total
 *        de FMA, sur une grille d'un bloc de quatre warps par SM ; résultats vérifiés.
 *
 * Usage : ilp [--fma K] [--chaines C]
 */
#include "ilp.cuh"

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

namespace ilp = noyaux::glossaire::ilp;

int run(int argc, char** argv) {
    std::int64_t fma_count = 4096;
    std::int64_t chains = 4;
    noyaux::cli::Parser parser("ilp", "Une chaîne de FMA dépendantes contre plusieurs chaînes indépendantes.");
    parser.add_integer("--fma", &fma_count, 0, 1 << 24, "FMA par thread");
    parser.add_integer("--chaines", &chains, 1, 8, "chaînes indépendantes de la seconde variante (1, 2, 4 ou 8)");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;
    if (chains != 1 && chains != 2 && chains != 4 && chains != 8)
        throw noyaux::cli::UsageError("--chaines : « " + std::to_string(chains) + " » n'est pas 1, 2, 4 ou 8");
    if (fma_count % chains != 0)
        throw noyaux::cli::UsageError("--fma : « " + std::to_string(fma_count) + " » n'est pas un multiple de --chaines (" +
                                      std::to_string(chains) + ")");

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(ilp::fma_chains<1>, "fma_chains");
    // Un bloc de 4 warps par SM : un warp par ordonnanceur sur les SM à quatre sous-partitions.
    const auto blocks = static_cast<unsigned>(device.multiProcessorCount);
    const unsigned threads = 128;
    std::printf("GPU : %s ; %u blocs de %u threads, %lld FMA par thread\n", device.name, blocks, threads,
                static_cast<long long>(fma_count));
    bool ok = true;
    for (int c : {1, static_cast<int>(chains)}) {
        noyaux::DeviceBuffer<float> out(std::size_t{blocks} * threads);
        ilp::launch_fma_chains(c, out.data(), static_cast<int>(fma_count), blocks, threads);
        NOYAUX_CHECK_LAUNCH();
        const std::vector<float> result = out.download();
        std::size_t wrong = 0;
        for (unsigned t = 0; t < result.size(); ++t)
            wrong += result[t] != ilp::fma_chains_reference(c, t, static_cast<int>(fma_count));
        std::printf("%d chaîne%s de %lld FMA : %s\n", c, c > 1 ? "s" : "", static_cast<long long>(fma_count / c),
                    wrong == 0 ? "identique à la référence" : "FAUX");
        ok = ok && wrong == 0;
    }
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("ilp", [&] { return run(argc, argv); });
}
