/**
 * @file
 * @brief Tests de l'étape 10 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "double-tampon.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/test_suite.cuh), appliquée à DoubleBufferedKernel.
INSTANTIATE_TYPED_TEST_SUITE_P(DoubleTampon, GemmLadderTest, DoubleBufferedKernel);
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
