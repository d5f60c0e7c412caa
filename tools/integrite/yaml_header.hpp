/**
 * @file yaml_header.hpp
 * @brief L'en-tête YAML d'un fichier Markdown (entre deux lignes « --- »), lu par yaml-cpp.
 *
 * API réutilisable : les pages du site (noyaux-integrite) et les fiches du glossaire ont le
 * même en-tête. Une erreur donne le fichier et la ligne du fichier Markdown (pas de
 * l'en-tête seul) et un message en français.
 */
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "diagnostic.hpp"

namespace noyaux::integrity {

/** @brief L'en-tête d'un fichier Markdown, et où commence le corps. */
struct YamlHeader {
    bool present = false;              ///< le fichier s'ouvre sur « --- »
    YAML::Node node;                   ///< le document YAML ; nul sans en-tête ou s'il est illisible
    int first_line = 2;                ///< ligne du fichier de la première ligne YAML
    int body_line = 1;                 ///< première ligne du corps (après le « --- » fermant)
    std::optional<Diagnostic> error;   ///< en-tête mal formé : fichier, ligne, message français

    /** @brief Ligne du fichier où @p value est écrit (la ligne d'ouverture s'il n'a pas de position). */
    int line_of(const YAML::Node& value) const;
};

/**
 * @brief Lit l'en-tête des lignes @p lines du fichier @p file (nom affiché dans les erreurs).
 *
 * Comme MkDocs : « --- » ouvre l'en-tête sur la première ligne, « --- » ou « ... » le ferme.
 * L'en-tête doit être une table (clé: valeur) ; une clé de premier niveau répétée est une
 * erreur (YAML ne garderait qu'une des valeurs). Ne lève jamais : l'erreur est dans @c error.
 */
YamlHeader parse_yaml_header(const std::vector<std::string>& lines, std::string_view file);

/**
 * @brief Lit le fichier @p path et son en-tête ; @p shown est le nom affiché dans les erreurs
 *        (chemin relatif à la racine du dépôt, en général). Un fichier illisible est une erreur.
 */
YamlHeader read_yaml_header(const std::filesystem::path& path, std::string_view shown);

}  // namespace noyaux::integrity
