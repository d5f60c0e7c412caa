/**
 * @file
 * @brief Tests de l'étape 5 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "tuilage-2d.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
INSTANTIATE_TYPED_TEST_SUITE_P(Tuilage2d, GemmLadderTest, Blocktiling2dKernel);
}  // namespace noyaux::gemm
