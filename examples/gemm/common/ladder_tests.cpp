/**
 * @file
 * @brief Les tests communs à toutes les étapes de l'échelle GEMM, pour chaque étape inscrite
 *        par son test.cu (ladder_registration.cuh) :
 *
 *     const LadderTests<Blocktiling2dKernel> tests{"Tuilage2d"};
 *
 * Compilés une seule fois par le compilateur de l'hôte (bibliothèque objet noyaux_gemm_tests),
 * liés aux tests GPU comme aux tests sur l'émulateur : l'étape n'apporte que son lanceur. Sur
 * l'émulateur (test cpu), la comparaison se fait contre la référence CPU ; sur GPU (test gpu),
 * aussi contre cuBLAS (fp32, ou bf16 avec accumulation fp32).
 */
#include "ladder_case.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace noyaux::gemm {

template <typename Input>
std::vector<LadderCase<Input>>& mutable_ladder_cases() {
    static std::vector<LadderCase<Input>> cases;  // remplie à l'initialisation statique
    return cases;
}

template <typename Input>
void register_ladder_case(LadderCase<Input> ladder_case) {
    mutable_ladder_cases<Input>().push_back(std::move(ladder_case));
}

template <typename Input>
const std::vector<LadderCase<Input>>& ladder_cases() {
    return mutable_ladder_cases<Input>();
}

std::vector<StepFact>& mutable_step_facts() {
    static std::vector<StepFact> facts;  // remplie à l'initialisation statique
    return facts;
}

void register_step_fact(StepFact fact) { mutable_step_facts().push_back(std::move(fact)); }

const std::vector<StepFact>& step_facts() { return mutable_step_facts(); }

template void register_ladder_case<float>(LadderCase<float>);
template void register_ladder_case<bf16>(LadderCase<bf16>);
template const std::vector<LadderCase<float>>& ladder_cases<float>();
template const std::vector<LadderCase<bf16>>& ladder_cases<bf16>();

/** @brief Affichage d'un fait dans les messages de GoogleTest : ce qu'il compte. */
void PrintTo(const StepFact& fact, std::ostream* out) { *out << fact.what; }

/** @brief Affichage d'une étape dans les messages de GoogleTest : son noyau. */
template <typename Input>
void PrintTo(const LadderCase<Input>& kernel, std::ostream* out) {
    *out << kernel.kernel_name << " (" << InputTraits<Input>::name << ")";
}

namespace {

/** @brief Vrai si @p shape respecte la granularité de l'étape. */
template <typename Input>
bool accepts(const LadderCase<Input>& kernel, const Shape& shape) {
    const Shape g = kernel.granularity;
    return shape.m > 0 && shape.n > 0 && shape.k > 0 && shape.m % g.m == 0 && shape.n % g.n == 0 &&
           shape.k % g.k == 0;
}

/**
 * @brief Forme faite de tuiles, plus un reste. La tuile est la granularité du noyau, ou
 *        32×32×8 au moins pour les noyaux qui acceptent toute forme (des matrices 2×3×4
 *        ne diraient rien des bords).
 */
template <typename Input>
Shape shape_from_tiles(const LadderCase<Input>& kernel, int tiles_m, int tiles_n, int tiles_k, int extra = 0) {
    const Shape g = kernel.granularity;
    const Shape tile{g.m > 1 ? g.m : 32, g.n > 1 ? g.n : 32, g.k > 1 ? g.k : 8};
    return {tiles_m * tile.m + extra, tiles_n * tile.n + extra, tiles_k * tile.k + extra};
}

/** @brief Les tests communs, pour les étapes d'un type d'entrée. */
template <typename Input>
class LadderTest : public testing::TestWithParam<LadderCase<Input>> {};

using GemmLadderTest = LadderTest<float>;    ///< étapes fp32 (1 à 11)
using GemmBf16LadderTest = LadderTest<bf16>;  ///< étapes bf16 (Tensor Cores)

/** @brief Pourquoi l'étape ne peut pas s'exécuter ici (architecture trop ancienne) ; vide sinon. */
template <typename Input>
std::string unavailable(const LadderCase<Input>& kernel) {
    return kernel.unavailable ? kernel.unavailable() : std::string();
}

// Un test commun s'écrit une fois, pour les deux types d'entrée : une fonction modèle, et un
// TEST_P par suite qui l'appelle avec l'étape en paramètre, ou l'ignore si le GPU présent est
// trop ancien pour elle (une étape de Hopper sur un A100).
#define NOYAUX_LADDER_TEST(test_name)                                                          \
    template <typename Input>                                                                  \
    void test_name(const LadderCase<Input>& kernel);                                           \
    TEST_P(GemmLadderTest, test_name) {                                                        \
        if (const std::string why = unavailable(GetParam()); !why.empty()) GTEST_SKIP() << why; \
        test_name<float>(GetParam());                                                          \
    }                                                                                          \
    TEST_P(GemmBf16LadderTest, test_name) {                                                    \
        if (const std::string why = unavailable(GetParam()); !why.empty()) GTEST_SKIP() << why; \
        test_name<bf16>(GetParam());                                                           \
    }                                                                                          \
    template <typename Input>                                                                  \
    void test_name(const LadderCase<Input>& kernel)

}  // namespace

