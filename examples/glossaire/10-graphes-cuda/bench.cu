/**
 * @file
 * @brief Coût par noyau d'une chaîne de petits noyaux dépendants : lancés un à un dans un flux,
 *        ou relancés d'un seul appel sous forme de graphe CUDA.
 *
 * Temps mesurés par événements CUDA (temps manuel de Google Benchmark) ; le compteur
 * « us_par_noyau » rapporte la durée d'une chaîne à son nombre de noyaux.
 */
#include "graphes-cuda.cuh"

#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

namespace {

namespace gr = noyaux::glossaire::graphs;

constexpr std::size_t kElements = 4096;  // 16 blocs : chaque noyau est minuscule

void report(benchmark::State& state, int steps) {
    state.counters["noyaux"] = steps;
    state.counters["us_par_noyau"] = benchmark::Counter(static_cast<double>(steps) * 1e-6,
                                                        benchmark::Counter::kIsIterationInvariantRate |
                                                            benchmark::Counter::kInvert);
}

// Argument : nombre de noyaux de la chaîne.
void BM_GraphsDirect(benchmark::State& state) {
    const auto steps = static_cast<int>(state.range(0));
    gr::Stream stream;
    noyaux::DeviceBuffer<float> data(kElements);
    noyaux::EventTimer timer;
    gr::launch_chain(data.data(), kElements, steps, stream.get());  // échauffement
    for (auto _ : state) {
        timer.start(stream.get());
        gr::launch_chain(data.data(), kElements, steps, stream.get());
        state.SetIterationTime(timer.stop_ms(stream.get()) / 1e3);
    }
    report(state, steps);
}

void BM_GraphsCaptured(benchmark::State& state) {
    const auto steps = static_cast<int>(state.range(0));
    gr::Stream stream;
    noyaux::DeviceBuffer<float> data(kElements);
    noyaux::EventTimer timer;
    const gr::ChainGraph graph(data.data(), kElements, steps, stream.get());
    graph.launch(stream.get());  // échauffement : premier envoi du graphe instancié
    for (auto _ : state) {
        timer.start(stream.get());
        graph.launch(stream.get());
        state.SetIterationTime(timer.stop_ms(stream.get()) / 1e3);
    }
    report(state, steps);
}

}  // namespace

BENCHMARK(BM_GraphsDirect)->Arg(10)->Arg(100)->Arg(1000)->UseManualTime();
BENCHMARK(BM_GraphsCaptured)->Arg(10)->Arg(100)->Arg(1000)->UseManualTime();
