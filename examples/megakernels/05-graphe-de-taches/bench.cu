/**
 * @file
 * @brief Durée d'une étape de décodeur exécutée en graphe de tâches (un lancement, un bloc
 *        ordonnanceur, un travailleur par SM restant). Argument : nombre de couches ;
 *        D = 256, H = 1024, tranches de 64 lignes, comme le benchmark de l'exemple 4 ;
 *        compteur « us_par_etape ».
 */
#include "graphe-de-taches.cuh"

#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>

#include <algorithm>

namespace {

namespace mk = noyaux::megakernels;
namespace tg = noyaux::megakernels::taskgraph;

void BM_TaskGraph(benchmark::State& state) {
    const mk::DecoderShape shape{256, 1024, static_cast<int>(state.range(0)), 64};
    int device = 0, sms = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    NOYAUX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    mk::DecoderDeviceState data(mk::make_weights(shape), mk::make_input(shape.hidden));
    tg::TaskGraphRunner runner(tg::build_decoder_graph(shape), shape, std::max(1, sms - 1));
    noyaux::EventTimer timer;
    runner.launch(data, nullptr);  // échauffement
    for (auto _ : state) {
        timer.start();
        runner.launch(data, nullptr);
        state.SetIterationTime(timer.stop_ms() / 1e3);
    }
    state.counters["couches"] = static_cast<double>(state.range(0));
    state.counters["us_par_etape"] =
        benchmark::Counter(1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_TaskGraph)->Arg(1)->Arg(4)->Arg(16)->UseManualTime();
