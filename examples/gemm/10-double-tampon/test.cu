/**
 * @file
 * @brief Tests de l'étape 10 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "double-tampon.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
INSTANTIATE_TYPED_TEST_SUITE_P(DoubleTampon, GemmLadderTest, DoubleBufferedKernel);
}  // namespace noyaux::gemm
