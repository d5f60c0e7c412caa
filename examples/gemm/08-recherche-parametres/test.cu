/**
 * @file
 * @brief Tests de l'étape 8 : la suite commune de l'échelle, pour chaque configuration
 *        balayée (une configuration fausse ne doit jamais gagner un balayage).
 */
#include "recherche-parametres.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {

/** @brief Types GoogleTest à partir de la liste des configurations balayées. */
/** @brief Les tests communs, pour chaque configuration d'une liste. */
template <typename List>
struct SweptLadderTests;
template <typename... Kernels>
struct SweptLadderTests<ConfigurationList<Kernels...>> {
    using type = LadderTests<Kernels...>;  ///< l'inscription de toutes les configurations
};

// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), pour chaque configuration de
// SweptConfigurations : une configuration fausse ne peut pas gagner le balayage.
const SweptLadderTests<SweptConfigurations>::type ladder_tests{"RechercheParametres"};
// --8<-- [end:garanties]

/** @brief Vérifie chaque configuration de la liste avec le modèle de bancs de l'étape 7. */
template <typename... Kernels>
void expect_all_conflict_free(ConfigurationList<Kernels...>) {
    (expect_conflict_free("sgemm_tunable " + Kernels::parameters(), typename Kernels::SharedAccesses{}), ...);
}

TEST(SharedMemoryBanks, Step7PaddingLeftTwoWayConflicts) {
    // La disposition d'avant : la marge de 4 flottants de l'étape 7, qui ne sépare que deux
    // lignes kk ; avec BK = 16, quatre threads se partagent une ligne de A (degré 2), et B sans
    // permutation conflicte à la lecture de carrés de 8 colonnes (degré 2).
    using Before = TransposedLayout<128, 128, 16, 4>;
    EXPECT_EQ((bank_model::worst_degree<bank_model::TransposedAStore<Before, 128, 128, 16, 256>>()), 2);
    EXPECT_EQ((bank_model::worst_degree<bank_model::SquareBRead<Before, 128, 16, 8, 8, 256>>()), 2);
}

TEST(SharedMemoryBanks, NoSweptConfigurationHasConflicts) {
    expect_all_conflict_free(SweptConfigurations{});
    expect_conflict_free("configuration retenue", TunedKernel::SharedAccesses{});
}

}  // namespace noyaux::gemm
