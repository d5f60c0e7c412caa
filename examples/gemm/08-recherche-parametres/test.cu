/**
 * @file
 * @brief Tests de l'étape 8 : la suite commune de l'échelle, pour chaque configuration
 *        balayée (une configuration fausse ne doit jamais gagner un balayage), et les faits de
 *        bancs de chacune, vérifiés par les tests communs.
 */
#include "recherche-parametres.cuh"

#include "gemm/common/bank_facts.cuh"

namespace noyaux::gemm {

/** @brief Les tests communs, pour chaque configuration d'une liste. */
template <typename List>
struct SweptLadderTests;
template <typename... Kernels>
struct SweptLadderTests<ConfigurationList<Kernels...>> {
    using type = Float4LadderTests<Kernels...>;  ///< l'inscription de toutes les configurations
};

// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), pour chaque configuration de
// SweptConfigurations : une configuration fausse ne peut pas gagner le balayage.
const SweptLadderTests<SweptConfigurations>::type ladder_tests{"RechercheParametres"};
// --8<-- [end:garanties]

namespace {

/** @brief Inscrit chaque configuration de la liste comme sans conflit, avec le modèle de bancs de l'étape 7. */
template <typename... Kernels>
void register_all_conflict_free(ConfigurationList<Kernels...>) {
    (register_conflict_free("RechercheParametres", "sgemm_tunable " + Kernels::parameters(),
                            typename Kernels::SharedAccesses{}),
     ...);
}

void bank_facts() {
    // La disposition d'avant : la marge de 4 flottants de l'étape 7, qui ne sépare que deux
    // lignes kk ; avec BK = 16, quatre threads se partagent une ligne de A (degré 2), et B sans
    // permutation conflicte à la lecture de carrés de 8 colonnes (degré 2).
    using Before = TransposedLayout<128, 128, 16, 4>;
    register_bank_degree<bank_model::TransposedAStore<Before, 128, 128, 16, 256>>(
        "RechercheParametres", "marge de l'étape 7", 2);
    register_bank_degree<bank_model::SquareBRead<Before, 128, 16, 8, 8, 256>>("RechercheParametres",
                                                                                "marge de l'étape 7", 2);
    register_all_conflict_free(SweptConfigurations{});
    register_conflict_free("RechercheParametres", "configuration retenue", TunedKernel::SharedAccesses{});
}

const StepFacts facts{bank_facts};

}  // namespace
}  // namespace noyaux::gemm