// --8<-- [start:garanties]
template <typename Input>
void expect_correct_or_rejected(const LadderCase<Input>& kernel, Shape shape, float alpha, float beta,
                                Values values) {
    const HostProblemOf<Input> problem = make_problem<Input>(shape, alpha, beta, values);
    if (!accepts(kernel, shape)) {
        EXPECT_THROW(kernel.run(problem), UnsupportedShapeError) << to_string(shape);
        return;
    }
    const std::vector<float> result = kernel.run(problem);
    const auto mismatch = first_mismatch(result, reference_gemm(problem), shape);
    EXPECT_FALSE(mismatch.has_value()) << to_string(shape) << " : " << mismatch.value_or("");
}

NOYAUX_LADDER_TEST(MultiplesOfTheTileAreExact) {
    // Entiers de -2 à 2 : le calcul fp32 est exact, un terme oublié ou compté deux fois se voit.
    expect_correct_or_rejected(kernel, shape_from_tiles(kernel, 2, 3, 4), 1.0f, 0.0f, Values::small_integers);
}

NOYAUX_LADDER_TEST(UniformValuesWithinErrorBound) {
    expect_correct_or_rejected(kernel, shape_from_tiles(kernel, 3, 2, 5), 1.0f, 0.0f, Values::uniform);
}

NOYAUX_LADDER_TEST(SizesThatAreNotMultiplesOfTheTile) {
    // Acceptées par les noyaux qui gardent leurs bords, refusées par les autres.
    for (const int extra : {1, 7})
        expect_correct_or_rejected(kernel, shape_from_tiles(kernel, 1, 2, 1, extra), 1.0f, 0.0f,
                                   Values::small_integers);
}
// --8<-- [end:garanties]

template void expect_correct_or_rejected<float>(const LadderCase<float>&, Shape, float, float, Values);
template void expect_correct_or_rejected<bf16>(const LadderCase<bf16>&, Shape, float, float, Values);

// Exactitude à grande taille : entiers de -2 à 2, dont tout produit partiel est exact en fp32
// (|somme| ≤ 4·K < 2²⁴) ; le résultat doit égaler la référence bit à bit.
template <typename Input>
void expect_exact_at(const LadderCase<Input>& kernel, const Shape& shape) {
    const HostProblemOf<Input> problem = make_problem<Input>(shape, 1.0f, 0.0f, Values::small_integers);
    const std::vector<float> result = kernel.run(problem);
    const Reference reference = reference_gemm(problem);
    std::size_t wrong = 0, first = 0;
    for (std::size_t i = 0; i < result.size(); ++i)
        if (result[i] != reference.c[i] && wrong++ == 0) first = i;
    EXPECT_EQ(wrong, 0u) << kernel.kernel_name << " à " << to_string(shape) << " : " << wrong
                         << " élément(s) faux, le premier C[" << first / std::size_t(shape.n) << "]["
                         << first % std::size_t(shape.n) << "] = " << result[first] << " au lieu de "
                         << reference.c[first];
}

