/**
 * @file
 * @brief Tests de l'étape 10 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp).
 */
#include "double-tampon.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), appliquée à DoubleBufferedKernel.
const LadderTests<DoubleBufferedKernel> ladder_tests{"DoubleTampon"};
// --8<-- [end:garanties]

TEST(SharedMemoryBanks, NoAccessHasConflicts) {
    expect_conflict_free(DoubleBufferedKernel::name, DoubleBufferedKernel::SharedAccesses{});
}

TEST(SharedMemoryBanks, FourByteTransposedCopiesOfAConflictedFourWays) {
    // La disposition d'avant : A transposée par copies de 4 octets, comme à l'étape 9.
    using C = WarptilingConfig;
    using Before = TransposedLayout<C::block_m, C::block_n, C::block_k>;
    EXPECT_EQ((bank_model::worst_degree<
                  bank_model::TransposedAStore<Before, C::block_m, C::block_n, C::block_k, C::threads>>()),
              4);
}

TEST(SharedMemoryBanks, RowsOfAThreadShareTheirPermutation) {
    // multiply_row_major_a lit les TM lignes d'un thread à BK flottants l'une de l'autre : ce
    // n'est juste que si la disposition les permute toutes de même.
    using C = WarptilingConfig;
    using Layout = DoubleBufferedLayout<C>;
    for (int tid = 0; tid < C::threads; ++tid)
        for (int wm = 0; wm < WarpTileOf<C>::WMITER; ++wm)
            for (int k4 = 0; k4 < C::block_k; k4 += 4)
                for (int i = 0; i < C::thread_m; ++i) {
                    const int row = WarpTileOf<C>(tid).a_row(wm);
                    ASSERT_EQ(Layout::a(k4, row + i), Layout::a(k4, row) + i * C::block_k)
                        << "thread " << tid << ", ligne " << row + i;
                }
}

TEST(LargeSizes, ExactAt1024) {
    // Au-delà des quelques tuiles de la suite commune : 8×8 blocs, 64 tuiles de K.
    expect_exact_at<DoubleBufferedKernel>({1024, 1024, 1024});
}
}  // namespace noyaux::gemm
