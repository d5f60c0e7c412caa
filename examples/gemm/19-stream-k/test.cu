/**
 * @file
 * @brief Tests de l'étape 19 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp)
 *        et des formes, déduites des blocs résidents (formes.hpp), dont des tuiles sont partagées
 *        entre blocs (le test le vérifie par la partition de l'hôte) : sans la réduction des
 *        sommes partielles, ou avec β appliqué par chaque bloc, C serait faux ; l'une mêle
 *        tuiles entières et tuiles partagées. Sur l'émulateur simt comme sur GPU ; ignorés
 *        avant Hopper.
 */
#include "stream-k.cuh"
#include "formes.hpp"

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

using namespace stream_k_shapes;
static_assert(Tile::m == StreamKConfig::block_m && Tile::n == StreamKConfig::block_n &&
                  Tile::k == StreamKConfig::block_k,
              "formes.hpp doit suivre la tuile de l'étape");

/** @brief Ce que la partition fait de @p shape sur la grille réelle (le même calcul que le noyau). */
Partition partition_on_this_gpu(const Shape& shape) {
    const Partition p = partition_of(shape, StreamKKernel::resident_blocks());
    EXPECT_EQ(p.blocks, int(StreamKKernel::geometry(shape).grid.x)) << "formes.hpp ne suit plus la grille du noyau";
    return p;
}

/** @brief Lance le noyau et compare C à la référence (entrées en petits entiers : exact). */
void expect_exact(const Shape& shape, float alpha, float beta) {
    const Partition p = partition_on_this_gpu(shape);
    const auto mismatch = mismatch_on_small_integers<StreamKKernel>(shape, alpha, beta);
    EXPECT_FALSE(mismatch.has_value()) << p.blocks << " blocs, " << p.whole << " tuiles entières, " << p.shared
                                       << " partagées dont " << p.split << " coupées (jusqu'à " << p.most_blocks
                                       << " blocs par tuile) : " << mismatch.value_or("");
}

// Les formes dépendent des blocs résidents (formes.hpp) : même régime sur l'émulateur (8 blocs)
// et sur GPU (264 sur un H100) ; chaque test le vérifie avant de lancer. Une tuile dont le bloc
// final oublierait les parts des autres n'aurait qu'une partie de la somme sur K ; une part
// écrite directement dans C appliquerait β·C plus d'une fois. Avec des entiers exacts, la
// comparaison à la référence échoue dans les deux cas.

// Une vague pleine et 3 tuiles en queue : toutes partagées, coupées entre deux blocs au plus.
TEST(StreamK, SplitTilesAreReduced) {
    if (const std::string why = unavailable_reason<StreamKKernel>(); !why.empty()) GTEST_SKIP() << why;
    const Shape shape = split_tiles_shape(StreamKKernel::resident_blocks());
    const Partition p = partition_on_this_gpu(shape);
    ASSERT_EQ(p.blocks, StreamKKernel::resident_blocks());
    ASSERT_EQ(p.shared, p.tiles) << "toutes les tuiles doivent être partagées";
    ASSERT_GT(p.split, 0) << "aucune tuile coupée : la réduction ne serait pas exercée";
    expect_exact(shape, 1.0f, 0.0f);
}

// 3 tuiles pour toute la grille : chacune coupée entre beaucoup de blocs, un seul applique β.
TEST(StreamK, BetaIsAppliedOncePerSplitTile) {
    if (const std::string why = unavailable_reason<StreamKKernel>(); !why.empty()) GTEST_SKIP() << why;
    const Shape shape = few_tiles_shape(StreamKKernel::resident_blocks());
    const Partition p = partition_on_this_gpu(shape);
    ASSERT_EQ(p.blocks, StreamKKernel::resident_blocks());
    ASSERT_EQ(p.split, p.tiles) << "chaque tuile doit être coupée";
    ASSERT_GT(p.most_blocks, 2) << "une tuile doit réunir les parts de plus de deux blocs";
    expect_exact(shape, 1.0f, -0.5f);
}

// Deux vagues pleines et 3 tuiles en queue : la première vague reste entière, la seconde et la
// queue sont partagées. Une tuile entière aussi comptée en Stream-K recevrait α·A·B ou β·C deux
// fois (β ≠ 0) ; une tuile partagée décalée d'un rang en laisserait une autre sans résultat.
TEST(StreamK, HybridMixesWholeAndSharedTiles) {
    if (const std::string why = unavailable_reason<StreamKKernel>(); !why.empty()) GTEST_SKIP() << why;
    const Shape shape = hybrid_shape(StreamKKernel::resident_blocks());
    const Partition p = partition_on_this_gpu(shape);
    ASSERT_GT(p.whole, 0) << "aucune tuile entière : l'hybride ne serait pas exercé";
    ASSERT_GT(p.shared, 0) << "aucune tuile partagée : l'hybride ne serait pas exercé";
    ASSERT_GT(p.split, 0) << "aucune tuile coupée : la réduction ne serait pas exercée";
    expect_exact(shape, 1.0f, -0.5f);
}

// Deux lancements de suite : les drapeaux rendus nuls par le premier servent au second.
TEST(StreamK, FlagsAreResetForTheNextLaunch) {
    if (const std::string why = unavailable_reason<StreamKKernel>(); !why.empty()) GTEST_SKIP() << why;
    const Shape shape{3 * Tile::m, Tile::n, 5 * Tile::k};
    ASSERT_GT(partition_on_this_gpu(shape).split, 0);
    for (int launch = 0; launch < 2; ++launch) {
        const auto mismatch = mismatch_on_small_integers<StreamKKernel>(shape, 2.0f, 0.5f);
        EXPECT_FALSE(mismatch.has_value()) << "lancement " << launch << " : " << mismatch.value_or("");
    }
}

}  // namespace
}  // namespace noyaux::gemm
