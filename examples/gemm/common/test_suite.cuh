/**
 * @file
 * @brief Les tests communs à toutes les étapes de l'échelle GEMM. Chaque étape les
 *        instancie dans son test.cu :
 *
 *     namespace noyaux::gemm {
 *     INSTANTIATE_TYPED_TEST_SUITE_P(Naif, GemmLadderTest, NaiveKernel);
 * }
 *
 * Sur l'émulateur (test cpu), la comparaison se fait contre la référence CPU ; sur GPU
 * (test gpu), aussi contre cuBLAS.
 */
#pragma once

#include "gemm_reference.hpp"
#include "runner.cuh"
#include "shared_accesses.cuh"

#ifndef SIMT_EMULATOR
#include "cublas_gemm.cuh"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::gemm {

/**
 * @brief Forme faite de tuiles, plus un reste. La tuile est la granularité du noyau, ou
 *        32×32×8 au moins pour les noyaux qui acceptent toute forme (des matrices 2×3×4
 *        ne diraient rien des bords).
 */
template <GemmKernel Kernel>
Shape shape_from_tiles(int tiles_m, int tiles_n, int tiles_k, int extra = 0) {
    constexpr Shape g = Kernel::granularity;
    const Shape tile{g.m > 1 ? g.m : 32, g.n > 1 ? g.n : 32, g.k > 1 ? g.k : 8};
    return {tiles_m * tile.m + extra, tiles_n * tile.n + extra, tiles_k * tile.k + extra};
}

// --8<-- [start:garanties]
/** @brief Exécute et compare à la référence ; ou vérifie le refus si la forme est hors granularité. */
template <GemmKernel Kernel>
void expect_correct_or_rejected(Shape shape, float alpha, float beta, Values values) {
    const HostProblem problem = make_problem(shape, alpha, beta, values);
    if (!accepts<Kernel>(shape)) {
        EXPECT_THROW(run_on_device<Kernel>(problem), UnsupportedShapeError) << to_string(shape);
        return;
    }
    const std::vector<float> result = run_on_device<Kernel>(problem);
    const auto mismatch = first_mismatch(result, reference_gemm(problem), shape);
    EXPECT_FALSE(mismatch.has_value()) << to_string(shape) << " : " << mismatch.value_or("");
}

/**
 * @brief Aucun des accès de la liste (bank_model::AccessList, pris aux fonctions d'indice du noyau)
 *        n'est en conflit de banc sous le modèle de l'étape 7 ; @p what nomme l'étape.
 */
template <typename... Accesses>
void expect_conflict_free(const std::string& what, bank_model::AccessList<Accesses...>) {
    (
        [&] {
            const int degree = bank_model::worst_degree<Accesses>();
            EXPECT_EQ(degree, 1) << what << " : " << Accesses::name << " en conflit de banc de degré "
                                 << degree << " sous le modèle de l'étape 7 (1 : aucun conflit)";
        }(),
        ...);
}

/**
 * @brief Exactitude à grande taille : entiers de -2 à 2, dont tout produit partiel est exact
 *        en fp32 (|somme| ≤ 4·K < 2²⁴) ; le résultat doit égaler la référence bit à bit.
 */
template <GemmKernel Kernel>
void expect_exact_at(const Shape& shape) {
    const HostProblem problem = make_problem(shape, 1.0f, 0.0f, Values::small_integers);
    const std::vector<float> result = run_on_device<Kernel>(problem);
    const Reference reference = reference_gemm(problem);
    std::size_t wrong = 0, first = 0;
    for (std::size_t i = 0; i < result.size(); ++i)
        if (result[i] != reference.c[i] && wrong++ == 0) first = i;
    EXPECT_EQ(wrong, 0u) << Kernel::name << " à " << to_string(shape) << " : " << wrong
                         << " élément(s) faux, le premier C[" << first / std::size_t(shape.n) << "]["
                         << first % std::size_t(shape.n) << "] = " << result[first] << " au lieu de "
                         << reference.c[first];
}

template <typename Kernel>
class GemmLadderTest : public testing::Test {};

TYPED_TEST_SUITE_P(GemmLadderTest);

TYPED_TEST_P(GemmLadderTest, MultiplesOfTheTileAreExact) {
    // Entiers de -2 à 2 : le calcul fp32 est exact, un terme oublié ou compté deux fois se voit.
    expect_correct_or_rejected<TypeParam>(shape_from_tiles<TypeParam>(2, 3, 4), 1.0f, 0.0f,
                                          Values::small_integers);
}

