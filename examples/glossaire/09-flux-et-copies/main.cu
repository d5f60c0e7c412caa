/**
 * @file
 * @brief Programme : le même travail par lots, dans un seul flux puis dans plusieurs, avec la
 *        durée de chaque passage ; résultats vérifiés sur le CPU.
 *
 * Usage : flux-et-copies [--taille N] [--lots L] [--flux F] [--iterations K]
 */
#include "flux-et-copies.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <string>

namespace {

namespace st = noyaux::glossaire::streams;

constexpr float kA = 0.999f;
constexpr float kB = 0.001f;

int run(int argc, char** argv) {
    std::int64_t size = std::int64_t{1} << 24;
    std::int64_t chunks = 16;
    std::int64_t streams = 4;
    std::int64_t iterations = 200;
    noyaux::cli::Parser parser("flux-et-copies",
                               "Copies et calcul par lots, dans un flux puis dans plusieurs.");
    parser.add_integer("--taille", &size, 1, std::int64_t{1} << 28, "éléments traités");
    parser.add_integer("--lots", &chunks, 1, 1024, "lots (chacun : copie, noyau, copie)");
    parser.add_integer("--flux", &streams, 1, 32, "flux du second passage");
    parser.add_integer("--iterations", &iterations, 0, 100000, "FMA par élément");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;
    if (chunks > size)
        throw noyaux::cli::UsageError("--lots : « " + std::to_string(chunks) + " » dépasse --taille (" +
                                      std::to_string(size) + ") ; chaque lot compte au moins un élément");

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(st::repeated_fma, "repeated_fma");
    const auto n = static_cast<std::size_t>(size);
    st::PinnedBuffer input(n);
    st::PinnedBuffer output(n);
    for (std::size_t i = 0; i < n; ++i) input.data()[i] = static_cast<float>(i % 1000) * 0.001f;

    std::printf("GPU : %s (%d moteurs de copie)\n", device.name, device.asyncEngineCount);
    std::printf("%zu éléments en %lld lots, %lld FMA par élément\n", n, static_cast<long long>(chunks),
                static_cast<long long>(iterations));
    bool ok = true;
    for (unsigned count : {1u, static_cast<unsigned>(streams)}) {
        st::StreamSet set(count);
        set.run(input.data(), output.data(), n, static_cast<std::size_t>(chunks), kA, kB,
                static_cast<int>(iterations));  // échauffement : pool de l'allocateur, chargement du module
        const float ms = set.run(input.data(), output.data(), n, static_cast<std::size_t>(chunks), kA, kB,
                                 static_cast<int>(iterations));
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i)
            wrong += output.data()[i] != st::repeated_fma_reference(input.data()[i], kA, kB, static_cast<int>(iterations));
        std::printf("%2u flux : %.3f ms, %s\n", count, static_cast<double>(ms),
                    wrong == 0 ? "résultat identique à la référence" : "FAUX");
        ok = ok && wrong == 0;
    }
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("flux-et-copies", [&] { return run(argc, argv); });
}
