/**
 * @file
 * @brief Débit des trois transpositions comparé à une copie mémoire GPU → GPU du même
 *        nombre d'éléments, la référence de bande passante atteignable.
 *
 * L'argument de chaque benchmark est le nombre d'éléments n d'une matrice carrée de côté
 * √n (1 024 à 8 192). Temps mesurés par événements CUDA (temps manuel de Google Benchmark) ;
 * pour des mesures stables : --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
 * (médiane) et --benchmark_min_warmup_time=0.1 (échauffement).
 */
#include "transposition.cuh"

#include "common/copy_benchmark.cuh"
#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>

namespace {

using noyaux::DeviceBuffer;
using noyaux::EventTimer;
using noyaux::ressources::TransposeKernel;

// Une transposition lit et écrit chaque élément une fois : 2 × 4 octets par élément.
void run_transpose(benchmark::State& state, TransposeKernel kernel) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
    DeviceBuffer<float> in(n);
    DeviceBuffer<float> out(n);
    NOYAUX_CUDA_CHECK(cudaMemset(in.data(), 0, in.bytes()));
    EventTimer timer;
    for (auto _ : state) {
        timer.start();
        noyaux::ressources::launch_transpose(kernel, in.data(), out.data(), side, side);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        state.SetIterationTime(timer.stop_ms() / 1e3);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 2 * n * sizeof(float)));
    state.counters["cote"] = side;
}

void BM_TranspositionNaive(benchmark::State& state) { run_transpose(state, TransposeKernel::naive); }

void BM_TranspositionPartagee(benchmark::State& state) {
    run_transpose(state, TransposeKernel::shared);
}

void BM_TranspositionDecalee(benchmark::State& state) {
    run_transpose(state, TransposeKernel::shared_padded);
}

// Copie GPU → GPU de n flottants : le même volume (lecture + écriture) qu'une transposition.
void BM_Copie(benchmark::State& state) {
    noyaux::time_device_copy(state, static_cast<std::size_t>(state.range(0)) * sizeof(float));
}

}  // namespace

// Matrices carrées de côté 1 024, 2 048, 4 096 et 8 192 (4 à 256 Mio par matrice).
BENCHMARK(BM_TranspositionNaive)->RangeMultiplier(4)->Range(1 << 20, 1 << 26)->UseManualTime();
BENCHMARK(BM_TranspositionPartagee)->RangeMultiplier(4)->Range(1 << 20, 1 << 26)->UseManualTime();
BENCHMARK(BM_TranspositionDecalee)->RangeMultiplier(4)->Range(1 << 20, 1 << 26)->UseManualTime();
BENCHMARK(BM_Copie)->RangeMultiplier(4)->Range(1 << 20, 1 << 26)->UseManualTime();
