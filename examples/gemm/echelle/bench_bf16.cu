/**
 * @file
 * @brief Benchmark de l'échelle GEMM en bf16 : chaque étape de Bf16Ladder (ladder.cuh) et
 *        cuBLAS (cublasGemmEx, A et B en bf16, C en fp32, CUBLAS_COMPUTE_32F), sur des
 *        matrices carrées de 512 à 8192 (8192 si la mémoire libre du GPU le permet).
 *        Benchmarks nommés « BM_Gemm/noyau/taille », comme l'échelle fp32 (bench.cu) ; ce qui
 *        est mesuré, et comment, y est décrit (harness.cuh). ci/gpu-check range les résultats
 *        sous la clé « gemm-echelle-bf16 » ; la page de synthèse en tire TFLOP/s et % de cuBLAS.
 */
#include "harness.cuh"
#include "ladder.cuh"

namespace {

using namespace noyaux::gemm::ladder_bench;
using noyaux::gemm::GemmKernel;

const bool registered = [] {
    record_cublas_context<bf16>();
    for (const int n : kBf16Sizes) {
        noyaux::gemm::Bf16Ladder::for_each([n]<GemmKernel Kernel>() {
            register_gemm(Kernel::name, n, [n](benchmark::State& state) { bench_kernel<Kernel>(state, n); });
        });
        register_gemm("cublas", n, [n](benchmark::State& state) { bench_cublas<bf16>(state, n); });
    }
    return true;
}();

}  // namespace
