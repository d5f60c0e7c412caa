/**
 * @file
 * @brief Tests de l'étape 3 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp).
 */
#include "memoire-partagee.cuh"

#include "gemm/common/ladder_registration.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), appliquée à SharedMemoryKernel.
const LadderTests<SharedMemoryKernel> ladder_tests{"MemoirePartagee"};
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
