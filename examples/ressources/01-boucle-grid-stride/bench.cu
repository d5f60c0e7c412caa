/**
 * @file
 * @brief Débit de SAXPY grid-stride comparé à une copie mémoire GPU → GPU de même
 *        volume, la référence de bande passante atteignable.
 *
 * Temps mesurés par événements CUDA (temps manuel de Google Benchmark). Pour des
 * mesures stables : --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
 * (médiane) et --benchmark_min_warmup_time=0.1 (échauffement).
 */
#include "boucle-grid-stride.cuh"

#include "common/copy_benchmark.cuh"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

#include <cstdint>

namespace {

using noyaux::DeviceBuffer;
using noyaux::EventTimer;

// SAXPY lit x et y puis écrit y : 3 × 4 octets par élément.
void BM_SaxpyGridStride(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    DeviceBuffer<float> x(n);
    DeviceBuffer<float> y(n);
    NOYAUX_CUDA_CHECK(cudaMemset(x.data(), 0, x.bytes()));
    NOYAUX_CUDA_CHECK(cudaMemset(y.data(), 0, y.bytes()));
    const cudaDeviceProp device = noyaux::require_device();
    const auto config = noyaux::ressources::default_launch_config(device.multiProcessorCount);
    EventTimer timer;
    for (auto _ : state) {
        timer.start();
        noyaux::ressources::launch_saxpy_grid_stride(n, 2.0f, x.data(), y.data(), config);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        state.SetIterationTime(timer.stop_ms() / 1e3);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 3 * n * sizeof(float)));
    state.counters["blocs"] = config.blocks;
}

// Copie GPU → GPU de 1,5 n flottants : le même volume (lecture + écriture) que SAXPY.
void BM_DeviceToDeviceCopy(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    noyaux::time_device_copy(state, (n + n / 2) * sizeof(float));
}

}  // namespace

BENCHMARK(BM_SaxpyGridStride)->RangeMultiplier(16)->Range(1 << 16, 1 << 28)->UseManualTime();
BENCHMARK(BM_DeviceToDeviceCopy)->RangeMultiplier(16)->Range(1 << 16, 1 << 28)->UseManualTime();
