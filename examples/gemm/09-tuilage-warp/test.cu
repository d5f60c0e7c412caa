/**
 * @file
 * @brief Tests de l'étape 9 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "tuilage-warp.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
INSTANTIATE_TYPED_TEST_SUITE_P(TuilageWarp, GemmLadderTest, WarptilingKernel);
}  // namespace noyaux::gemm
