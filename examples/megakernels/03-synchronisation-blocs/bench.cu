/**
 * @file
 * @brief Coût d'un passage de relais entre blocs (drapeau release, attente acquire) et d'un
 *        rendez-vous producteurs/consommateurs par compteur. Temps par événements CUDA.
 */
#include "synchronisation-blocs.cuh"

#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

#include <functional>

namespace {

namespace rl = noyaux::megakernels::relay;

unsigned largest_grid() { return static_cast<unsigned>(rl::largest_co_resident_grid()); }

void measure(benchmark::State& state, const std::function<void()>& run) {
    noyaux::EventTimer timer;
    run();  // échauffement
    for (auto _ : state) {
        timer.start(nullptr);
        run();
        state.SetIterationTime(timer.stop_ms(nullptr) / 1e3);
    }
}

// Le relais traverse toute la grille : blocs − 1 passages successifs ; compteur « us_par_passage ».
void BM_RelayFlags(benchmark::State& state) {
    rl::RelayGrid grid(largest_grid());
    measure(state, [&] { grid.run_relay(); });
    state.counters["blocs"] = grid.blocks();
    state.counters["us_par_passage"] = benchmark::Counter(static_cast<double>(grid.blocks() - 1) * 1e-6,
                                                          benchmark::Counter::kIsIterationInvariantRate |
                                                              benchmark::Counter::kInvert);
}

void BM_FanInCounter(benchmark::State& state) {
    rl::RelayGrid grid(largest_grid());
    measure(state, [&] { grid.run_fan_in(); });
    state.counters["blocs"] = grid.blocks();
}

}  // namespace

BENCHMARK(BM_RelayFlags)->UseManualTime();
BENCHMARK(BM_FanInCounter)->UseManualTime();
