/**
 * @file
 * @brief Tests de l'étape 2 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp).
 */
#include "coalescence.cuh"

#include "gemm/common/ladder_registration.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), appliquée à CoalescedKernel.
const LadderTests<CoalescedKernel> ladder_tests{"Coalescence"};
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
