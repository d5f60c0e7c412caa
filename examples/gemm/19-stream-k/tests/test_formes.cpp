/**
 * @file
 * @brief Tests propres de l'étape 19, compilés une fois par le compilateur de l'hôte et liés
 *        aux tests GPU comme à ceux de l'émulateur : les formes de test.cu (formes.hpp) mettent
 *        la partition dans le régime que chaque test annonce, pour le nombre de blocs résidents
 *        de l'émulateur (8) comme pour des GPU qu'aucune machine du projet n'a : H100 PCIe (114
 *        SM), H100 SXM et H200 (132 SM), à deux blocs par SM.
 */
#include "gemm/19-stream-k/formes.hpp"

#include <gtest/gtest.h>

#include <string>

namespace noyaux::gemm::stream_k_shapes {
namespace {

constexpr int kResidentBlocks[] = {8, 2 * 114, 2 * 132};

std::string context(const Shape& shape, int resident) {
    return to_string(shape) + " sur " + std::to_string(resident) + " blocs résidents";
}

TEST(StreamKShapes, SplitTilesShapeSharesEveryTileBetweenAtMostTwoBlocks) {
    for (const int resident : kResidentBlocks) {
        const Shape shape = split_tiles_shape(resident);
        const Partition p = partition_of(shape, resident);
        SCOPED_TRACE(context(shape, resident));
        EXPECT_EQ(p.blocks, resident);
        EXPECT_EQ(p.tiles, resident + 3);
        EXPECT_EQ(p.shared, p.tiles);
        EXPECT_GT(p.split, 0);
        EXPECT_EQ(p.most_blocks, 2);
    }
}

TEST(StreamKShapes, FewTilesShapeSplitsEachTileAcrossManyBlocks) {
    for (const int resident : kResidentBlocks) {
        const Shape shape = few_tiles_shape(resident);
        const Partition p = partition_of(shape, resident);
        SCOPED_TRACE(context(shape, resident));
        EXPECT_EQ(p.blocks, resident);
        EXPECT_EQ(p.split, p.tiles);
        EXPECT_GT(p.most_blocks, 2);
    }
    // Sur un H100 SXM : 3 tuiles de 90 itérations pour 264 blocs ; les 6 premiers blocs en ont
    // deux, les autres une : les deux dernières tuiles réunissent chacune 90 parts.
    EXPECT_EQ(partition_of(few_tiles_shape(264), 264).most_blocks, 90);
}

TEST(StreamKShapes, HybridShapeKeepsOneWaveWhole) {
    for (const int resident : kResidentBlocks) {
        const Shape shape = hybrid_shape(resident);
        const Partition p = partition_of(shape, resident);
        SCOPED_TRACE(context(shape, resident));
        EXPECT_EQ(p.blocks, resident);
        EXPECT_EQ(p.whole, resident);
        EXPECT_EQ(p.shared, resident + 3);
        EXPECT_GT(p.split, 0);
    }
}

// La forme fixe d'autrefois (27 tuiles de 4 itérations) : hybride sur l'émulateur, mais moins
// d'une vague sur un H100, où tout est partagé. La raison de formes.hpp.
TEST(StreamKShapes, AFixedShapeChangesRegimeWithTheGpu) {
    const Shape fixed{3 * Tile::m, 9 * Tile::n, 4 * Tile::k};
    EXPECT_GT(partition_of(fixed, 8).whole, 0);
    EXPECT_EQ(partition_of(fixed, 264).whole, 0);
}

}  // namespace
}  // namespace noyaux::gemm::stream_k_shapes
