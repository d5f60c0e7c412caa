/**
 * @file snippets.hpp
 * @brief Inclusions d'extraits de code (pymdownx.snippets) : les lignes « --8<-- "chemin:section" »
 *        des pages, et les sections « --8<-- [start:nom] » … « --8<-- [end:nom] » des sources.
 *
 * La syntaxe reconnue suit celle de pymdown-extensions (≥ 9.7) : ce que l'extension inclurait,
 * la vérification le vérifie ; ce qu'elle afficherait tel quel (« ;--8<-- », ligne mal formée)
 * n'est pas une inclusion.
 */
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostic.hpp"

namespace noyaux::integrity {

/** @brief Une inclusion demandée par une page. */
struct Inclusion {
    std::string path;     ///< fichier inclus, relatif à la racine du dépôt
    std::string section;  ///< section nommée ; vide quand tout le fichier est inclus
    int line = 1;         ///< ligne de la page
};

/** @brief Les inclusions d'une page, et les lignes d'inclusion qu'on ne peut pas vérifier. */
struct PageInclusions {
    std::vector<Inclusion> inclusions;
    std::vector<Diagnostic> errors;
};

/**
 * @brief Relève les inclusions des lignes @p lines de la page @p file, à partir de la
 *        ligne @p first_line (1 = toute la page ; l'en-tête YAML n'est pas lu par l'extension).
 */
PageInclusions find_inclusions(const std::vector<std::string>& lines, std::string_view file,
                               int first_line = 1);

/** @brief Les marqueurs de section d'un fichier source : pour chaque nom, leurs lignes. */
struct SectionMarkers {
    std::map<std::string, std::vector<int>, std::less<>> starts;
    std::map<std::string, std::vector<int>, std::less<>> ends;
};

/** @brief Relève les marqueurs « --8<-- [start:nom] » et « --8<-- [end:nom] » de @p lines. */
SectionMarkers find_sections(const std::vector<std::string>& lines);

/**
 * @brief Vérifie que la section @p section de @p path a un début et une fin, chacun une
 *        seule fois, le début avant la fin.
 * @return le message d'erreur, ou std::nullopt si la section est bien formée.
 */
std::optional<std::string> check_section(const SectionMarkers& markers, std::string_view section,
                                         std::string_view path);

}  // namespace noyaux::integrity
