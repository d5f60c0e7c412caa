/**
 * @file
 * @brief Benchmark commun de l'échelle GEMM : chaque étape de ladder.cuh et cuBLAS, sur des
 *        matrices carrées de 128 à 4096 (puissances de deux), plus 8192 si la mémoire libre
 *        du GPU le permet, puis sur les formes de kShapes. Benchmarks nommés
 *        BM_Gemm/<noyau>/<taille> (carrés) ou BM_Gemm/<noyau>/<M>x<N>x<K>, et de même pour cuBLAS ;
 *        le contexte des résultats porte la version de cuBLAS et son mode mathématique.
 *
 * Ce qui est mesuré, et pourquoi (comparaison avec SGEMM_CUDA dans docs/gemm/synthese.md) :
 * - chaque noyau est d'abord comparé à cuBLAS, une fois par taille ; s'il s'en écarte au-delà
 *   de la borne d'erreur, le benchmark s'arrête en échec (code 1) ;
 * - chaque itération repart du même C (copie d'un original) et vide le cache L2 en écrivant
 *   un tampon de deux fois sa taille, hors de la mesure : β·C ne s'accumule pas d'une
 *   itération à l'autre et aucune opérande n'est encore dans le L2 ;
 * - une seule GEMM est chronométrée par itération, par événements CUDA (temps manuel) ;
 * - débit : compteur « GFLOP/s » = 2·M·N·K par itération, divisé par le temps manuel.
 *
 * Échauffement et médiane viennent de la ligne de commande (ci/gpu-check les passe) :
 * --benchmark_min_warmup_time=0.2 --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
 */
#include "harness.cuh"
#include "ladder.cuh"

namespace {

using namespace noyaux::gemm::ladder_bench;
using noyaux::gemm::GemmKernel;

// Taille par taille (voir workspace_for), chaque étape de l'échelle puis cuBLAS ; puis les
// formes au-delà des carrés, de même.
const bool registered = [] {
    record_cublas_context();
    for (const int n : kSizes) {
        noyaux::gemm::Ladder::for_each([n]<GemmKernel Kernel>() {
            register_gemm(Kernel::name, n,
                          [n](benchmark::State& state) { bench_kernel<Kernel>(state, n); });
        });
        register_gemm("cublas", n, [n](benchmark::State& state) { bench_cublas(state, n); });
    }
    for (const noyaux::gemm::Shape shape : kShapes) {
        noyaux::gemm::Ladder::for_each([shape]<GemmKernel Kernel>() {
            register_gemm(Kernel::name, shape,
                          [shape](benchmark::State& state) { bench_kernel<Kernel>(state, shape); });
        });
        register_gemm("cublas", shape, [shape](benchmark::State& state) { bench_cublas(state, shape); });
    }
    return true;
}();

}  // namespace
