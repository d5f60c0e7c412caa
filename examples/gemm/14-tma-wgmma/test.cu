/**
 * @file
 * @brief Tests de l'étape 14 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        en bf16, contre la référence CPU et, sur GPU, contre cuBLAS (cublasGemmEx, bf16 → fp32) ;
 *        sur l'émulateur simt, qui exécute la TMA, les mbarrier et wgmma. Sur un GPU antérieur à
 *        Hopper, ces tests sont ignorés (GTEST_SKIP), avec la raison.
 */
#include "tma-wgmma.cuh"

#include "gemm/common/ladder_registration.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, appliquée à TmaWgmmaKernel.
const LadderTests<TmaWgmmaKernel> ladder_tests{"TmaWgmma"};
// La page de l'étape donne l'occupation pour cette mémoire partagée dynamique.
static_assert(TmaWgmmaKernel::shared_bytes == 99328, "mettre à jour la page de l'étape 14 (occupation)");
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
