/**
 * @file
 * @brief Tests de l'étape 18 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        en bf16, contre la référence CPU et, sur GPU, contre cuBLAS ; sur l'émulateur simt, qui
 *        exécute les clusters, mapa, la diffusion TMA et les arrivées distantes sur les mbarrier.
 *        Sur un GPU antérieur à Hopper, ces tests sont ignorés (GTEST_SKIP), avec la raison.
 */
#include "clusters.cuh"

#include "gemm/common/gemm_reference.hpp"
#include "gemm/common/ladder_registration.cuh"
#include "gemm/common/runner.cuh"

#include <gtest/gtest.h>

#include <string>

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, appliquée à ClusterKernel, plus
// deux formes. Exacte : 2 × 3 tuiles de clusters (256 × 256) et 5 pas de K sur 4 étages : les
// étages ne sont rechargés que quand les consommateurs des deux blocs les ont rendus ; une
// arrivée distante oubliée bloque, une arrivée en trop laisse écraser un étage lu. Refusée : une
// seule tuile de 128 lignes, le second bloc du cluster n'aurait pas de voisin.
namespace {
using Tile = ClusterConfig;  ///< les dimensions de la tuile de l'étape
}
const LadderTests<ClusterKernel> ladder_tests{
    "Cluster",
    {.exact = {{2 * Tile::cluster_m, 3 * Tile::block_n, 5 * Tile::block_k}},
     .rejected = {{Tile::block_m, Tile::block_n, Tile::block_k}}}};
// La page de l'étape donne l'occupation pour cette mémoire partagée dynamique.
static_assert(ClusterKernel::shared_bytes == 197632, "mettre à jour la page de l'étape 18 (occupation)");
// M doit couvrir des clusters entiers : deux tuiles de 128 lignes.
static_assert(ClusterKernel::granularity.m == 256, "mettre à jour la page et le refus de l'étape 18");
// --8<-- [end:garanties]


namespace {

// Une tuile de plus que la grille n'a de clusters : un cluster au moins en enchaîne deux, et
// recharge pour la seconde des étages que les deux blocs ont rendus pendant la première. Avec
// β ≠ 0, une tuile calculée deux fois compterait β·C deux fois, une tuile oubliée garderait
// l'ancien C. Sur l'émulateur (4 SM, un bloc par SM) : 2 clusters, 3 tuiles.
TEST(Cluster, PersistentClustersChainTiles) {
    if (const std::string why = unavailable_reason<ClusterKernel>(); !why.empty()) GTEST_SKIP() << why;
    const int clusters = ClusterKernel::resident_clusters();
    const Shape shape{(clusters + 1) * Tile::cluster_m, Tile::block_n, 5 * Tile::block_k};
    ASSERT_EQ(int(ClusterKernel::geometry(shape).grid.x), clusters * Tile::cluster);
    const auto mismatch = mismatch_on_small_integers<ClusterKernel>(shape, 1.0f, -0.5f);
    EXPECT_FALSE(mismatch.has_value()) << clusters << " clusters : " << mismatch.value_or("");
}

}  // namespace
}  // namespace noyaux::gemm
