/**
 * @file
 * @brief Tests de l'étape 13 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        en bf16, contre la référence CPU et, sur GPU, contre cuBLAS ; et les bancs de mémoire
 *        partagée touchés par cp.async et ldmatrix, avec et sans la permutation, inscrits comme
 *        faits (common/bank_facts.cuh) : sans GoogleTest compilé par nvcc.
 */
#include "mma-sync.cuh"

#include "gemm/common/bank_facts.cuh"

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, appliquée à MmaSyncKernel.
const LadderTests<MmaSyncKernel> ladder_tests{"MmaSync"};

/** @brief Les quatre accès à la mémoire partagée du noyau, dans une disposition donnée. */
template <bool Swizzled>
using MmaSyncAccesses = bank_model::AccessList<bank_model::MmaSyncAStore<Swizzled>, bank_model::MmaSyncBStore<Swizzled>,
                                               bank_model::MmaSyncARead<Swizzled>, bank_model::MmaSyncBRead<Swizzled>>;

namespace {

void bank_facts() {
    // Avec la permutation, aucun des quatre accès n'est en conflit.
    register_conflict_free("MmaSync", "gemm_mma_sync_bf16", MmaSyncAccesses<true>{});
    // Sans elle, ldmatrix conflicte : lignes de 64 octets (A), huit lignes lues au même morceau
    // ne couvrent que 2 groupes de bancs sur 8 ; lignes de 256 octets (B) : un seul.
    register_bank_degree<bank_model::MmaSyncARead<false>>("MmaSync", "sans la permutation", 4);
    register_bank_degree<bank_model::MmaSyncBRead<false>>("MmaSync", "sans la permutation", 8);
}
const StepFacts banks{bank_facts};

}  // namespace
// --8<-- [end:garanties]

namespace {

/** @brief Lignes de la tuile où la permutation sort un morceau de sa ligne ou en met deux à la même place. */
template <typename Layout>
int rows_not_permuted(int rows) {
    int wrong = 0;
    for (int row = 0; row < rows; ++row) {
        bool seen[Layout::row_chunks] = {};
        bool permuted = true;
        for (int c = 0; c < Layout::row_chunks; ++c) {
            const int chunk = Layout::chunk(row, c);
            if (chunk / Layout::row_chunks != row || seen[chunk % Layout::row_chunks]) permuted = false;
            else seen[chunk % Layout::row_chunks] = true;
        }
        wrong += permuted ? 0 : 1;
    }
    return wrong;
}

void swizzle_facts() {
    using Indexing = MmaSyncIndexing<>;
    register_step_fact({"MmaSync", "tuile de A : lignes où la permutation sort un morceau de sa ligne ou en superpose deux",
                        rows_not_permuted<Indexing::ALayout>(MmaSyncConfig::block_m), 0});
    register_step_fact({"MmaSync", "tuile de B : lignes où la permutation sort un morceau de sa ligne ou en superpose deux",
                        rows_not_permuted<Indexing::BLayout>(MmaSyncConfig::block_k), 0});
}

const StepFacts swizzle{swizzle_facts};

}  // namespace
}  // namespace noyaux::gemm
