/**
 * @file
 * @brief Ce que devient une exception levée pendant le contrôle d'un noyau contre cuBLAS
 *        (harness.cuh, verify_once) : une mesure manquante ou l'échec du benchmark. Sans
 *        CUDA, pour être testé sur l'hôte (common/tests/test_verification_echelle.cpp).
 */
#pragma once

#include "gemm/common/gemm.hpp"

#include <exception>
#include <string>

namespace noyaux::gemm::ladder_bench {

/** @brief Le verdict sur une exception levée pendant le contrôle d'un noyau. */
struct VerificationError {
    bool fatal = true;    ///< vrai : le benchmark entier échoue (code 1) ; faux : « non mesuré »
    std::string message;  ///< la raison, en français
};

/**
 * @brief Juge l'exception @p error, levée pendant le contrôle de @p kernel à la forme @p shape.
 *
 * Seul le refus de la forme par le noyau (UnsupportedShapeError, levée avant tout lancement)
 * fait une mesure manquante. Toute autre erreur (une erreur CUDA pendant l'exécution, comme
 * un accès hors limites ; un argument refusé ; une exception inconnue) est un défaut du noyau
 * ou du banc : la taire laisserait croire à une forme simplement non mesurée. La mémoire
 * insuffisante est jugée plus tôt, à la préparation des matrices (workspace_for), hors du contrôle.
 */
inline VerificationError judge_verification_error(const std::exception_ptr& error, const std::string& kernel,
                                                  const Shape& shape) {
    const std::string context = "ÉCHEC : " + kernel + " a échoué pendant son contrôle contre cuBLAS à " +
                                to_string(shape) + " : ";
    try {
        std::rethrow_exception(error);
    } catch (const UnsupportedShapeError& refusal) {
        return {false, refusal.what()};
    } catch (const std::exception& other) {
        return {true, context + other.what()};
    } catch (...) {
        return {true, context + "exception d'un type inconnu"};
    }
}

}  // namespace noyaux::gemm::ladder_bench
