/**
 * @file
 * @brief Vider une file de tâches inégales : noyau persistant à file atomique contre un bloc
 *        par tâche. Temps mesurés par événements CUDA ; compteur « us_par_tache ».
 */
#include "file-de-travail.cuh"

#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

#include <functional>

namespace {

namespace q = noyaux::megakernels::queue;

void measure(benchmark::State& state, const std::function<void()>& run, unsigned tasks) {
    noyaux::EventTimer timer;
    run();  // échauffement
    for (auto _ : state) {
        timer.start(nullptr);
        run();
        state.SetIterationTime(timer.stop_ms(nullptr) / 1e3);
    }
    state.counters["taches"] = tasks;
    state.counters["us_par_tache"] = benchmark::Counter(static_cast<double>(tasks) * 1e-6,
                                                        benchmark::Counter::kIsIterationInvariantRate |
                                                            benchmark::Counter::kInvert);
}

// Argument : nombre de tâches.
void BM_QueuePersistent(benchmark::State& state) {
    q::WorkQueue queue(static_cast<unsigned>(state.range(0)));
    const unsigned blocks = q::WorkQueue::max_persistent_blocks();
    measure(state, [&] { queue.run_persistent(blocks); }, queue.tasks());
}

void BM_QueueOneBlockPerTask(benchmark::State& state) {
    q::WorkQueue queue(static_cast<unsigned>(state.range(0)));
    measure(state, [&] { queue.run_one_block_per_task(); }, queue.tasks());
}

}  // namespace

BENCHMARK(BM_QueuePersistent)->Arg(1000)->Arg(10000)->Arg(100000)->UseManualTime();
BENCHMARK(BM_QueueOneBlockPerTask)->Arg(1000)->Arg(10000)->Arg(100000)->UseManualTime();
