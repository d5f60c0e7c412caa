/**
 * @file
 * @brief Tests de l'étape 1 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "naif.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/test_suite.cuh), appliquée à NaiveKernel.
INSTANTIATE_TYPED_TEST_SUITE_P(Naif, GemmLadderTest, NaiveKernel);
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
