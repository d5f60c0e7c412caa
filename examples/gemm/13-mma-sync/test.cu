/**
 * @file
 * @brief Tests de l'étape 13 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        en bf16, contre la référence CPU et, sur GPU, contre cuBLAS ; et les bancs de mémoire
 *        partagée touchés par cp.async et ldmatrix, avec et sans la permutation.
 */
#include "mma-sync.cuh"

#include "gemm/common/test_suite.cuh"

#include <set>

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, appliquée à MmaSyncKernel.
const LadderTests<MmaSyncKernel> ladder_tests{"MmaSync"};

/** @brief Les quatre accès à la mémoire partagée du noyau, dans une disposition donnée. */
template <bool Swizzled>
using MmaSyncAccesses = bank_model::AccessList<bank_model::MmaSyncAStore<Swizzled>, bank_model::MmaSyncBStore<Swizzled>,
                                               bank_model::MmaSyncARead<Swizzled>, bank_model::MmaSyncBRead<Swizzled>>;

TEST(MmaSyncBanks, SwizzledLayoutHasNoConflict) {
    expect_conflict_free("gemm_mma_sync_bf16", MmaSyncAccesses<true>{});
}

TEST(MmaSyncBanks, WithoutTheSwizzleLdmatrixConflicts) {
    // Lignes de 64 octets (A) : huit lignes lues au même morceau ne couvrent que 2 groupes de
    // bancs sur 8 ; lignes de 256 octets (B) : un seul.
    EXPECT_EQ(bank_model::worst_degree<bank_model::MmaSyncARead<false>>(), 4);
    EXPECT_EQ(bank_model::worst_degree<bank_model::MmaSyncBRead<false>>(), 8);
}
// --8<-- [end:garanties]

TEST(MmaSyncBanks, SwizzleIsAPermutationOfEachRow) {
    auto check = []<typename Layout>(Layout, int rows) {
        for (int row = 0; row < rows; ++row) {
            std::set<int> seen;
            for (int c = 0; c < Layout::row_chunks; ++c) {
                const int chunk = Layout::chunk(row, c);
                EXPECT_EQ(chunk / Layout::row_chunks, row) << "le morceau " << c << " quitte sa ligne " << row;
                seen.insert(chunk);
            }
            EXPECT_EQ(int(seen.size()), Layout::row_chunks) << "ligne " << row << " : deux morceaux à la même place";
        }
    };
    check(MmaSyncIndexing<>::ALayout{}, MmaSyncConfig::block_m);
    check(MmaSyncIndexing<>::BLayout{}, MmaSyncConfig::block_k);
}

}  // namespace noyaux::gemm
