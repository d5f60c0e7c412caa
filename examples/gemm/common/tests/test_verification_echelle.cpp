/**
 * @file
 * @brief Tests du verdict du benchmark de l'échelle sur une erreur levée pendant le contrôle
 *        d'un noyau contre cuBLAS (echelle/verification.hpp), sans GPU : seul le refus de la
 *        forme donne « non mesuré », toute autre erreur fait échouer le benchmark.
 */
#include "gemm/echelle/verification.hpp"

#include <gtest/gtest.h>

#include <exception>
#include <stdexcept>
#include <string>

namespace noyaux::gemm::ladder_bench {
namespace {

const Shape kShape{1024, 2048, 512};

template <typename Error>
VerificationError judge(const Error& error) {
    return judge_verification_error(std::make_exception_ptr(error), "sgemm_test", kShape);
}

TEST(VerificationEchelle, ShapeRefusalIsNotMeasured) {
    const VerificationError verdict = judge(UnsupportedShapeError("sgemm_test : forme refusée"));
    EXPECT_FALSE(verdict.fatal);
    EXPECT_EQ(verdict.message, "sgemm_test : forme refusée");
}

TEST(VerificationEchelle, CudaErrorDuringTheCheckFailsTheBenchmark) {
    // NOYAUX_CHECK_LAUNCH lève une CudaError, dérivée de std::runtime_error.
    const VerificationError verdict =
        judge(std::runtime_error("erreur CUDA cudaErrorIllegalAddress (an illegal memory access was encountered)"));
    EXPECT_TRUE(verdict.fatal);
    EXPECT_EQ(verdict.message,
              "ÉCHEC : sgemm_test a échoué pendant son contrôle contre cuBLAS à 1024×2048×512 : "
              "erreur CUDA cudaErrorIllegalAddress (an illegal memory access was encountered)");
}

TEST(VerificationEchelle, OtherRefusalsAndUnknownExceptionsFailTheBenchmark) {
    // Un argument refusé qui n'est pas la forme (pointeur nul, dimension principale) est un
    // défaut du banc, pas une forme à sauter.
    const VerificationError refused = judge(std::invalid_argument("sgemm_test : A, B et C doivent être non nuls"));
    EXPECT_TRUE(refused.fatal);
    EXPECT_NE(refused.message.find("non nuls"), std::string::npos) << refused.message;
    const VerificationError unknown = judge(42);
    EXPECT_TRUE(unknown.fatal);
    EXPECT_NE(unknown.message.find("exception d'un type inconnu"), std::string::npos) << unknown.message;
}

}  // namespace
}  // namespace noyaux::gemm::ladder_bench
