/**
 * @file
 * @brief Tests de l'étape 1 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp).
 */
#include "naif.cuh"

#include "gemm/common/ladder_registration.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), appliquée à NaiveKernel.
const LadderTests<NaiveKernel> ladder_tests{"Naif"};
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