TYPED_TEST_P(GemmLadderTest, UniformValuesWithinErrorBound) {
    expect_correct_or_rejected<TypeParam>(shape_from_tiles<TypeParam>(3, 2, 5), 1.0f, 0.0f,
                                          Values::uniform);
}

TYPED_TEST_P(GemmLadderTest, SizesThatAreNotMultiplesOfTheTile) {
    // Acceptées par les noyaux qui gardent leurs bords, refusées par les autres.
    for (const int extra : {1, 7})
        expect_correct_or_rejected<TypeParam>(shape_from_tiles<TypeParam>(1, 2, 1, extra), 1.0f,
                                              0.0f, Values::small_integers);
}
// --8<-- [end:garanties]

TYPED_TEST_P(GemmLadderTest, InnerDimensionOfOne) {
    Shape shape = shape_from_tiles<TypeParam>(1, 1, 1);
    shape.k = 1;
    expect_correct_or_rejected<TypeParam>(shape, 1.0f, 0.0f, Values::small_integers);
}

TYPED_TEST_P(GemmLadderTest, AlphaAndBetaVariants) {
    const Shape shape = shape_from_tiles<TypeParam>(1, 1, 2);
    for (const float alpha : {1.0f, 0.5f, -2.0f})
        for (const float beta : {0.0f, 1.0f, -0.5f})
            expect_correct_or_rejected<TypeParam>(shape, alpha, beta, Values::small_integers);
}

TYPED_TEST_P(GemmLadderTest, NanAndInfInCAreDetected) {
    // β = 1 propage NaN et infini de C vers le résultat : la comparaison doit les signaler.
    const Shape shape = shape_from_tiles<TypeParam>(1, 1, 1);
    HostProblem problem = make_problem(shape, 1.0f, 1.0f, Values::small_integers);
    problem.c[0] = std::numeric_limits<float>::quiet_NaN();
    problem.c[std::size_t(shape.n) + 1] = std::numeric_limits<float>::infinity();
    const std::vector<float> result = run_on_device<TypeParam>(problem);
    const Reference reference = reference_gemm(problem);
    const auto mismatch = first_mismatch(result, reference, shape);
    ASSERT_TRUE(mismatch.has_value());
    EXPECT_NE(mismatch->find("C[0][0] = "), std::string::npos) << *mismatch;
    EXPECT_NE(mismatch->find("nan"), std::string::npos) << *mismatch;
    // Sans le NaN (retiré du résultat comme de la référence), l'infini doit être signalé.
    std::vector<float> without_nan = result;
    Reference patched = reference;
    without_nan[0] = patched.c[0] = patched.bound[0] = 0.0f;
    const auto second = first_mismatch(without_nan, patched, shape);
    ASSERT_TRUE(second.has_value());
    EXPECT_NE(second->find("C[1][1] = inf"), std::string::npos) << *second;
}

TYPED_TEST_P(GemmLadderTest, BetaZeroNeverReadsC) {
    // Sémantique BLAS : avec β = 0, C est seulement écrit ; un C non initialisé (ici, que des
    // NaN) ne doit pas transparaître dans le résultat (β·NaN vaut NaN).
    const Shape shape = shape_from_tiles<TypeParam>(1, 1, 1);
    HostProblem problem = make_problem(shape, 1.0f, 0.0f, Values::small_integers);
    std::fill(problem.c.begin(), problem.c.end(), std::numeric_limits<float>::quiet_NaN());
    const std::vector<float> result = run_on_device<TypeParam>(problem);
    const auto mismatch = first_mismatch(result, reference_gemm(problem), shape);
    EXPECT_FALSE(mismatch.has_value()) << "β = 0 et C rempli de NaN : " << mismatch.value_or("");
}

