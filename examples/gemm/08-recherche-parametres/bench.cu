/**
 * @file
 * @brief Balayage de l'étape 8 : chaque configuration de SweptConfigurations, puis cuBLAS,
 *        à 1024, 2048 et 4096 (echelle/sweep.cuh, commun aux étapes 8 et 11 : L2 vidé,
 *        C remis, contrôle contre cuBLAS, médiane). ci/gpu-check enregistre le résultat par
 *        GPU ; benchmarks nommés BM_Gemm/sgemm_tunable_<BM>x<BN>x<BK>_<TM>x<TN>/<taille>.
 */
#include "recherche-parametres.cuh"

#include "gemm/echelle/sweep.cuh"

#include <string>

namespace {

using namespace noyaux::gemm::ladder_bench;
using noyaux::gemm::TunableKernel;

/** @brief Nom d'une configuration, sans « / » : sgemm_tunable_128x128x16_8x8. */
template <int BM, int BN, int BK, int TM, int TN>
std::string label(TunableKernel<BM, BN, BK, TM, TN>) {
    return "sgemm_tunable_" + std::to_string(BM) + "x" + std::to_string(BN) + "x" +
           std::to_string(BK) + "_" + std::to_string(TM) + "x" + std::to_string(TN);
}

const bool registered = [] {
    register_sweep(noyaux::gemm::SweptConfigurations{}, [](auto kernel) { return label(kernel); });
    return true;
}();

}  // namespace
