/**
 * @file
 * @brief Tests de l'étape 18 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        en bf16, contre la référence CPU et, sur GPU, contre cuBLAS ; sur l'émulateur simt, qui
 *        exécute les clusters, mapa, la diffusion TMA et les arrivées distantes sur les mbarrier.
 *        Sur un GPU antérieur à Hopper, ces tests sont ignorés (GTEST_SKIP), avec la raison.
 */
#include "clusters.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, appliquée à ClusterKernel.
const LadderTests<ClusterKernel> ladder_tests{"Cluster"};
// La page de l'étape donne l'occupation pour cette mémoire partagée dynamique.
static_assert(ClusterKernel::shared_bytes == 132096, "mettre à jour la page de l'étape 18 (occupation)");
// N doit couvrir des clusters entiers : deux tuiles de 128 colonnes.
static_assert(ClusterKernel::granularity.n == 256, "mettre à jour la page et le refus de l'étape 18");
// --8<-- [end:garanties]

TEST(Cluster, EveryStageIsRefilledSeveralTimesAcrossTheCluster) {
    // 11 pas de K sur 4 étages, deux clusters en N et deux bandes en M : chaque étage est
    // rechargé deux ou trois fois, et seulement quand les consommateurs des deux blocs l'ont
    // rendu ; une arrivée distante oubliée bloque, une arrivée en trop laisse écraser un étage lu.
    using C = ClusterConfig;
    expect_correct_or_rejected<ClusterKernel>({2 * C::block_m, 4 * C::block_n, 11 * C::block_k}, 1.0f, 0.5f,
                                              Values::small_integers);
}

TEST(Cluster, OddNumberOfColumnTilesIsRejected) {
    // Trois tuiles de 128 colonnes : le troisième bloc n'aurait pas de voisin dans son cluster.
    using C = ClusterConfig;
    expect_correct_or_rejected<ClusterKernel>({C::block_m, 3 * C::block_n, C::block_k}, 1.0f, 0.0f,
                                              Values::small_integers);
}
}  // namespace noyaux::gemm
