/**
 * @file
 * @brief Mesures du matériel : bande passante d'une copie en flux contre cudaMemcpy
 *        GPU → GPU, latence d'un chargement selon la taille du tableau (L1, L2, HBM),
 *        débit FP32 des FMA.
 *
 * Temps mesurés par événements CUDA (temps manuel de Google Benchmark). Pour des
 * mesures stables : --benchmark_repetitions=10 --benchmark_report_aggregates_only=true.
 */
#include "microbenchmarks.cuh"

#include "common/copy_benchmark.cuh"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

namespace mb = noyaux::ressources::microbench;
using noyaux::DeviceBuffer;
using noyaux::EventTimer;

// Copie en flux de range(0) octets : chaque octet est lu puis écrit.
void BM_BandePassante(benchmark::State& state) {
    const auto bytes = static_cast<std::size_t>(state.range(0));
    DeviceBuffer<float4> source(bytes / sizeof(float4));
    DeviceBuffer<float4> destination(bytes / sizeof(float4));
    NOYAUX_CUDA_CHECK(cudaMemset(source.data(), 0, bytes));
    const auto config = mb::stream_config(noyaux::require_device().multiProcessorCount);
    EventTimer timer;
    for (auto _ : state) {
        timer.start();
        mb::launch_stream_copy(source.data(), destination.data(), bytes, config);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        state.SetIterationTime(timer.stop_ms() / 1e3);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 2 * bytes));
}

// La référence : la copie GPU → GPU du runtime, même volume.
void BM_Copie(benchmark::State& state) {
    noyaux::time_device_copy(state, static_cast<std::size_t>(state.range(0)));
}

// Latence : un thread suit un cycle aléatoire dans un tableau de range(0) octets.
// Le temps d'un pas est la différence entre un lancement avec kSteps pas et un
// lancement sans pas (même échauffement) : le surcoût de lancement s'annule.
void BM_Latence(benchmark::State& state) {
    constexpr std::uint64_t kSteps = 1 << 16;
    const auto bytes = static_cast<std::size_t>(state.range(0));
    const std::vector<unsigned> next = mb::make_chase_array(bytes, 2024);
    DeviceBuffer<unsigned> next_device{std::span<const unsigned>(next)};
    DeviceBuffer<unsigned> scratch(next.size());
    DeviceBuffer<mb::ChaseResult> result(1);
    const std::uint64_t lines = bytes / 128;
    // Petit tableau : un tour complet dans le noyau remplit le L1 (vidé à chaque lancement).
    // Grand tableau : une copie en flux le charge dans le L2, qui survit aux lancements.
    const std::uint64_t warmup = lines <= 4096 ? lines : 0;
    const auto config = mb::stream_config(noyaux::require_device().multiProcessorCount);
    EventTimer timer;
    double cycles = 0.0;
    double chase_ms = 0.0;
    for (auto _ : state) {
        mb::launch_stream_copy(next_device.data(), scratch.data(), bytes, config);
        timer.start();
        mb::launch_pointer_chase(next_device.data(), warmup, 0, nullptr, result.data());
        const float empty_ms = timer.stop_ms();
        timer.start();
        mb::launch_pointer_chase(next_device.data(), warmup, kSteps, nullptr, result.data());
        const float full_ms = timer.stop_ms();
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        const double step_ms = std::max(double(full_ms) - double(empty_ms), 1e-6);
        state.SetIterationTime(step_ms / 1e3);
        chase_ms += step_ms;
        cycles += static_cast<double>(result.download()[0].cycles);
    }
    const double iterations = static_cast<double>(state.iterations());
    // Compteurs calculés ici, sur le temps des événements, pas sur celui de l'hôte.
    state.counters["ns_par_chargement"] = chase_ms * 1e6 / (iterations * kSteps);
    state.counters["cycles_par_chargement"] = cycles / (iterations * kSteps);
}

// Débit FP32 : range(0) blocs de 256 threads, 8 chaînes de 4096 FMA par thread.
void BM_DebitFma(benchmark::State& state) {
    constexpr unsigned kThreads = 256;
    constexpr int kIterations = 4096;
    const auto blocks = static_cast<unsigned>(state.range(0));
    DeviceBuffer<float> out(std::size_t{blocks} * kThreads);
    EventTimer timer;
    double total_s = 0.0;
    for (auto _ : state) {
        timer.start();
        mb::launch_fma_throughput(out.data(), blocks, kThreads, kIterations, 1.0f, 1.0f);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        const double seconds = timer.stop_ms() / 1e3;
        state.SetIterationTime(seconds);
        total_s += seconds;
    }
    state.counters["TFLOP/s"] = mb::fma_flops(blocks, kThreads, kIterations) *
                                static_cast<double>(state.iterations()) / total_s / 1e12;
}

}  // namespace

BENCHMARK(BM_BandePassante)->RangeMultiplier(16)->Range(1 << 24, 1 << 30)->UseManualTime();
BENCHMARK(BM_Copie)->RangeMultiplier(16)->Range(1 << 24, 1 << 30)->UseManualTime();
// 16 Kio : L1 ; 4 Mio : L2 (plus grand que le L1, bien plus petit que le L2 de 50 Mo) ; 1 Gio : HBM.
BENCHMARK(BM_Latence)->Arg(1 << 14)->Arg(1 << 22)->Arg(1 << 30)->UseManualTime()->Iterations(20);
BENCHMARK(BM_DebitFma)->RangeMultiplier(8)->Range(132, 132 * 64)->UseManualTime();
