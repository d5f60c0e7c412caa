/**
 * @file
 * @brief Tests de l'étape 5 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp).
 */
#include "tuilage-2d.cuh"

#include "gemm/common/ladder_registration.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), appliquée à Blocktiling2dKernel.
const LadderTests<Blocktiling2dKernel> ladder_tests{"Tuilage2d"};
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
