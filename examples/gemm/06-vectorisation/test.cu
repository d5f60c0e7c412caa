/**
 * @file
 * @brief Tests de l'étape 6 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh),
 *        dont le refus des pointeurs que les accès float4 ne permettent pas.
 */
#include "vectorisation.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/test_suite.cuh), appliquée à VectorizedKernel.
INSTANTIATE_TYPED_TEST_SUITE_P(Vectorisation, GemmLadderTest, VectorizedKernel);
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
