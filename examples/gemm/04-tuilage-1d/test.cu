/**
 * @file
 * @brief Tests de l'étape 4 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "tuilage-1d.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/test_suite.cuh), appliquée à Blocktiling1dKernel.
INSTANTIATE_TYPED_TEST_SUITE_P(Tuilage1d, GemmLadderTest, Blocktiling1dKernel);
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
