/**
 * @file
 * @brief Tests de l'étape 7 : la suite commune de l'échelle, et l'analyse des bancs qui
 *        justifie la disposition (calcul sur l'hôte, sans GPU).
 */
#include "conflits-de-banc.cuh"

#include "gemm/common/test_suite.cuh"

#include <array>
#include <set>

namespace noyaux::gemm {
// La suite commune de l'échelle (common/ladder_tests.cpp), puis l'analyse des bancs.
const LadderTests<BankConflictFreeKernel> ladder_tests{"ConflitsDeBanc"};

namespace conflict_free {
namespace {

/** Accès d'un warp dont la lane l touche le mot first + stride·l. */
WarpAccess strided(int first, int stride, int width) {
    WarpAccess access;
    access.width = width;
    for (int lane = 0; lane < warp_size; ++lane) access.word[lane] = first + stride * lane;
    return access;
}

TEST(BankModel, KnownPatterns) {
    EXPECT_EQ(conflict_degree(strided(0, 1, 1)), 1);    // 32 mots consécutifs
    EXPECT_EQ(conflict_degree(strided(0, 2, 1)), 2);    // pas de 2 : 16 bancs servis deux fois
    EXPECT_EQ(conflict_degree(strided(0, 32, 1)), 32);  // une colonne : tout sur le banc 0
    EXPECT_EQ(conflict_degree(strided(5, 0, 1)), 1);    // un seul mot, diffusé
    EXPECT_EQ(conflict_degree(strided(0, 4, 4)), 1);    // float4 consécutifs : 4 phases sans conflit
    EXPECT_EQ(conflict_degree(strided(0, 8, 4)), 2);    // float4 un sur deux : 256 octets par phase
    EXPECT_EQ(conflict_degree(strided(0, 0, 4)), 1);    // un seul float4, diffusé
    EXPECT_EQ(passes(strided(0, 1, 1)), 1);
    EXPECT_EQ(passes(strided(0, 4, 4)), 4);  // 512 octets : quatre passes, sans conflit
    EXPECT_EQ(passes(strided(0, 8, 4)), 8);
}

// --8<-- [start:garanties]
TEST(BankAnalysis, Step6LayoutConflictsOnTransposedAStoresAndBReads) {
    // Issue #8 de SGEMM_CUDA : A transposée conflicte à l'écriture ; B, elle, à la lecture.
    EXPECT_EQ(worst_conflict_degree<PlainLayout>(SharedAccess::a_store), 2);
    EXPECT_EQ(worst_conflict_degree<PlainLayout>(SharedAccess::b_store), 1);
    EXPECT_EQ(worst_conflict_degree<PlainLayout>(SharedAccess::a_read), 1);
    EXPECT_EQ(worst_conflict_degree<PlainLayout>(SharedAccess::b_read), 2);
}

TEST(BankAnalysis, Step7LayoutIsConflictFree) {
    for (const SharedAccess which : {SharedAccess::a_store, SharedAccess::b_store,
                                     SharedAccess::a_read, SharedAccess::b_read})
        EXPECT_EQ(worst_conflict_degree<ConflictFreeLayout>(which), 1) << static_cast<int>(which);
}
// --8<-- [end:garanties]

TEST(BankAnalysis, PassesPerTileAndWarp) {
    // Par warp et par tuile K : 4 STS.32, 1 STS.128, 16 LDS.128 pour A, 16 pour B.
    // Un accès de 128 bits demande 4 passes au mieux ; la marge et la permutation ramènent
    // le total de 204 passes à 136, soit le minimum.
    for (int warp = 0; warp < threads / warp_size; ++warp) {
        EXPECT_EQ(passes_per_tile<PlainLayout>(SharedAccess::a_store, warp), 8);
        EXPECT_EQ(passes_per_tile<PlainLayout>(SharedAccess::b_store, warp), 4);
        EXPECT_EQ(passes_per_tile<PlainLayout>(SharedAccess::a_read, warp), 64);
        EXPECT_EQ(passes_per_tile<PlainLayout>(SharedAccess::b_read, warp), 128);
        EXPECT_EQ(passes_per_tile<ConflictFreeLayout>(SharedAccess::a_store, warp), 4);
        EXPECT_EQ(passes_per_tile<ConflictFreeLayout>(SharedAccess::b_store, warp), 4);
        EXPECT_EQ(passes_per_tile<ConflictFreeLayout>(SharedAccess::a_read, warp), 64);
        EXPECT_EQ(passes_per_tile<ConflictFreeLayout>(SharedAccess::b_read, warp), 64);
    }
}

TEST(BankAnalysis, TransposedAStoreBanks) {
    // Warp 0, composante x : les lanes 2r et 2r+1 chargent la même ligne r de A.
    const auto before = banks(warp_access<PlainLayout>(SharedAccess::a_store, 0, 0));
    const auto after = banks(warp_access<ConflictFreeLayout>(SharedAccess::a_store, 0, 0));
    for (int r = 0; r < warp_size / 2; ++r) {
        EXPECT_EQ(before[2 * r], r);
        EXPECT_EQ(before[2 * r + 1], r);  // ligne kk = 4 : 512 mots plus loin, même banc
        EXPECT_EQ(after[2 * r], r);
        EXPECT_EQ(after[2 * r + 1], r + 16);  // 4 lignes de 132 : 16 bancs plus loin
    }
}

TEST(BankAnalysis, BReadBanksOfTheFirstQuarterWarp) {
    // Lanes 0 à 7, premier float4 du pas kk = 0 : premiers bancs 0, 8, 16, 24, 0, 8, 16, 24
    // avant (deux passes), 0, 8, 16, 24, 4, 12, 20, 28 après (une seule).
    const auto before = banks(warp_access<PlainLayout>(SharedAccess::b_read, 0, 0));
    const auto after = banks(warp_access<ConflictFreeLayout>(SharedAccess::b_read, 0, 0));
    const std::array<int, 8> expected_before{0, 8, 16, 24, 0, 8, 16, 24};
    const std::array<int, 8> expected_after{0, 8, 16, 24, 4, 12, 20, 28};
    for (int lane = 0; lane < 8; ++lane) {
        EXPECT_EQ(before[lane], expected_before[lane]) << "lane " << lane;
        EXPECT_EQ(after[lane], expected_after[lane]) << "lane " << lane;
    }
}

TEST(BankAnalysis, LayoutsKeepEveryElementAndEveryFloat4) {
    // Chaque élément a sa place, et les 4 flottants d'un float4 restent contigus et alignés.
    std::set<int> a_places, b_places;
    for (int kk = 0; kk < block_k; ++kk) {
        for (int mm = 0; mm < block_m; ++mm) {
            const int place = ConflictFreeLayout::a(kk, mm);
            EXPECT_LT(place, ConflictFreeLayout::a_floats);
            a_places.insert(place);
        }
        for (int nn = 0; nn < block_n; nn += 4) {
            const int first = ConflictFreeLayout::b(kk, nn);
            EXPECT_EQ(first % 4, 0);
            for (int i = 0; i < 4; ++i) {
                EXPECT_EQ(ConflictFreeLayout::b(kk, nn + i), first + i);
                b_places.insert(first + i);
            }
        }
    }
    EXPECT_EQ(a_places.size(), std::size_t(block_k * block_m));
    EXPECT_EQ(b_places.size(), std::size_t(ConflictFreeLayout::b_floats));
    EXPECT_EQ(*b_places.rbegin(), ConflictFreeLayout::b_floats - 1);
}

}  // namespace
}  // namespace conflict_free

}  // namespace noyaux::gemm
