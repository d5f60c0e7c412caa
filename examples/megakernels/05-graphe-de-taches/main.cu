/**
 * @file
 * @brief Programme : une étape de décodeur exécutée comme un graphe de tâches par un noyau
 *        persistant (un bloc ordonnanceur, des blocs travailleurs) ; résultat comparé à la
 *        référence CPU, chaque tâche exécutée une fois et dans l'ordre des dépendances, durée.
 *
 * Usage : graphe-de-taches [--couches L] [--dimension D] [--intermediaire H] [--tranche T]
 *         [--travailleurs W] [--repetitions R]
 */
#include "graphe-de-taches.cuh"
#include "megakernels/common/decoder_options.hpp"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/event_timer.cuh"
#include "common/program.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

namespace mk = noyaux::megakernels;
namespace tg = noyaux::megakernels::taskgraph;

int run(int argc, char** argv) {
    mk::DecoderOptions sizes;
    std::int64_t workers = 0, repetitions = 20;
    noyaux::cli::Parser parser("graphe-de-taches",
                               "Une étape de décodeur en graphe de tâches, ordonnancée dynamiquement "
                               "dans un noyau persistant.");
    mk::add_decoder_options(parser, sizes, "tâche");
    parser.add_integer("--travailleurs", &workers, 0, 4096, "blocs travailleurs (0 : un par SM, moins l'ordonnanceur)");
    parser.add_integer("--repetitions", &repetitions, 1, 10000, "étapes chronométrées");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const mk::DecoderShape shape = mk::decoder_shape(sizes);
    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(tg::task_graph_kernel, "task_graph_kernel");
    const int worker_blocks = workers > 0 ? static_cast<int>(workers) : std::max(1, device.multiProcessorCount - 1);

    std::printf("GPU : %s (%d SM)\n", device.name, device.multiProcessorCount);
    mk::print_decoder_shape(shape);
    tg::TaskGraphRunner runner(tg::build_decoder_graph(shape), shape, worker_blocks);
    std::printf("Graphe : %zu tâches, %zu événements, %zu dépendances ; 1 bloc ordonnanceur, %d travailleurs\n",
                runner.graph().tasks.size(), runner.graph().events.size(), runner.report().edges.size(), worker_blocks);

    const mk::DecoderWeights weights = mk::make_weights(shape);
    const std::vector<float> input = mk::make_input(shape.hidden);
    const std::vector<float> expected = mk::decoder_reference(weights, input);
    mk::DecoderDeviceState state(weights, input);
    cudaStream_t stream = nullptr;

    runner.launch(state, stream);
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream));
    const tg::RunTrace trace = runner.trace();
    const bool once = std::all_of(trace.runs.begin(), trace.runs.end(), [](unsigned n) { return n == 1; });
    const std::size_t violations = tg::order_violations(runner.report(), trace);
    const double error = mk::max_relative_error(state.result(), expected);
    std::vector<int> per_worker(static_cast<std::size_t>(worker_blocks) + 1, 0);
    for (unsigned w : trace.worker) ++per_worker[std::min<std::size_t>(w, per_worker.size() - 1)];
    const auto [fewest, most] = std::minmax_element(per_worker.begin() + 1, per_worker.end());
    std::printf("Chaque tâche exécutée une fois : %s ; dépendances violées : %zu\n", once ? "oui" : "NON", violations);
    std::printf("Tâches par travailleur : de %d à %d (ordonnancement dynamique)\n", *fewest, *most);
    std::printf("Écart relatif à la référence : %.2e\n", error);

    noyaux::EventTimer timer;
    timer.start(stream);
    for (std::int64_t r = 0; r < repetitions; ++r) runner.launch(state, stream);
    const double us = static_cast<double>(timer.stop_ms(stream)) * 1e3 / static_cast<double>(repetitions);
    std::printf("Par étape : %.2f µs%s\n", us,
#ifdef SIMT_EMULATOR
                " (émulateur : sans valeur de mesure)"
#else
                ""
#endif
    );
    return noyaux::conclude(once && violations == 0 && error <= mk::kDecoderTolerance);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("graphe-de-taches", [&] { return run(argc, argv); });
}
