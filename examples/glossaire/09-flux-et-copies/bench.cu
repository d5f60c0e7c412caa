/**
 * @file
 * @brief Durée du même travail par lots (copie vers le GPU, noyau, copie vers l'hôte) selon le
 *        nombre de flux : 1 flux sérialise tout, plusieurs flux recouvrent copies et calcul.
 *
 * Temps mesurés par événements CUDA (temps manuel de Google Benchmark).
 */
#include "flux-et-copies.cuh"

#include <benchmark/benchmark.h>

#include <cstdint>

namespace {

namespace st = noyaux::glossaire::streams;

// 2^24 flottants (64 Mio) en 16 lots, 200 FMA par élément ; argument : nombre de flux.
void BM_StreamsOverlap(benchmark::State& state) {
    const std::size_t n = std::size_t{1} << 24;
    st::PinnedBuffer in(n);
    st::PinnedBuffer out(n);
    for (std::size_t i = 0; i < n; ++i) in.data()[i] = 0.5f;
    st::StreamSet set(static_cast<unsigned>(state.range(0)));
    set.run(in.data(), out.data(), n, 16, 0.999f, 0.001f, 200);  // échauffement
    for (auto _ : state) state.SetIterationTime(set.run(in.data(), out.data(), n, 16, 0.999f, 0.001f, 200) / 1e3);
    // Octets traversant le bus : aller et retour.
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 2 * n * sizeof(float)));
    state.counters["flux"] = static_cast<double>(state.range(0));
}

}  // namespace

BENCHMARK(BM_StreamsOverlap)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->UseManualTime();