template void expect_exact_at<float>(const LadderCase<float>&, const Shape&);
template void expect_exact_at<bf16>(const LadderCase<bf16>&, const Shape&);

namespace {

NOYAUX_LADDER_TEST(InnerDimensionOfOne) {
    Shape shape = shape_from_tiles(kernel, 1, 1, 1);
    shape.k = 1;
    expect_correct_or_rejected(kernel, shape, 1.0f, 0.0f, Values::small_integers);
}

NOYAUX_LADDER_TEST(AlphaAndBetaVariants) {
    const Shape shape = shape_from_tiles(kernel, 1, 1, 2);
    for (const float alpha : {1.0f, 0.5f, -2.0f})
        for (const float beta : {0.0f, 1.0f, -0.5f})
            expect_correct_or_rejected(kernel, shape, alpha, beta, Values::small_integers);
}

NOYAUX_LADDER_TEST(NanAndInfInCAreDetected) {
    // β = 1 propage NaN et infini de C vers le résultat : la comparaison doit les signaler.
    const Shape shape = shape_from_tiles(kernel, 1, 1, 1);
    HostProblemOf<Input> problem = make_problem<Input>(shape, 1.0f, 1.0f, Values::small_integers);
    problem.c[0] = std::numeric_limits<float>::quiet_NaN();
    problem.c[std::size_t(shape.n) + 1] = std::numeric_limits<float>::infinity();
    const std::vector<float> result = kernel.run(problem);
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

NOYAUX_LADDER_TEST(BetaZeroNeverReadsC) {
    // Sémantique BLAS : avec β = 0, C est seulement écrit ; un C non initialisé (ici, que des
    // NaN) ne doit pas transparaître dans le résultat (β·NaN vaut NaN).
    const Shape shape = shape_from_tiles(kernel, 1, 1, 1);
    HostProblemOf<Input> problem = make_problem<Input>(shape, 1.0f, 0.0f, Values::small_integers);
    std::fill(problem.c.begin(), problem.c.end(), std::numeric_limits<float>::quiet_NaN());
    const std::vector<float> result = kernel.run(problem);
    const auto mismatch = first_mismatch(result, reference_gemm(problem), shape);
    EXPECT_FALSE(mismatch.has_value()) << "β = 0 et C rempli de NaN : " << mismatch.value_or("");
}

NOYAUX_LADDER_TEST(ShapesBeyond32BitIndicesAreRejected) {
    // Les noyaux indexent en int : M·K, K·N ou M·N au-delà de 2³¹ - 1 éléments débordent.
    // Une étape qui indexe ses lignes en 64 bits (wide_indices) accepte ces formes.
    if (kernel.wide_indices) GTEST_SKIP() << "indices de 64 bits : M·N au-delà de 2³¹ - 1 est une forme valide";
    GemmArgsOf<Input> args;
    args.shape = shape_from_tiles(kernel, 1, 1, 1);
    args.shape.m = args.shape.n = 1 << 16;  // M·N = 2³², multiples de toute tuile de l'échelle
    args.shape.m -= args.shape.m % kernel.granularity.m;
    args.shape.n -= args.shape.n % kernel.granularity.n;
    try {
        kernel.launch(args);
        ADD_FAILURE() << to_string(args.shape) << " acceptée : ses indices débordent un int";
    } catch (const UnsupportedShapeError& error) {
        EXPECT_NE(std::string(error.what()).find("dépasse"), std::string::npos) << error.what();
    }
    EXPECT_TRUE(kernel.nothing_launched());  // rien n'a été lancé
}

NOYAUX_LADDER_TEST(InvalidShapesAreRejectedBeforeLaunch) {
    GemmArgsOf<Input> args;
    for (const Shape shape : {Shape{0, 8, 8}, Shape{8, -1, 8}, Shape{8, 8, 0}}) {
        args.shape = shape;
        EXPECT_THROW(kernel.launch(args), UnsupportedShapeError) << to_string(shape);
    }
    EXPECT_TRUE(kernel.nothing_launched());  // rien n'a été lancé
}

NOYAUX_LADDER_TEST(MisalignedPointersAreRejectedBeforeLaunch) {
    if (kernel.alignment <= sizeof(Input)) GTEST_SKIP() << "tout pointeur d'élément convient à ce noyau";
    // Décalés d'un élément : la forme est bonne, mais un accès large lu là serait mal aligné.
    alignas(64) static Input storage[16];
    alignas(64) static float output[8];
    for (const char matrix : {'A', 'B', 'C'}) {
        GemmArgsOf<Input> args{kernel.granularity, 1.0f, storage, storage, 0.0f, output};
        if (matrix == 'A') args.a = storage + 1;
        if (matrix == 'B') args.b = storage + 2;
        if (matrix == 'C') args.c = output + 3;
        EXPECT_THROW(kernel.launch(args), std::invalid_argument) << matrix << " décalée";
    }
    EXPECT_TRUE(kernel.nothing_launched());  // rien n'a été lancé
}

/** @brief Les étapes comparées à cuBLAS : sur GPU seulement (l'émulateur n'a pas cuBLAS). */
template <typename Input>
class CublasTest : public testing::TestWithParam<LadderCase<Input>> {};

using GemmCublasTest = CublasTest<float>;      ///< étapes fp32 contre cublasSgemm
using GemmBf16CublasTest = CublasTest<bf16>;  ///< étapes bf16 contre cublasGemmEx

template <typename Input>
void agrees_with_cublas(const LadderCase<Input>& kernel) {
    if (const std::string why = unavailable(kernel); !why.empty()) GTEST_SKIP() << why;
    const Shape shape = shape_from_tiles(kernel, 4, 3, 8);
    const HostProblemOf<Input> problem = make_problem<Input>(shape, 0.75f, -0.25f, Values::uniform);
    const Reference reference = reference_gemm(problem);
    const std::vector<float> ours = kernel.run(problem);
    const std::vector<float> theirs = kernel.run_cublas(problem);
    // Les deux résultats sont à moins de leur borne du résultat exact, donc à moins de
    // deux bornes l'un de l'autre.
    for (std::size_t i = 0; i < ours.size(); ++i)
        ASSERT_LE(std::fabs(ours[i] - theirs[i]), 2.0f * reference.bound[i]) << "indice " << i;
}

TEST_P(GemmCublasTest, AgreesWithCublas) { agrees_with_cublas(GetParam()); }
TEST_P(GemmBf16CublasTest, AgreesWithCublas) { agrees_with_cublas(GetParam()); }

/** @brief Les étapes qui inscrivent des formes de plus (LadderTests, ExtraShapes). */
template <typename Input>
class ExtraShapeTest : public testing::TestWithParam<LadderCase<Input>> {};

using GemmExtraShapeTest = ExtraShapeTest<float>;      ///< étapes fp32
using GemmBf16ExtraShapeTest = ExtraShapeTest<bf16>;  ///< étapes bf16

template <typename Input>
void expect_extra_shapes(const LadderCase<Input>& kernel) {
    if (const std::string why = unavailable(kernel); !why.empty()) GTEST_SKIP() << why;
    for (const Shape& shape : kernel.exact_shapes) expect_exact_at(kernel, shape);
    for (const Shape& shape : kernel.rejected_shapes) {
        const HostProblemOf<Input> problem = make_problem<Input>(shape, 1.0f, 0.0f, Values::small_integers);
        EXPECT_THROW(kernel.run(problem), UnsupportedShapeError) << kernel.kernel_name << " devait refuser "
                                                                 << to_string(shape);
    }
}

TEST_P(GemmExtraShapeTest, ExactOrRefusedAtListedShapes) { expect_extra_shapes(GetParam()); }
TEST_P(GemmBf16ExtraShapeTest, ExactOrRefusedAtListedShapes) { expect_extra_shapes(GetParam()); }

/** @brief Les faits calculés par les test.cu (step_facts) : chacun doit valoir ce qui est attendu. */
class StepFactTest : public testing::TestWithParam<StepFact> {};

TEST_P(StepFactTest, Holds) {
    const StepFact& fact = GetParam();
    EXPECT_EQ(fact.value, fact.expected) << fact.step << " : " << fact.what;
}

/** @brief Nom GoogleTest d'une étape : celui de son inscription. */
template <typename Input>
std::string case_name(const testing::TestParamInfo<LadderCase<Input>>& info) {
    return info.param.test_name;
}

/** @brief Les étapes inscrites qui satisfont @p keep. */
template <typename Input, typename Keep>
std::vector<LadderCase<Input>> cases_where(Keep keep) {
    std::vector<LadderCase<Input>> cases;
    for (const LadderCase<Input>& kernel : ladder_cases<Input>())
        if (keep(kernel)) cases.push_back(kernel);
    return cases;
}

template <typename Input>
std::vector<LadderCase<Input>> cases_with_cublas() {
    return cases_where<Input>([](const LadderCase<Input>& kernel) { return kernel.run_cublas != nullptr; });
}

template <typename Input>
std::vector<LadderCase<Input>> cases_with_extra_shapes() {
    return cases_where<Input>([](const LadderCase<Input>& kernel) {
        return !kernel.exact_shapes.empty() || !kernel.rejected_shapes.empty();
    });
}

/** @brief Nom GoogleTest d'un fait : son étape et son rang. */
std::string fact_name(const testing::TestParamInfo<StepFact>& info) {
    return info.param.step + "_" + std::to_string(info.index);
}

// Les générateurs sont évalués par InitGoogleTest, après les inscriptions statiques des étapes.
// Un programme n'a d'étapes que d'un type, et l'émulateur n'a pas cuBLAS : une suite peut
// rester vide sans que ce soit une erreur.
INSTANTIATE_TEST_SUITE_P(Echelle, GemmLadderTest, testing::ValuesIn(ladder_cases<float>()), case_name<float>);
INSTANTIATE_TEST_SUITE_P(Echelle, GemmBf16LadderTest, testing::ValuesIn(ladder_cases<bf16>()), case_name<bf16>);
INSTANTIATE_TEST_SUITE_P(Echelle, GemmCublasTest, testing::ValuesIn(cases_with_cublas<float>()), case_name<float>);
INSTANTIATE_TEST_SUITE_P(Echelle, GemmBf16CublasTest, testing::ValuesIn(cases_with_cublas<bf16>()),
                         case_name<bf16>);
INSTANTIATE_TEST_SUITE_P(Echelle, GemmExtraShapeTest, testing::ValuesIn(cases_with_extra_shapes<float>()),
                         case_name<float>);
INSTANTIATE_TEST_SUITE_P(Echelle, GemmBf16ExtraShapeTest, testing::ValuesIn(cases_with_extra_shapes<bf16>()),
                         case_name<bf16>);
INSTANTIATE_TEST_SUITE_P(Echelle, StepFactTest, testing::ValuesIn(step_facts()), fact_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GemmExtraShapeTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GemmBf16ExtraShapeTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(StepFactTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GemmLadderTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GemmBf16LadderTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GemmCublasTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GemmBf16CublasTest);

/** @brief Un programme de test sans aucune étape inscrite ne teste rien : c'est une erreur. */
TEST(LadderRegistration, AtLeastOneStepIsRegistered) {
    EXPECT_GT(ladder_cases<float>().size() + ladder_cases<bf16>().size(), 0u)
        << "aucune étape inscrite : le test.cu doit déclarer un LadderTests<…>";
}

}  // namespace

}  // namespace noyaux::gemm
