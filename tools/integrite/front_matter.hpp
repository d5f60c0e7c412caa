/**
 * @file front_matter.hpp
 * @brief Les deux clés de l'en-tête YAML d'une page que la vérification lit : « exemples »
 *        (liste de dossiers) et « sans_exemple » (raison), chacune avec sa ligne.
 *
 * L'en-tête est lu par yaml-cpp (yaml_header.hpp) ; une forme fausse est une erreur située,
 * jamais un arrêt.
 */
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostic.hpp"

namespace noyaux::integrity {

/** @brief Une valeur de l'en-tête et la ligne où elle est écrite. */
struct Located {
    std::string value;
    int line = 1;
};

/** @brief Ce que l'en-tête d'une page déclare. */
struct FrontMatter {
    int body_line = 1;                    ///< première ligne du corps de la page
    std::optional<int> examples_line;     ///< ligne de la clé « exemples: », si présente
    std::vector<Located> examples;        ///< dossiers d'exemples nommés, dans l'ordre
    std::optional<Located> no_example;    ///< raison donnée par « sans_exemple: », si présente
    std::vector<Diagnostic> errors;       ///< en-tête mal formé (règle 6)
};

/**
 * @brief Analyse l'en-tête des lignes @p lines de la page @p file (chemin affiché dans les
 *        erreurs). Une page sans en-tête donne un FrontMatter vide, corps à la ligne 1.
 */
FrontMatter parse_front_matter(const std::vector<std::string>& lines, std::string_view file);

}  // namespace noyaux::integrity
