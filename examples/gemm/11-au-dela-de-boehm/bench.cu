/**
 * @file
 * @brief Balayage de l'étape 11 : chaque configuration de BeyondBoehmConfigurations, puis
 *        cuBLAS, à 1024, 2048 et 4096, avec les outils du benchmark de l'échelle (L2 vidé,
 *        C remis, contrôle contre cuBLAS, médiane). ci/gpu-check enregistre le résultat par
 *        GPU ; benchmarks nommés BM_Gemm/sgemm_beyond_boehm_<BM>x<BN>x<BK>_s<étages>_b<blocs>/<taille>.
 */
#include "au-dela-de-boehm.cuh"

#include "gemm/echelle/harness.cuh"

#include <string>

namespace {

using namespace noyaux::gemm::ladder_bench;
using noyaux::gemm::BeyondBoehm;
using noyaux::gemm::BeyondBoehmList;

constexpr int kSweepSizes[] = {1024, 2048, 4096};

/** @brief Nom d'une configuration, sans « / » : sgemm_beyond_boehm_64x128x32_s3_b3. */
template <int BM, int BN, int BK, int STAGES, int BLOCKS>
std::string label(BeyondBoehm<BM, BN, BK, STAGES, BLOCKS>) {
    return "sgemm_beyond_boehm_" + std::to_string(BM) + "x" + std::to_string(BN) + "x" +
           std::to_string(BK) + "_s" + std::to_string(STAGES) + "_b" + std::to_string(BLOCKS);
}

template <typename... Kernels>
void register_sweep(BeyondBoehmList<Kernels...>) {
    for (const int n : kSweepSizes) {
        (register_gemm(label(Kernels{}).c_str(), n,
                       [n](benchmark::State& state) { bench_kernel<Kernels>(state, n); }),
         ...);
        register_gemm("cublas", n, [n](benchmark::State& state) { bench_cublas(state, n); });
    }
}

const bool registered = [] {
    register_sweep(noyaux::gemm::BeyondBoehmConfigurations{});
    return true;
}();

}  // namespace
