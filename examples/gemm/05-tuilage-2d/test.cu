/**
 * @file
 * @brief Tests de l'étape 5 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "tuilage-2d.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/test_suite.cuh), appliquée à Blocktiling2dKernel.
INSTANTIATE_TYPED_TEST_SUITE_P(Tuilage2d, GemmLadderTest, Blocktiling2dKernel);
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
