/**
 * @file
 * @brief Tests de l'étape 1 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "naif.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
INSTANTIATE_TYPED_TEST_SUITE_P(Naif, GemmLadderTest, NaiveKernel);
}  // namespace noyaux::gemm
