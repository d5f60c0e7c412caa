/**
 * @file
 * @brief Tests de l'étape 18 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        en bf16, contre la référence CPU et, sur GPU, contre cuBLAS ; sur l'émulateur simt, qui
 *        exécute les clusters, mapa, la diffusion TMA et les arrivées distantes sur les mbarrier.
 *        Sur un GPU antérieur à Hopper, ces tests sont ignorés (GTEST_SKIP), avec la raison.
 */
#include "clusters.cuh"

#include "gemm/common/ladder_registration.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, appliquée à ClusterKernel, plus
// deux formes. Exacte : 11 pas de K sur 4 étages, deux clusters en N et deux bandes en M ;
// chaque étage est rechargé deux ou trois fois, et seulement quand les consommateurs des deux
// blocs l'ont rendu : une arrivée distante oubliée bloque, une arrivée en trop laisse écraser
// un étage lu. Refusée : trois tuiles de 128 colonnes, le troisième bloc n'aurait pas de voisin
// dans son cluster.
namespace {
using Tile = ClusterConfig;  ///< les dimensions de la tuile de l'étape
}
const LadderTests<ClusterKernel> ladder_tests{
    "Cluster",
    {.exact = {{2 * Tile::block_m, 4 * Tile::block_n, 11 * Tile::block_k}},
     .rejected = {{Tile::block_m, 3 * Tile::block_n, Tile::block_k}}}};
// La page de l'étape donne l'occupation pour cette mémoire partagée dynamique.
static_assert(ClusterKernel::shared_bytes == 132096, "mettre à jour la page de l'étape 18 (occupation)");
// N doit couvrir des clusters entiers : deux tuiles de 128 colonnes.
static_assert(ClusterKernel::granularity.n == 256, "mettre à jour la page et le refus de l'étape 18");
// --8<-- [end:garanties]

}  // namespace noyaux::gemm