TYPED_TEST_P(GemmLadderTest, ShapesBeyond32BitIndicesAreRejected) {
    // Les noyaux indexent en int : M·K, K·N ou M·N au-delà de 2³¹ - 1 éléments débordent.
    // Une étape qui indexe ses lignes en 64 bits (wide_indices) accepte ces formes.
    if constexpr (requires { TypeParam::wide_indices; }) {
        static_assert(TypeParam::wide_indices);
        GTEST_SKIP() << "indices de 64 bits : M·N au-delà de 2³¹ - 1 est une forme valide";
    }
    GemmArgs args;
    args.shape = shape_from_tiles<TypeParam>(1, 1, 1);
    args.shape.m = args.shape.n = 1 << 16;  // M·N = 2³², multiples de toute tuile de l'échelle
    args.shape.m -= args.shape.m % TypeParam::granularity.m;
    args.shape.n -= args.shape.n % TypeParam::granularity.n;
    try {
        TypeParam::launch(args, nullptr);
        ADD_FAILURE() << to_string(args.shape) << " acceptée : ses indices débordent un int";
    } catch (const UnsupportedShapeError& error) {
        EXPECT_NE(std::string(error.what()).find("dépasse"), std::string::npos) << error.what();
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // rien n'a été lancé
}

TYPED_TEST_P(GemmLadderTest, InvalidShapesAreRejectedBeforeLaunch) {
    GemmArgs args;
    for (const Shape shape : {Shape{0, 8, 8}, Shape{8, -1, 8}, Shape{8, 8, 0}}) {
        args.shape = shape;
        EXPECT_THROW(TypeParam::launch(args, nullptr), UnsupportedShapeError) << to_string(shape);
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // rien n'a été lancé
}

TYPED_TEST_P(GemmLadderTest, MisalignedPointersAreRejectedBeforeLaunch) {
    if constexpr (TypeParam::alignment <= sizeof(float)) {
        GTEST_SKIP() << "accès de 32 bits : tout pointeur de float convient";
    } else {
        // Décalés d'un flottant : la forme est bonne, mais un float4 lu là serait mal aligné.
        alignas(16) static float storage[8];
        for (const char matrix : {'A', 'B', 'C'}) {
            GemmArgs args{TypeParam::granularity, 1.0f, storage, storage, 0.0f, storage};
            if (matrix == 'A') args.a = storage + 1;
            if (matrix == 'B') args.b = storage + 2;
            if (matrix == 'C') args.c = storage + 3;
            EXPECT_THROW(TypeParam::launch(args, nullptr), std::invalid_argument) << matrix << " décalée";
        }
        EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // rien n'a été lancé
    }
}

#ifndef SIMT_EMULATOR
TYPED_TEST_P(GemmLadderTest, AgreesWithCublas) {
    const Shape shape = shape_from_tiles<TypeParam>(4, 3, 8);
    const HostProblem problem = make_problem(shape, 0.75f, -0.25f, Values::uniform);
    const Reference reference = reference_gemm(problem);
    const std::vector<float> ours = run_on_device<TypeParam>(problem);

    DeviceBuffer<float> a{std::span<const float>(problem.a)};
    DeviceBuffer<float> b{std::span<const float>(problem.b)};
    DeviceBuffer<float> c{std::span<const float>(problem.c)};
    const CublasHandle handle;
    cublas_gemm(handle.get(), {shape, problem.alpha, a.data(), b.data(), problem.beta, c.data()});
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> theirs = c.download();
    // Les deux résultats sont à moins de leur borne du résultat exact, donc à moins de
    // deux bornes l'un de l'autre.
    for (std::size_t i = 0; i < ours.size(); ++i)
        ASSERT_LE(std::fabs(ours[i] - theirs[i]), 2.0f * reference.bound[i]) << "indice " << i;
}

REGISTER_TYPED_TEST_SUITE_P(GemmLadderTest, MultiplesOfTheTileAreExact, UniformValuesWithinErrorBound,
                            SizesThatAreNotMultiplesOfTheTile, InnerDimensionOfOne,
                            AlphaAndBetaVariants, NanAndInfInCAreDetected, BetaZeroNeverReadsC,
                            ShapesBeyond32BitIndicesAreRejected, InvalidShapesAreRejectedBeforeLaunch,
                            MisalignedPointersAreRejectedBeforeLaunch, AgreesWithCublas);
#else
REGISTER_TYPED_TEST_SUITE_P(GemmLadderTest, MultiplesOfTheTileAreExact, UniformValuesWithinErrorBound,
                            SizesThatAreNotMultiplesOfTheTile, InnerDimensionOfOne,
                            AlphaAndBetaVariants, NanAndInfInCAreDetected, BetaZeroNeverReadsC,
                            ShapesBeyond32BitIndicesAreRejected, InvalidShapesAreRejectedBeforeLaunch,
                            MisalignedPointersAreRejectedBeforeLaunch);
#endif

}  // namespace noyaux::gemm
