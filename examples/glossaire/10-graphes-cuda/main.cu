/**
 * @file
 * @brief Programme : une chaîne de petits noyaux dépendants, lancée noyau par noyau puis
 *        capturée en graphe CUDA ; même résultat vérifié, coût de soumission par noyau mesuré.
 *
 * Usage : graphes-cuda [--noyaux N] [--taille T] [--repetitions R]
 */
#include "graphes-cuda.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

namespace gr = noyaux::glossaire::graphs;

int run(int argc, char** argv) {
    std::int64_t steps = 100;
    std::int64_t size = 4096;
    std::int64_t repetitions = 20;
    noyaux::cli::Parser parser("graphes-cuda",
                               "Une chaîne de petits noyaux, lancés un à un puis capturés en graphe CUDA.");
    parser.add_integer("--noyaux", &steps, 1, gr::kMaxSteps, "noyaux de la chaîne");
    parser.add_integer("--taille", &size, 1, static_cast<std::int64_t>(gr::kMaxElements), "éléments du tableau");
    parser.add_integer("--repetitions", &repetitions, 1, 1000, "chaînes chronométrées de chaque façon");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(gr::chain_step, "chain_step");
    const auto n = static_cast<std::size_t>(size);
    const int chain = static_cast<int>(steps);
    std::vector<float> input(n);
    for (std::size_t i = 0; i < n; ++i) input[i] = static_cast<float>(i % 1000) * 0.01f - 5.0f;
    const std::vector<float> expected = gr::chain_reference(input, chain);

    std::printf("GPU : %s\n", device.name);
    std::printf("Chaîne de %d noyaux sur %zu éléments\n", chain, n);
    gr::Stream stream;
    noyaux::DeviceBuffer<float> data(n);

    // Une passe de chaque façon depuis la même entrée : les deux résultats doivent coïncider.
    data.upload(input);
    gr::launch_chain(data.data(), n, chain, stream.get());
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    const std::vector<float> direct = data.download();

    data.upload(input);
    const gr::ChainGraph graph(data.data(), n, chain, stream.get());
    graph.launch(stream.get());
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    const std::vector<float> captured = data.download();
    std::printf("Graphe capturé : %zu nœuds\n", graph.node_count());

    const bool direct_ok = direct == expected;
    const bool graph_ok = captured == direct;
    std::printf("Lancements directs : %s\n", direct_ok ? "résultat identique à la référence" : "FAUX");
    std::printf("Graphe : %s\n", graph_ok ? "résultat identique aux lancements directs" : "FAUX");

    // Chronométrage : R chaînes de chaque façon, après une chaîne d'échauffement (déjà faite).
    noyaux::EventTimer timer;
    timer.start(stream.get());
    for (std::int64_t r = 0; r < repetitions; ++r) gr::launch_chain(data.data(), n, chain, stream.get());
    const float direct_ms = timer.stop_ms(stream.get());
    timer.start(stream.get());
    for (std::int64_t r = 0; r < repetitions; ++r) graph.launch(stream.get());
    const float graph_ms = timer.stop_ms(stream.get());
    const double kernels = static_cast<double>(repetitions) * static_cast<double>(chain);
    std::printf("Par noyau : %.2f µs lancés un à un, %.2f µs dans le graphe\n",
                static_cast<double>(direct_ms) * 1e3 / kernels, static_cast<double>(graph_ms) * 1e3 / kernels);
    return noyaux::conclude(direct_ok && graph_ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("graphes-cuda", [&] { return run(argc, argv); });
}
