/**
 * @file
 * @brief Débit de FMA selon le nombre de chaînes indépendantes, avec un bloc de quatre warps
 *        par SM (un warp par ordonnanceur) puis avec des SM pleins (64 warps par SM).
 *
 * Temps mesurés par événements CUDA (temps manuel de Google Benchmark).
 */
#include "ilp.cuh"

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

#include <cstdint>

namespace {

namespace ilp = noyaux::glossaire::ilp;

// Arguments : chaînes (1, 2, 4, 8), puis warps par SM (4 ou 64). 8192 FMA par thread.
void BM_FmaChains(benchmark::State& state) {
    const int chains = static_cast<int>(state.range(0));
    const int warps_per_sm = static_cast<int>(state.range(1));
    const int fma_count = 8192;
    const cudaDeviceProp device = noyaux::require_device();
    const unsigned threads = 128;
    const auto blocks = static_cast<unsigned>(device.multiProcessorCount * warps_per_sm / 4);
    noyaux::DeviceBuffer<float> out(std::size_t{blocks} * threads);
    noyaux::EventTimer timer;
    for (auto _ : state) {
        timer.start();
        ilp::launch_fma_chains(chains, out.data(), fma_count, blocks, threads);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        state.SetIterationTime(timer.stop_ms() / 1e3);
    }
    // 2 FLOP par FMA.
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * blocks * threads * fma_count * 2);
    state.counters["chaines"] = chains;
    state.counters["warps_par_sm"] = warps_per_sm;
}

}  // namespace

BENCHMARK(BM_FmaChains)->ArgsProduct({{1, 2, 4, 8}, {4, 64}})->UseManualTime();
