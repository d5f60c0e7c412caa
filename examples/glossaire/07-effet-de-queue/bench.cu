/**
 * @file
 * @brief Durée d'une grille de blocs longs selon le nombre de blocs autour d'une vague : une
 *        vague exacte, un bloc de plus, deux vagues.
 *
 * Temps mesurés par événements CUDA (temps manuel de Google Benchmark).
 */
#include "effet-de-queue.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

namespace {

namespace tl = noyaux::glossaire::tail;

// Argument : blocs en plus d'une vague (0, 1, puis une vague entière). 200 000 cycles par bloc.
void BM_TailEffect(benchmark::State& state) {
    const unsigned per_wave = tl::blocks_per_wave();
    const unsigned extra = state.range(0) < 0 ? per_wave : static_cast<unsigned>(state.range(0));
    const unsigned blocks = per_wave + extra;
    noyaux::DeviceBuffer<long long> elapsed(blocks);
    noyaux::EventTimer timer;
    for (auto _ : state) {
        timer.start();
        tl::launch_long_blocks(blocks, 200000, elapsed.data());
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        state.SetIterationTime(timer.stop_ms() / 1e3);
    }
    state.counters["blocs"] = blocks;
    state.counters["efficacite"] = tl::waves(blocks, per_wave).efficiency;
}

}  // namespace

// -1 : une vague entière de plus (deux vagues pleines).
BENCHMARK(BM_TailEffect)->Arg(0)->Arg(1)->Arg(-1)->UseManualTime();
