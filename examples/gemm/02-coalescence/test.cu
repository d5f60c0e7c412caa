/**
 * @file
 * @brief Tests de l'étape 2 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "coalescence.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/test_suite.cuh), appliquée à CoalescedKernel.
INSTANTIATE_TYPED_TEST_SUITE_P(Coalescence, GemmLadderTest, CoalescedKernel);
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
