/**
 * @file
 * @brief Tests de l'étape 15 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        en bf16, contre la référence CPU et, sur GPU, contre cuBLAS ; sur l'émulateur simt, qui
 *        exécute la TMA, les mbarrier, wgmma et vérifie les règles de setmaxnreg. Sur un GPU
 *        antérieur à Hopper, ces tests sont ignorés (GTEST_SKIP), avec la raison. En plus, un K
 *        assez profond pour que chaque étage du pipeline serve plusieurs fois.
 */
#include "specialisation-warps.cuh"

#include "gemm/common/ladder_registration.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, appliquée à WarpSpecializedKernel,
// plus 11 pas de K sur 4 étages : chaque étage est vidé puis rempli deux ou trois fois, et la
// parité attendue sur « plein » et « vide » alterne ; une parité fausse bloque ou lit trop tôt.
namespace {
using Tile = WarpSpecializedConfig;  ///< les dimensions de la tuile de l'étape
}
const LadderTests<WarpSpecializedKernel> ladder_tests{
    "WarpSpecialized",
    {.exact = {{Tile::block_m, 2 * Tile::block_n, 11 * Tile::block_k}}}};
// La page de l'étape donne l'occupation pour cette mémoire partagée dynamique.
static_assert(WarpSpecializedKernel::shared_bytes == 132096, "mettre à jour la page de l'étape 15 (occupation)");
// --8<-- [end:garanties]

}  // namespace noyaux::gemm
