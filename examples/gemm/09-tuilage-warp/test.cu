/**
 * @file
 * @brief Tests de l'étape 9 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        un produit exact à 1024³, et les faits de bancs de sa disposition, vérifiés par les
 *        tests communs.
 */
#include "tuilage-warp.cuh"

#include "gemm/common/bank_facts.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), appliquée à WarptilingKernel ; il
// accède à A, B et C par float4 : son alignement de 16 octets est vérifié à la compilation.
// Au-delà de ses quelques tuiles, un produit exact de 8×8 blocs et 64 tuiles de K.
const Float4LadderTests<WarptilingKernel> ladder_tests{"TuilageWarp", {.exact = {{1024, 1024, 1024}}}};
// --8<-- [end:garanties]

namespace {

void bank_facts() {
    register_conflict_free("TuilageWarp", WarptilingKernel::name, WarptilingKernel::SharedAccesses{});
    // La disposition d'avant (celle de l'étape 6) : les 4 threads qui chargent une ligne de A
    // écrivent 4 lignes kk distantes de 4 × 128 mots, toutes sur le même banc.
    using C = WarptilingConfig;
    using Before = TransposedLayout<C::block_m, C::block_n, C::block_k>;
    register_bank_degree<bank_model::TransposedAStore<Before, C::block_m, C::block_n, C::block_k, C::threads>>(
        "TuilageWarp", "disposition de l'étape 6", 4);
}

const StepFacts facts{bank_facts};

}  // namespace
}  // namespace noyaux::gemm
