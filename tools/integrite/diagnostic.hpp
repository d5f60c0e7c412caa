/**
 * @file diagnostic.hpp
 * @brief Une erreur d'intégrité, au format des compilateurs : « fichier:ligne: message ».
 */
#pragma once

#include <string>
#include <tuple>

namespace noyaux::integrity {

/** @brief Une violation d'une règle, située dans un fichier du dépôt. */
struct Diagnostic {
    std::string file;     ///< chemin relatif à la racine du dépôt, séparateurs « / »
    int line = 1;         ///< ligne fautive, 1 quand aucune ligne précise ne s'impose
    std::string message;  ///< en français : ce qui ne va pas, et si possible comment corriger

    /** @brief Tri par fichier, puis ligne : l'ordre de lecture d'un éditeur. */
    friend bool operator<(const Diagnostic& a, const Diagnostic& b) {
        return std::tie(a.file, a.line, a.message) < std::tie(b.file, b.line, b.message);
    }
    friend bool operator==(const Diagnostic&, const Diagnostic&) = default;

    /** @brief La ligne affichée : « fichier:ligne: message ». */
    std::string format() const { return file + ":" + std::to_string(line) + ": " + message; }
};

}  // namespace noyaux::integrity
