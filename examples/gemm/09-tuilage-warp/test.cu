/**
 * @file
 * @brief Tests de l'étape 9 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "tuilage-warp.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/test_suite.cuh), appliquée à WarptilingKernel.
INSTANTIATE_TYPED_TEST_SUITE_P(TuilageWarp, GemmLadderTest, WarptilingKernel);
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
