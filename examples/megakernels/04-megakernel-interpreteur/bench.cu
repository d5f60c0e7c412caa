/**
 * @file
 * @brief Durée d'une étape de décodeur de chaque façon : megakernel interpréteur (un lancement),
 *        noyaux séparés dans un flux (trois lancements par couche), graphe CUDA de ces noyaux.
 *
 * Temps mesurés par événements CUDA (temps manuel de Google Benchmark) ; argument : nombre de
 * couches ; D = 256, H = 1024, tranches de 64 lignes ; compteur « us_par_etape ».
 */
#include "megakernel-interpreteur.cuh"

#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

#include <functional>

namespace {

namespace mk = noyaux::megakernels;
namespace mi = noyaux::megakernels::interpreter;

mk::DecoderShape bench_shape(const benchmark::State& state) {
    return {256, 1024, static_cast<int>(state.range(0)), 64};
}

void measure(benchmark::State& state, const std::function<void(cudaStream_t)>& submit, cudaStream_t stream) {
    noyaux::EventTimer timer;
    submit(stream);  // échauffement
    for (auto _ : state) {
        timer.start(stream);
        submit(stream);
        state.SetIterationTime(timer.stop_ms(stream) / 1e3);
    }
    state.counters["couches"] = static_cast<double>(state.range(0));
    state.counters["us_par_etape"] =
        benchmark::Counter(1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

int sm_count() {
    int device = 0, count = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    NOYAUX_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
}

void BM_InterpreterMegakernel(benchmark::State& state) {
    const mk::DecoderShape shape = bench_shape(state);
    mk::DecoderDeviceState data(mk::make_weights(shape), mk::make_input(shape.hidden));
    mi::Megakernel megakernel(mi::build_decoder_program(shape, sm_count()), shape);
    noyaux::Stream stream;
    measure(state, [&](cudaStream_t s) { megakernel.launch(data, s); }, stream.get());
}

void BM_InterpreterSeparate(benchmark::State& state) {
    const mk::DecoderShape shape = bench_shape(state);
    mk::DecoderDeviceState data(mk::make_weights(shape), mk::make_input(shape.hidden));
    mi::allow_page(shape);
    noyaux::Stream stream;
    measure(state, [&](cudaStream_t s) { mi::launch_separate(data, s); }, stream.get());
}

void BM_InterpreterGraph(benchmark::State& state) {
    const mk::DecoderShape shape = bench_shape(state);
    mk::DecoderDeviceState data(mk::make_weights(shape), mk::make_input(shape.hidden));
    mi::allow_page(shape);
    noyaux::Stream stream;
    const noyaux::CapturedGraph graph(stream.get(), [&](cudaStream_t s) { mi::launch_separate(data, s); });
    measure(state, [&](cudaStream_t s) { graph.launch(s); }, stream.get());
}

}  // namespace

BENCHMARK(BM_InterpreterMegakernel)->Arg(1)->Arg(4)->Arg(16)->UseManualTime();
BENCHMARK(BM_InterpreterSeparate)->Arg(1)->Arg(4)->Arg(16)->UseManualTime();
BENCHMARK(BM_InterpreterGraph)->Arg(1)->Arg(4)->Arg(16)->UseManualTime();
