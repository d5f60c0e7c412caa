/**
 * @file
 * @brief Tests de l'étape 3 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh).
 */
#include "memoire-partagee.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/test_suite.cuh), appliquée à SharedMemoryKernel.
INSTANTIATE_TYPED_TEST_SUITE_P(MemoirePartagee, GemmLadderTest, SharedMemoryKernel);
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
