/**
 * @file
 * @brief Balayage de l'étape 11 : chaque configuration de BeyondBoehmConfigurations, puis
 *        cuBLAS, à 1024, 2048 et 4096 (echelle/sweep.cuh, commun aux étapes 8 et 11 : L2 vidé,
 *        C remis, contrôle contre cuBLAS, médiane). ci/gpu-check enregistre le résultat par
 *        GPU ; benchmarks nommés BM_Gemm/sgemm_beyond_boehm_<BM>x<BN>x<BK>_s<étages>_b<blocs>/<taille>.
 */
#include "au-dela-de-boehm.cuh"

#include "gemm/echelle/sweep.cuh"

#include <string>

namespace {

using namespace noyaux::gemm::ladder_bench;
using noyaux::gemm::BeyondBoehm;

/** @brief Nom d'une configuration, sans « / » : sgemm_beyond_boehm_64x128x32_s3_b3. */
template <int BM, int BN, int BK, int STAGES, int BLOCKS>
std::string label(BeyondBoehm<BM, BN, BK, STAGES, BLOCKS>) {
    return "sgemm_beyond_boehm_" + std::to_string(BM) + "x" + std::to_string(BN) + "x" +
           std::to_string(BK) + "_s" + std::to_string(STAGES) + "_b" + std::to_string(BLOCKS);
}

const bool registered = [] {
    register_sweep(noyaux::gemm::BeyondBoehmConfigurations{}, [](auto kernel) { return label(kernel); });
    return true;
}();

}  // namespace
