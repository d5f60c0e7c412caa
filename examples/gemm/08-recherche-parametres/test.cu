/**
 * @file
 * @brief Tests de l'étape 8 : la suite commune de l'échelle, pour chaque configuration
 *        balayée (une configuration fausse ne doit jamais gagner un balayage).
 */
#include "recherche-parametres.cuh"

#include "gemm/common/test_suite.cuh"

namespace noyaux::gemm {

/** @brief Types GoogleTest à partir de la liste des configurations balayées. */
template <typename List>
struct AsTestTypes;
template <typename... Kernels>
struct AsTestTypes<ConfigurationList<Kernels...>> {
    using type = testing::Types<Kernels...>;
};

// --8<-- [start:garanties]
// La suite commune de l'échelle (common/test_suite.cuh), pour chaque configuration de
// SweptConfigurations : une configuration fausse ne peut pas gagner le balayage.
INSTANTIATE_TYPED_TEST_SUITE_P(RechercheParametres, GemmLadderTest,
                               AsTestTypes<SweptConfigurations>::type);
// --8<-- [end:garanties]

}  // namespace noyaux::gemm
