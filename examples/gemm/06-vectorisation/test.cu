/**
 * @file
 * @brief Tests de l'étape 6 : la suite commune de l'échelle (examples/gemm/common/test_suite.cuh),
 *        plus le refus des pointeurs que les accès float4 ne permettent pas.
 */
#include "vectorisation.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
INSTANTIATE_TYPED_TEST_SUITE_P(Vectorisation, GemmLadderTest, VectorizedKernel);

TEST(Vectorisation, MisalignedPointersAreRejectedBeforeLaunch) {
    // Décalés d'un flottant : la forme est bonne, mais un float4 lu là serait mal aligné.
    alignas(16) static float storage[8];
    GemmArgs args{{128, 128, 8}, 1.0f, storage, storage, 0.0f, storage};
    args.b = storage + 1;
    EXPECT_THROW(VectorizedKernel::launch(args, nullptr), std::invalid_argument);
    args.b = storage;
    args.c = storage + 2;
    EXPECT_THROW(VectorizedKernel::launch(args, nullptr), std::invalid_argument);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // rien n'a été lancé
}
}  // namespace noyaux::gemm
