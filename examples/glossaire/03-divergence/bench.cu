/**
 * @file
 * @brief Durée du même travail selon la condition de branche : par lane (chaque warp parcourt
 *        les deux chemins) ou par warp (chaque warp n'en parcourt qu'un).
 *
 * Temps mesurés par événements CUDA (temps manuel de Google Benchmark).
 */
#include "divergence.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

namespace {

namespace dv = noyaux::glossaire::divergence;

// 2^22 threads, 256 FMA par chemin ; argument : 0 par lane, 1 par warp.
void BM_Divergence(benchmark::State& state) {
    const std::size_t n = std::size_t{1} << 22;
    const auto split = static_cast<dv::Split>(state.range(0));
    noyaux::DeviceBuffer<float> data(n);
    NOYAUX_CUDA_CHECK(cudaMemset(data.data(), 0, data.bytes()));
    noyaux::EventTimer timer;
    for (auto _ : state) {
        timer.start();
        dv::launch_branchy_work(data.data(), n, 256, split);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        state.SetIterationTime(timer.stop_ms() / 1e3);
    }
    state.SetLabel(split == dv::Split::by_lane ? "par lane" : "par warp");
}

}  // namespace

BENCHMARK(BM_Divergence)->Arg(0)->Arg(1)->UseManualTime();
