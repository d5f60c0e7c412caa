/**
 * @file
 * @brief Tests de l'étape 4 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp).
 */
#include "tuilage-1d.cuh"

#include "gemm/common/ladder_registration.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), appliquée à Blocktiling1dKernel.
const LadderTests<Blocktiling1dKernel> ladder_tests{"Tuilage1d"};
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
