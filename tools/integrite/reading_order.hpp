/**
 * @file
 * @brief Règle 7 : le README d'un exemple propose la méthode de lecture d'un dépôt de
 *        noyaux, dans l'ordre de son anatomie (anatomy.hpp) : README, tests, benchmark,
 *        noyau, programme.
 */
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "anatomy.hpp"

namespace noyaux::integrity {

/** @brief Un écart à l'ordre de lecture : ligne du README (à partir de 1) et message. */
struct ReadingOrderProblem {
    int line;             ///< ligne du README concernée
    std::string message;  ///< en français
};

/**
 * @brief Vérifie la section « ## Ordre de lecture » de @p readme : elle existe, et y sont
 *        cités, dans l'ordre de @p files, les fichiers que l'anatomie fait citer ; un fichier
 *        non requis (benchmark commun, pas de bench.cu) peut ne pas l'être.
 */
std::optional<ReadingOrderProblem> check_reading_order(const std::vector<std::string>& readme,
                                                       const std::vector<ExampleFile>& files);

}  // namespace noyaux::integrity
