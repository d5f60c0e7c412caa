/**
 * @file
 * @brief Tests de l'étape 19 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp)
 *        et deux formes dont des tuiles sont coupées entre blocs (le test le vérifie par la
 *        partition de l'hôte) : sans la réduction des sommes partielles, ou avec β appliqué par
 *        chaque bloc, C serait faux. Sur l'émulateur simt comme sur GPU ; ignorés avant Hopper.
 */
#include "stream-k.cuh"

#include "gemm/common/gemm_reference.hpp"
#include "gemm/common/ladder_registration.cuh"
#include "gemm/common/runner.cuh"

#include <gtest/gtest.h>

#include <string>

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16.
const LadderTests<StreamKKernel> stream_k_tests{"StreamK"};
// --8<-- [end:garanties]

namespace {

/** @brief Tuiles coupées entre plusieurs blocs pour @p shape, selon la partition du noyau. */
int split_tiles(const Shape& shape, int blocks) {
    using C = StreamKConfig;
    const stream_k::Work work{std::int64_t(shape.m / C::block_m) * (shape.n / C::block_n), shape.k / C::block_k, blocks};
    int split = 0;
    for (int worker = 0; worker < blocks; ++worker)
        for (const stream_k::Segment& segment : stream_k::segments(work, worker))
            split += segment.finishes_tile && segment.k_begin > 0;
    return split;
}

// Une tuile dont le bloc final oublierait les parts des autres n'aurait qu'une partie de la
// somme sur K ; une part écrite directement dans C appliquerait β·C plus d'une fois. Avec
// β ≠ 0 et des entiers exacts, la comparaison à la référence échoue dans les deux cas.
void expect_split_tiles_reduced(const Shape& shape, float beta) {
    if (const std::string why = unavailable_reason<StreamKKernel>(); !why.empty()) GTEST_SKIP() << why;
    const int blocks = int(StreamKKernel::geometry(shape).grid.x);
    const int tiles = (shape.m / 128) * (shape.n / 128);
    ASSERT_NE(tiles % blocks, 0) << "le nombre de tuiles doit ne pas être un multiple du nombre de blocs";
    ASSERT_GT(split_tiles(shape, blocks), 0) << "aucune tuile coupée : la réduction ne serait pas exercée";
    const HostProblemOf<bf16> problem = make_problem<bf16>(shape, 1.0f, beta, Values::small_integers);
    const auto mismatch = first_mismatch(run_on_device<StreamKKernel>(problem), reference_gemm(problem), shape);
    EXPECT_FALSE(mismatch.has_value()) << blocks << " blocs, " << split_tiles(shape, blocks)
                                       << " tuiles coupées : " << mismatch.value_or("");
}

TEST(StreamK, SplitTilesAreReduced) { expect_split_tiles_reduced({5 * 128, 7 * 128, 3 * 64}, 0.0f); }
TEST(StreamK, BetaIsAppliedOncePerSplitTile) { expect_split_tiles_reduced({3 * 128, 3 * 128, 5 * 64}, -0.5f); }

// Deux lancements de suite : les drapeaux rendus nuls par le premier servent au second.
TEST(StreamK, FlagsAreResetForTheNextLaunch) {
    if (const std::string why = unavailable_reason<StreamKKernel>(); !why.empty()) GTEST_SKIP() << why;
    const Shape shape{3 * 128, 2 * 128, 3 * 64};
    ASSERT_GT(split_tiles(shape, int(StreamKKernel::geometry(shape).grid.x)), 0);
    const HostProblemOf<bf16> problem = make_problem<bf16>(shape, 2.0f, 0.5f, Values::small_integers);
    for (int launch = 0; launch < 2; ++launch) {
        const auto mismatch = first_mismatch(run_on_device<StreamKKernel>(problem), reference_gemm(problem), shape);
        EXPECT_FALSE(mismatch.has_value()) << "lancement " << launch << " : " << mismatch.value_or("");
    }
}

}  // namespace
}  // namespace noyaux::gemm
