/**
 * @file
 * @brief Tests de l'étape 16 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        en bf16, sur l'émulateur simt et, sur un GPU Hopper, contre cuBLAS ; en plus, un K assez
 *        profond pour que chaque étage serve plusieurs fois aux deux consommateurs.
 */
#include "deux-consommateurs.cuh"

#include "gemm/common/ladder_registration.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, appliquée à TwoConsumersKernel,
// plus 9 pas de K sur 3 étages : un étage n'est rendu au producteur qu'après les 8 arrivées
// (4 warps × 2 consommateurs) ; un consommateur oublié bloque le producteur.
namespace {
using Tile = TwoConsumersConfig;  ///< les dimensions de la tuile de l'étape
}
const LadderTests<TwoConsumersKernel> ladder_tests{
    "TwoConsumers",
    {.exact = {{2 * Tile::block_m, Tile::block_n, 9 * Tile::block_k}}}};
// La page de l'étape donne l'occupation pour cette mémoire partagée dynamique.
static_assert(TwoConsumersKernel::shared_bytes == 148480, "mettre à jour la page de l'étape 16 (occupation)");
// --8<-- [end:garanties]

}  // namespace noyaux::gemm
