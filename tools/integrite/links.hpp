/**
 * @file links.hpp
 * @brief Les liens relatifs d'un texte Markdown : « [texte](cible) » et « [id]: cible ».
 */
#pragma once

#include <string>
#include <vector>

namespace noyaux::integrity {

/** @brief La cible d'un lien relatif et sa ligne (à partir de 1). */
struct LinkTarget {
    std::string path;  ///< sans ancre : « page.md#x » donne « page.md »
    int line = 1;
};

/**
 * @brief Les cibles des liens relatifs de @p lines, dans l'ordre du texte. Les adresses
 *        (https:, mailto:…), les chemins absolus, les ancres seules et les blocs de code
 *        délimités par « ``` » sont ignorés.
 */
std::vector<LinkTarget> find_link_targets(const std::vector<std::string>& lines);

}  // namespace noyaux::integrity
