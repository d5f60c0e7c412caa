/**
 * @file
 * @brief Tests de l'étape 2 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "coalescence.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
INSTANTIATE_TYPED_TEST_SUITE_P(Coalescence, GemmLadderTest, CoalescedKernel);
}  // namespace noyaux::gemm
