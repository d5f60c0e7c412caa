/**
 * @file program.hpp
 * @brief Le programme noyaux-integrite : arguments, codes de sortie, affichage.
 */
#pragma once

#include <ostream>
#include <string_view>
#include <vector>

namespace noyaux::integrity {

/** @brief Codes de sortie du programme. */
enum ExitCode : int {
    kAllGood = 0,     ///< aucune erreur
    kViolations = 1,  ///< au moins une règle violée ; les erreurs sont affichées
    kBadInput = 2,    ///< arguments invalides, racine ou manifeste absent ou mal formé
};

/**
 * @brief Exécute noyaux-integrite avec les arguments @p arguments (sans le nom du programme).
 *        Les erreurs d'intégrité et le bilan vont sur @p out, les erreurs d'usage sur @p err.
 * @return un ExitCode.
 */
int run(const std::vector<std::string_view>& arguments, std::ostream& out, std::ostream& err);

}  // namespace noyaux::integrity
