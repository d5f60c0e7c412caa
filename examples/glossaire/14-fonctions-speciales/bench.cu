/**
 * @file
 * @brief Débit de `__sinf` et de `sinf` sur 2^24 flottants (éléments par seconde).
 *
 * Temps mesurés par événements CUDA (temps manuel de Google Benchmark). Un sinus par élément
 * lu et écrit : à cette densité, la mémoire peut limiter les deux ; l'écart mesure le coût en
 * instructions de sinf quand il dépasse celui des transferts.
 */
#include "fonctions-speciales.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

#include <cstdint>

namespace {

namespace sf = noyaux::glossaire::special_functions;

// Argument : 0 __sinf, 1 sinf.
void BM_Sine(benchmark::State& state) {
    const std::size_t n = std::size_t{1} << 24;
    const auto variant = state.range(0) == 0 ? sf::Variant::fast : sf::Variant::accurate;
    noyaux::DeviceBuffer<float> in(n);
    noyaux::DeviceBuffer<float> out(n);
    NOYAUX_CUDA_CHECK(cudaMemset(in.data(), 0, in.bytes()));
    noyaux::EventTimer timer;
    for (auto _ : state) {
        timer.start();
        sf::launch_sine(variant, in.data(), out.data(), n);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        state.SetIterationTime(timer.stop_ms() / 1e3);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
    state.SetLabel(variant == sf::Variant::fast ? "__sinf" : "sinf");
}

}  // namespace

BENCHMARK(BM_Sine)->Arg(0)->Arg(1)->UseManualTime();
