/**
 * @file
 * @brief Bande passante utile de gather_strided selon le pas : octets lus et écrits que le
 *        calcul demande, divisés par la durée ; les secteurs gaspillés n'y comptent pas.
 *
 * Temps mesurés par événements CUDA (temps manuel de Google Benchmark).
 */
#include "coalescence.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

#include <cstdint>

namespace {

namespace co = noyaux::glossaire::coalescing;

// 2^22 flottants utiles (16 Mio) ; argument : le pas (à 32, le tableau lu fait 512 Mio).
void BM_StridedRead(benchmark::State& state) {
    const std::size_t n = std::size_t{1} << 22;
    const auto stride = static_cast<unsigned>(state.range(0));
    noyaux::DeviceBuffer<float> in((n - 1) * stride + 1);
    noyaux::DeviceBuffer<float> out(n);
    NOYAUX_CUDA_CHECK(cudaMemset(in.data(), 0, in.bytes()));
    noyaux::EventTimer timer;
    for (auto _ : state) {
        timer.start();
        co::launch_gather_strided(in.data(), out.data(), n, stride);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        state.SetIterationTime(timer.stop_ms() / 1e3);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 2 * n * sizeof(float)));
    state.counters["secteurs_par_requete"] = static_cast<double>(co::sectors_per_request(0, stride, sizeof(float)));
}

}  // namespace

BENCHMARK(BM_StridedRead)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Arg(32)->UseManualTime();
