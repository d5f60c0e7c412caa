/**
 * @file links.hpp
 * @brief Les liens relatifs d'un texte Markdown : « [texte](cible) » et « [id]: cible ».
 */
#pragma once

#include <string>
#include <vector>

namespace noyaux::integrity {

/**
 * @brief Les cibles des liens relatifs de @p lines, sans ancre (« page.md#x » → « page.md »),
 *        dans l'ordre du texte. Les adresses (https:, mailto:…), les chemins absolus, les
 *        ancres seules et les blocs de code délimités par « ``` » sont ignorés.
 */
std::vector<std::string> find_link_targets(const std::vector<std::string>& lines);

}  // namespace noyaux::integrity
