/**
 * @file
 * @brief Tests de l'étape 10 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        un produit exact à 1024³, et les faits de bancs de sa disposition, vérifiés par les
 *        tests communs.
 */
#include "double-tampon.cuh"

#include "gemm/common/bank_facts.cuh"

#include <string>

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), appliquée à DoubleBufferedKernel, et
// au-delà de ses quelques tuiles un produit exact de 8×8 blocs et 64 tuiles de K.
const Float4LadderTests<DoubleBufferedKernel> ladder_tests{"DoubleTampon", {.exact = {{1024, 1024, 1024}}}};
// --8<-- [end:garanties]

namespace {

/**
 * @brief Lignes d'un thread dont la place dans la tuile de A n'est pas celle que suppose
 *        multiply_row_major_a (les TM lignes d'un thread à BK flottants l'une de l'autre, donc
 *        toutes permutées de même) ; attendu : aucune.
 */
long long rows_with_their_own_permutation() {
    using C = WarptilingConfig;
    using Layout = DoubleBufferedLayout<C>;
    long long wrong = 0;
    for (int tid = 0; tid < C::threads; ++tid)
        for (int wm = 0; wm < WarpTileOf<C>::WMITER; ++wm)
            for (int k4 = 0; k4 < C::block_k; k4 += 4)
                for (int i = 0; i < C::thread_m; ++i) {
                    const int row = WarpTileOf<C>(tid).a_row(wm);
                    wrong += Layout::a(k4, row + i) != Layout::a(k4, row) + i * C::block_k;
                }
    return wrong;
}

void step_facts_of_double_buffering() {
    register_conflict_free("DoubleTampon", DoubleBufferedKernel::name, DoubleBufferedKernel::SharedAccesses{});
    // La disposition d'avant : A transposée par copies de 4 octets, comme à l'étape 9.
    using C = WarptilingConfig;
    using Before = TransposedLayout<C::block_m, C::block_n, C::block_k>;
    register_bank_degree<bank_model::TransposedAStore<Before, C::block_m, C::block_n, C::block_k, C::threads>>(
        "DoubleTampon", "A transposée par copies de 4 octets (étape 9)", 4);
    register_step_fact({"DoubleTampon", "lignes d'un thread permutées autrement que la première",
                        rows_with_their_own_permutation(), 0});
}

const StepFacts facts{step_facts_of_double_buffering};

}  // namespace
}  // namespace noyaux::gemm
