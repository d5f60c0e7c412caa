/**
 * @file
 * @brief Programme : la même chaîne d'étapes dépendantes exécutée de cinq façons, chacune
 *        vérifiée au bit près contre la référence CPU, avec sa durée par étape.
 *
 * Usage : lancements [--etapes N] [--taille T] [--repetitions R]
 */
#include "lancements.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/event_timer.cuh"
#include "common/program.cuh"
#include "common/stream.cuh"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

namespace ch = noyaux::megakernels::chain;

constexpr ch::Variant kVariants[] = {ch::Variant::Stream, ch::Variant::Graph, ch::Variant::Pdl,
                                     ch::Variant::PersistentCounter, ch::Variant::PersistentGridSync};

/** @brief Durée moyenne d'une étape, en µs, sur @p repetitions exécutions de la chaîne. */
double microseconds_per_step(ch::ChainRunner& runner, ch::Variant variant, std::int64_t repetitions,
                             cudaStream_t stream) {
    noyaux::EventTimer timer;
    if (variant == ch::Variant::Graph) {  // capturé une fois, relancé R fois
        const noyaux::CapturedGraph graph(stream, [&](cudaStream_t s) { runner.launch_stream(s); });
        timer.start(stream);
        for (std::int64_t r = 0; r < repetitions; ++r) graph.launch(stream);
        return static_cast<double>(timer.stop_ms(stream)) * 1e3 / static_cast<double>(repetitions * runner.steps());
    }
    timer.start(stream);
    for (std::int64_t r = 0; r < repetitions; ++r) runner.launch(variant, stream);
    return static_cast<double>(timer.stop_ms(stream)) * 1e3 / static_cast<double>(repetitions * runner.steps());
}

int run(int argc, char** argv) {
    std::int64_t steps = 200;
    std::int64_t size = 4096;
    std::int64_t repetitions = 20;
    noyaux::cli::Parser parser("lancements",
                               "Une chaîne d'étapes dépendantes : flux, graphe, PDL, noyaux persistants.");
    parser.add_integer("--etapes", &steps, 1, ch::kMaxSteps, "étapes de la chaîne");
    parser.add_integer("--taille", &size, 1, static_cast<std::int64_t>(ch::kMaxElements), "éléments du tableau");
    parser.add_integer("--repetitions", &repetitions, 1, 1000, "chaînes chronométrées de chaque façon");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(ch::chain_step, "chain_step");
    const auto n = static_cast<std::size_t>(size);
    const std::vector<float> input = ch::chain_input(n);
    const std::vector<float> expected = ch::chain_reference(input, static_cast<int>(steps));
    std::printf("GPU : %s (%d multiprocesseurs)\n", device.name, device.multiProcessorCount);
    std::printf("Chaîne de %lld étapes sur %zu éléments\n", static_cast<long long>(steps), n);

    noyaux::Stream stream;
    ch::ChainRunner runner(n, static_cast<int>(steps));
    bool ok = true;
    for (ch::Variant variant : kVariants) {
        if (variant == ch::Variant::Pdl) {
            try {
                ch::require_pdl();
            } catch (const noyaux::UnsupportedArchitectureError& error) {
                std::printf("%s : non exécuté : %s\n", ch::variant_name(variant), error.what());
                continue;
            }
        }
        runner.upload(input);
        runner.launch(variant, stream.get());
        NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        const bool same = runner.download() == expected;
        ok &= same;
        const double us = microseconds_per_step(runner, variant, repetitions, stream.get());
        std::printf("%s : %s, %.2f µs par étape\n", ch::variant_name(variant),
                    same ? "identique à la référence" : "FAUX", us);
    }
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("lancements", [&] { return run(argc, argv); });
}
