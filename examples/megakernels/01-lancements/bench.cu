/**
 * @file
 * @brief Durée par étape d'une chaîne d'étapes dépendantes, pour chacune des cinq façons de
 *        l'exécuter. Temps mesurés par événements CUDA (temps manuel de Google Benchmark) ; le
 *        compteur « us_par_etape » rapporte la durée d'une chaîne à son nombre d'étapes.
 */
#include "lancements.cuh"

#include "common/device.cuh"
#include "common/event_timer.cuh"
#include "common/stream.cuh"

#include <benchmark/benchmark.h>

namespace {

namespace ch = noyaux::megakernels::chain;

constexpr std::size_t kElements = 4096;  // 32 blocs de 128 threads : chaque étape est minuscule

void report(benchmark::State& state, int steps) {
    state.counters["etapes"] = steps;
    state.counters["us_par_etape"] = benchmark::Counter(static_cast<double>(steps) * 1e-6,
                                                        benchmark::Counter::kIsIterationInvariantRate |
                                                            benchmark::Counter::kInvert);
}

// Argument : nombre d'étapes. La variante Graph capture une fois, puis ne chronomètre que les relances.
template <ch::Variant V>
void BM_Chain(benchmark::State& state) {
    const auto steps = static_cast<int>(state.range(0));
    if (V == ch::Variant::Pdl) {
        try {
            ch::require_pdl();
        } catch (const noyaux::UnsupportedArchitectureError& error) {
            state.SkipWithError(error.what());
            return;
        }
    }
    noyaux::Stream stream;
    ch::ChainRunner runner(kElements, steps);
    runner.upload(ch::chain_input(kElements));
    noyaux::EventTimer timer;
    if constexpr (V == ch::Variant::Graph) {
        const noyaux::CapturedGraph graph(stream.get(), [&](cudaStream_t s) { runner.launch_stream(s); });
        graph.launch(stream.get());  // échauffement
        for (auto _ : state) {
            timer.start(stream.get());
            graph.launch(stream.get());
            state.SetIterationTime(timer.stop_ms(stream.get()) / 1e3);
        }
    } else {
        runner.launch(V, stream.get());  // échauffement
        for (auto _ : state) {
            timer.start(stream.get());
            runner.launch(V, stream.get());
            state.SetIterationTime(timer.stop_ms(stream.get()) / 1e3);
        }
    }
    report(state, steps);
}

void BM_ChainStream(benchmark::State& state) { BM_Chain<ch::Variant::Stream>(state); }
void BM_ChainGraph(benchmark::State& state) { BM_Chain<ch::Variant::Graph>(state); }
void BM_ChainPdl(benchmark::State& state) { BM_Chain<ch::Variant::Pdl>(state); }
void BM_ChainPersistentCounter(benchmark::State& state) { BM_Chain<ch::Variant::PersistentCounter>(state); }
void BM_ChainPersistentGridSync(benchmark::State& state) { BM_Chain<ch::Variant::PersistentGridSync>(state); }

}  // namespace

BENCHMARK(BM_ChainStream)->Arg(10)->Arg(100)->Arg(1000)->UseManualTime();
BENCHMARK(BM_ChainGraph)->Arg(10)->Arg(100)->Arg(1000)->UseManualTime();
BENCHMARK(BM_ChainPdl)->Arg(10)->Arg(100)->Arg(1000)->UseManualTime();
BENCHMARK(BM_ChainPersistentCounter)->Arg(10)->Arg(100)->Arg(1000)->UseManualTime();
BENCHMARK(BM_ChainPersistentGridSync)->Arg(10)->Arg(100)->Arg(1000)->UseManualTime();
