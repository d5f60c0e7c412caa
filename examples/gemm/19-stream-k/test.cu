/**
 * @file
 * @brief Tests de l'étape 19 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp)
 *        et des formes dont des tuiles sont partagées entre blocs (le test le vérifie par la
 *        partition de l'hôte) : sans la réduction des sommes partielles, ou avec β appliqué par
 *        chaque bloc, C serait faux ; l'une mêle tuiles entières et tuiles partagées. Sur
 *        l'émulateur simt comme sur GPU ; ignorés avant Hopper.
 */
#include "stream-k.cuh"

#include "gemm/common/gemm_reference.hpp"
#include "gemm/common/ladder_registration.cuh"
#include "gemm/common/runner.cuh"

#include <gtest/gtest.h>

#include <string>

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16.
const LadderTests<StreamKKernel> stream_k_tests{"StreamK"};
// --8<-- [end:garanties]

namespace {

/** @brief Le travail que le noyau partitionne pour @p shape sur @p blocks blocs. */
stream_k::Work work_of(const Shape& shape, int blocks) {
    using C = StreamKConfig;
    return {std::int64_t(shape.m / C::block_m) * (shape.n / C::block_n), shape.k / C::block_k, blocks};
}

/** @brief Tuiles coupées entre plusieurs blocs pour @p shape, selon la partition du noyau. */
int split_tiles(const Shape& shape, int blocks) {
    const stream_k::Work work = work_of(shape, blocks);
    int split = 0;
    for (int worker = 0; worker < blocks; ++worker)
        for (const stream_k::Segment& segment : stream_k::segments(work, worker))
            split += segment.finishes_tile && segment.k_begin > 0;
    return split;
}

/** @brief Les blocs de la grille du noyau pour @p shape. */
int grid_blocks(const Shape& shape) { return int(StreamKKernel::geometry(shape).grid.x); }

/** @brief Lance le noyau et compare C à la référence (entrées en petits entiers : exact). */
void expect_exact(const Shape& shape, float alpha, float beta) {
    const auto mismatch = mismatch_on_small_integers<StreamKKernel>(shape, alpha, beta);
    const stream_k::Work work = work_of(shape, grid_blocks(shape));
    EXPECT_FALSE(mismatch.has_value()) << grid_blocks(shape) << " blocs, " << stream_k::whole_tiles(work)
                                       << " tuiles entières, " << stream_k::shared_tiles(work) << " partagées dont "
                                       << split_tiles(shape, grid_blocks(shape)) << " coupées : " << mismatch.value_or("");
}

// Une tuile dont le bloc final oublierait les parts des autres n'aurait qu'une partie de la
// somme sur K ; une part écrite directement dans C appliquerait β·C plus d'une fois. Avec
// β ≠ 0 et des entiers exacts, la comparaison à la référence échoue dans les deux cas.
void expect_split_tiles_reduced(const Shape& shape, float beta) {
    if (const std::string why = unavailable_reason<StreamKKernel>(); !why.empty()) GTEST_SKIP() << why;
    const int blocks = grid_blocks(shape);
    const int tiles = (shape.m / 128) * (shape.n / 128);
    ASSERT_NE(tiles % blocks, 0) << "le nombre de tuiles doit ne pas être un multiple du nombre de blocs";
    ASSERT_GT(split_tiles(shape, blocks), 0) << "aucune tuile coupée : la réduction ne serait pas exercée";
    expect_exact(shape, 1.0f, beta);
}

TEST(StreamK, SplitTilesAreReduced) { expect_split_tiles_reduced({5 * 128, 7 * 128, 3 * 64}, 0.0f); }
TEST(StreamK, BetaIsAppliedOncePerSplitTile) { expect_split_tiles_reduced({3 * 128, 3 * 128, 5 * 64}, -0.5f); }

// 27 tuiles sur les 8 blocs de l'émulateur : 3 vagues pleines et 3 tuiles en queue, moins de
// la moitié de 8. Les 16 premières tuiles restent entières, les 11 dernières sont partagées.
// Une tuile entière aussi comptée en Stream-K recevrait α·A·B ou β·C deux fois (β ≠ 0) ; une
// tuile partagée décalée d'un rang en laisserait une autre sans résultat.
TEST(StreamK, HybridMixesWholeAndSharedTiles) {
    if (const std::string why = unavailable_reason<StreamKKernel>(); !why.empty()) GTEST_SKIP() << why;
    const Shape shape{3 * 128, 9 * 128, 4 * 64};
    const stream_k::Work work = work_of(shape, grid_blocks(shape));
    ASSERT_GT(stream_k::whole_tiles(work), 0) << "aucune tuile entière : l'hybride ne serait pas exercé";
    ASSERT_GT(stream_k::shared_tiles(work), 0) << "aucune tuile partagée : l'hybride ne serait pas exercé";
    ASSERT_GT(split_tiles(shape, work.workers), 0);
    expect_exact(shape, 1.0f, -0.5f);
}

// Deux lancements de suite : les drapeaux rendus nuls par le premier servent au second.
TEST(StreamK, FlagsAreResetForTheNextLaunch) {
    if (const std::string why = unavailable_reason<StreamKKernel>(); !why.empty()) GTEST_SKIP() << why;
    const Shape shape{3 * 128, 128, 5 * 64};
    ASSERT_GT(split_tiles(shape, grid_blocks(shape)), 0);
    for (int launch = 0; launch < 2; ++launch) {
        const auto mismatch = mismatch_on_small_integers<StreamKKernel>(shape, 2.0f, 0.5f);
        EXPECT_FALSE(mismatch.has_value()) << "lancement " << launch << " : " << mismatch.value_or("");
    }
}

}  // namespace
}  // namespace noyaux::gemm
