/**
 * @file
 * @brief Débit des trois réductions (arbre, shuffle, CUB) d'un tableau d'entiers, en Go/s
 *        lus ; CUB sert de référence.
 *
 * Temps mesurés par événements CUDA (temps manuel de Google Benchmark), deux passes
 * comprises. Pour des mesures stables : --benchmark_repetitions=10
 * --benchmark_report_aggregates_only=true --benchmark_min_warmup_time=0.1.
 */
#include "primitives-warp.cuh"

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

#include <cstdint>

namespace {

namespace wp = noyaux::ressources::warp_primitives;
using noyaux::DeviceBuffer;
using noyaux::EventTimer;

// Une réduction lit chaque élément une fois : 4 octets par élément.
void run_reduction(benchmark::State& state, wp::Variant variant) {
    const auto n = static_cast<std::size_t>(state.range(0));
    DeviceBuffer<int> in(n);
    NOYAUX_CUDA_CHECK(cudaMemset(in.data(), 0, in.bytes()));  // la valeur ne change pas le débit
    const cudaDeviceProp device = noyaux::require_device();
    const unsigned blocks = wp::reduction_blocks(n, device.multiProcessorCount);
    DeviceBuffer<int> block_sums(blocks);
    DeviceBuffer<int> result(1);
    EventTimer timer;
    for (auto _ : state) {
        timer.start();
        wp::launch_reduce_sum(variant, in.data(), n, block_sums.data(), result.data(), blocks);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        state.SetIterationTime(timer.stop_ms() / 1e3);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * sizeof(int)));
    state.counters["blocs"] = blocks;
}

void BM_ReductionArbre(benchmark::State& state) { run_reduction(state, wp::Variant::tree); }
void BM_ReductionShuffle(benchmark::State& state) { run_reduction(state, wp::Variant::shuffle); }
void BM_ReductionCub(benchmark::State& state) { run_reduction(state, wp::Variant::cub); }

}  // namespace

BENCHMARK(BM_ReductionArbre)->RangeMultiplier(16)->Range(1 << 16, 1 << 28)->UseManualTime();
BENCHMARK(BM_ReductionShuffle)->RangeMultiplier(16)->Range(1 << 16, 1 << 28)->UseManualTime();
BENCHMARK(BM_ReductionCub)->RangeMultiplier(16)->Range(1 << 16, 1 << 28)->UseManualTime();
