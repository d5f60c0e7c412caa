/**
 * @file
 * @brief Programme : exécute une fois chaque microbenchmark et vérifie son résultat
 *        (copie exacte, cycle de poursuite parcouru, forme close des FMA). Les temps
 *        se mesurent avec microbenchmarks-bench, pas ici.
 *
 * Usage : microbenchmarks [--octets N] [--pas P] [--iterations I]
 */
#include "microbenchmarks.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

namespace {

namespace mb = noyaux::ressources::microbench;

/** @brief Paramètres lus sur la ligne de commande. */
struct Options {
    std::int64_t bytes = std::int64_t{1} << 20;
    std::int64_t steps = std::int64_t{1} << 13;  // un tour complet de 1 Mio, rapide sous compute-sanitizer
    std::int64_t iterations = 1000;
};

int run(int argc, char** argv) {
    Options options;
    noyaux::cli::Parser parser(
        "microbenchmarks",
        "Copie en flux, poursuite de pointeurs et FMA FP32, exécutées une fois et vérifiées.");
    parser.add_integer("--octets", &options.bytes, 256, std::int64_t{1} << 30,
                       "taille des tableaux (multiple de 128)");
    parser.add_integer("--pas", &options.steps, 0, std::int64_t{1} << 32,
                       "pas de la poursuite de pointeurs");
    parser.add_integer("--iterations", &options.iterations, 1, 1 << 20, "FMA par chaîne");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;
    if (options.bytes % 128 != 0)
        throw noyaux::cli::UsageError("--octets : " + std::to_string(options.bytes) +
                                      " n'est pas un multiple de 128 (une case par ligne de 128 octets)");

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(mb::fma_throughput, "fma_throughput");
    std::printf("GPU : %s (%d multiprocesseurs)\n", device.name, device.multiProcessorCount);
    const auto bytes = static_cast<std::size_t>(options.bytes);

    // Copie en flux.
    std::vector<unsigned> source = mb::make_chase_array(bytes, 1);  // un contenu quelconque
    noyaux::DeviceBuffer<unsigned> source_device{std::span<const unsigned>(source)};
    noyaux::DeviceBuffer<unsigned> copy_device(source.size());
    mb::launch_stream_copy(source_device.data(), copy_device.data(), bytes,
                           mb::stream_config(device.multiProcessorCount));
    NOYAUX_CHECK_LAUNCH();
    if (copy_device.download() != source) {
        std::printf("ÉCHEC : la copie en flux diffère de la source\n");
        return noyaux::kExitFailure;
    }
    std::printf("Copie en flux : %zu octets copiés à l'identique.\n", bytes);

    // Poursuite de pointeurs : le GPU doit s'arrêter là où s'arrête le parcours sur l'hôte.
    const auto steps = static_cast<std::uint64_t>(options.steps);
    noyaux::DeviceBuffer<mb::ChaseResult> chase_device(1);
    mb::launch_pointer_chase(source_device.data(), 0, steps, nullptr, chase_device.data());
    NOYAUX_CHECK_LAUNCH();
    unsigned expected = 0;
    for (std::uint64_t s = 0; s < steps; ++s) expected = source[expected];
    const mb::ChaseResult chase = chase_device.download()[0];
    if (chase.last != expected) {
        std::printf("ÉCHEC : poursuite arrêtée à %u, attendu %u\n", chase.last, expected);
        return noyaux::kExitFailure;
    }
    std::printf("Poursuite de pointeurs : %" PRIu64 " pas sur %zu lignes, arrivée à l'indice %u "
                "comme sur l'hôte.\n", steps, bytes / 128, chase.last);

    // FMA : a = 1, b = 1, la forme close est x₀ + n, exacte en float.
    const int iterations = static_cast<int>(options.iterations);
    constexpr unsigned kThreads = 256;
    const unsigned blocks = 2u * static_cast<unsigned>(device.multiProcessorCount);
    noyaux::DeviceBuffer<float> fma_device(std::size_t{blocks} * kThreads);
    mb::launch_fma_throughput(fma_device.data(), blocks, kThreads, iterations, 1.0f, 1.0f);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> sums = fma_device.download();
    for (unsigned t = 0; t < sums.size(); ++t) {
        const auto want = static_cast<float>(mb::fma_expected(t, iterations, 1.0, 1.0));
        if (sums[t] != want) {
            std::printf("ÉCHEC : FMA du thread %u = %.9g, attendu %.9g\n", t, sums[t], want);
            return noyaux::kExitFailure;
        }
    }
    std::printf("FMA : %zu threads × %d chaînes × %d itérations, forme close vérifiée.\n",
                sums.size(), mb::kFmaChains, iterations);
    return noyaux::kExitSuccess;
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("microbenchmarks", [&] { return run(argc, argv); });
}
