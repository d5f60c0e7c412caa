/**
 * @file text.hpp
 * @brief Petits outils de texte partagés par les vérifications : lecture ligne à ligne,
 *        espaces, guillemets, accords en nombre.
 */
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace noyaux::integrity {

/**
 * @brief Lit un fichier texte ligne par ligne, sans les fins de ligne (LF ou CRLF) ni
 *        l'éventuelle marque d'ordre des octets UTF-8.
 * @return std::nullopt si le fichier n'existe pas ou ne peut être lu.
 */
std::optional<std::vector<std::string>> read_lines(const std::filesystem::path& file);

/** @brief @p text sans les espaces et tabulations de début et de fin. */
std::string_view trim(std::string_view text);

/** @brief Découpe @p text à chaque @p separator (les morceaux vides sont gardés). */
std::vector<std::string> split(std::string_view text, char separator);

/** @brief « texte » entre guillemets français, espaces comprises. */
std::string guillemets(std::string_view text);

/** @brief « 1 page », « 3 pages » : en français, 0 et 1 prennent le singulier. */
std::string count_of(std::size_t count, std::string_view singular, std::string_view plural);

}  // namespace noyaux::integrity
