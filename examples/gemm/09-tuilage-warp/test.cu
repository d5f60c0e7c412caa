/**
 * @file
 * @brief Tests de l'étape 9 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp).
 */
#include "tuilage-warp.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), appliquée à WarptilingKernel.
const LadderTests<WarptilingKernel> ladder_tests{"TuilageWarp"};
// --8<-- [end:garanties]

TEST(SharedMemoryBanks, NoAccessHasConflicts) {
    expect_conflict_free(WarptilingKernel::name, WarptilingKernel::SharedAccesses{});
}

TEST(SharedMemoryBanks, UnswizzledTransposedAStoresConflictedFourWays) {
    // La disposition d'avant (celle de l'étape 6) : les 4 threads qui chargent une ligne de A
    // écrivent 4 lignes kk distantes de 4 × 128 mots, toutes sur le même banc.
    using C = WarptilingConfig;
    using Before = TransposedLayout<C::block_m, C::block_n, C::block_k>;
    EXPECT_EQ((bank_model::worst_degree<
                  bank_model::TransposedAStore<Before, C::block_m, C::block_n, C::block_k, C::threads>>()),
              4);
}
}  // namespace noyaux::gemm
