/**
 * @file
 * @brief Tests de l'étape 6 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        dont le refus des pointeurs que les accès float4 ne permettent pas.
 */
#include "vectorisation.cuh"

#include "gemm/common/ladder_registration.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), appliquée à VectorizedKernel ; il
// accède à A, B et C par float4 : son alignement de 16 octets est vérifié à la compilation.
const Float4LadderTests<VectorizedKernel> ladder_tests{"Vectorisation"};
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
