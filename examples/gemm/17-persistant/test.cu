/**
 * @file
 * @brief Tests de l'étape 17 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp)
 *        pour chacun des trois ordres de tuiles, et, pour chacun, une forme qui a plus de tuiles
 *        que la grille n'a de blocs : chaque bloc en calcule plusieurs, et chaque tuile doit
 *        l'être exactement une fois. Sur l'émulateur simt comme sur GPU ; ignorés avant Hopper.
 */
#include "persistant.cuh"

#include "gemm/common/gemm_reference.hpp"
#include "gemm/common/ladder_registration.cuh"
#include "gemm/common/runner.cuh"

#include <gtest/gtest.h>

#include <string>

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, pour chaque ordre.
const LadderTests<PersistentRowMajorKernel> row_major_tests{"PersistentRowMajor"};
const LadderTests<PersistentGroupedKernel> grouped_tests{"PersistentGrouped"};
const LadderTests<PersistentHilbertKernel> hilbert_tests{"PersistentHilbert"};
// --8<-- [end:garanties]

namespace {

// Une tuile de plus que la grille n'a de blocs, quel que soit le GPU : les premiers blocs en
// enchaînent deux, et rechargent pour la seconde des étages consommés pendant la première. Deux
// lignes de tuiles, pour que les trois ordres diffèrent (l'ordre groupé y descend les colonnes).
// Sur l'émulateur (4 SM, 2 blocs par SM) : 8 blocs, 2 × 5 tuiles ; sur H100 (132 SM) : 264
// blocs, 2 × 133 tuiles. Avec β ≠ 0, une tuile calculée deux fois compterait β·C deux fois,
// une tuile oubliée garderait l'ancien C : la comparaison à la référence échoue dans les deux cas.
template <typename Kernel>
void expect_every_tile_computed_once() {
    if (const std::string why = unavailable_reason<Kernel>(); !why.empty()) GTEST_SKIP() << why;
    using C = PersistentConfig;
    const int resident = Kernel::resident_blocks();
    const int columns = resident / 2 + 1;  // 2 × columns ≥ resident + 1 tuiles
    const Shape shape{2 * C::block_m, columns * C::block_n, 2 * C::block_k};
    const int blocks = int(Kernel::geometry(shape).grid.x);
    ASSERT_EQ(blocks, resident) << "la grille doit compter tous les blocs résidents";
    ASSERT_LT(blocks, 2 * columns) << "la grille doit avoir moins de blocs que de tuiles pour qu'un bloc en "
                                      "enchaîne plusieurs";
    const auto mismatch = mismatch_on_small_integers<Kernel>(shape, 1.0f, -0.5f);
    EXPECT_FALSE(mismatch.has_value()) << Kernel::name << ", " << blocks << " blocs, " << 2 * columns
                                       << " tuiles : " << mismatch.value_or("");
}

TEST(Persistent, RowMajorBlocksComputeEveryTileOnce) { expect_every_tile_computed_once<PersistentRowMajorKernel>(); }
TEST(Persistent, GroupedBlocksComputeEveryTileOnce) { expect_every_tile_computed_once<PersistentGroupedKernel>(); }
TEST(Persistent, HilbertBlocksComputeEveryTileOnce) { expect_every_tile_computed_once<PersistentHilbertKernel>(); }

}  // namespace
}  // namespace noyaux::gemm
