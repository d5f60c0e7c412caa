/**
 * @file
 * @brief Tests de l'étape 12 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        en bf16, contre la référence CPU et, sur GPU, contre cuBLAS (cublasGemmEx, bf16 → fp32).
 */
#include "wmma.cuh"

#include "gemm/common/ladder_registration.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, appliquée à WmmaKernel.
const LadderTests<WmmaKernel> ladder_tests{"Wmma"};
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
