/**
 * @file
 * @brief Règle 7 : le README d'un exemple propose la méthode de lecture d'un dépôt de
 *        noyaux, dans l'ordre : README, tests, benchmark, noyau, programme.
 */
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace noyaux::integrity {

/** @brief Un écart à l'ordre de lecture : ligne du README (à partir de 1) et message. */
struct ReadingOrderProblem {
    int line;             ///< ligne du README concernée
    std::string message;  ///< en français
};

/**
 * @brief Vérifie la section « ## Ordre de lecture » de @p readme : elle existe, et y sont
 *        cités dans cet ordre test.cu, le benchmark (bench.cu, ou son dossier commun s'il
 *        est cité), @p kernel_header (<nom>.cuh) puis main.cu.
 * @param has_benchmark l'exemple a un bench.cu, qui doit alors être cité
 */
std::optional<ReadingOrderProblem> check_reading_order(const std::vector<std::string>& readme,
                                                       const std::string& kernel_header,
                                                       bool has_benchmark);

}  // namespace noyaux::integrity
