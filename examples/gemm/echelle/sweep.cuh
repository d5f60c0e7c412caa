/**
 * @file
 * @brief Le balayage d'une étape (étapes 8 et 11) : chaque configuration d'une liste, puis
 *        cuBLAS, à 1024, 2048 et 4096, avec les outils du benchmark de l'échelle (harness.cuh :
 *        L2 vidé, C remis, contrôle contre cuBLAS, médiane).
 *
 *     register_sweep(SweptConfigurations{}, [](auto kernel) { return label(kernel); });
 */
#pragma once

#include "gemm/echelle/harness.cuh"

namespace noyaux::gemm::ladder_bench {

/** @brief Côtés des matrices carrées du balayage. */
inline constexpr int kSweepSizes[] = {1024, 2048, 4096};

/**
 * @brief Inscrit, à chaque côté n du balayage, le benchmark « BM_Gemm/nom/n » de chaque
 *        configuration de la liste, puis « BM_Gemm/cublas/n ».
 * @tparam List la liste de l'étape (ConfigurationList de l'étape 8, BeyondBoehmList de l'étape 11)
 * @param label le nom d'une configuration, sans « / », à partir d'un objet de son type
 */
template <template <typename...> class List, typename... Kernels, typename Label>
void register_sweep(List<Kernels...>, Label label) {
    for (const int n : kSweepSizes) {
        (register_gemm(label(Kernels{}).c_str(), n,
                       [n](benchmark::State& state) { bench_kernel<Kernels>(state, n); }),
         ...);
        register_gemm("cublas", n, [n](benchmark::State& state) { bench_cublas(state, n); });
    }
}

}  // namespace noyaux::gemm::ladder_bench
