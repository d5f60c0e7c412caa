/**
 * @file manifest.hpp
 * @brief Le manifeste des exemples, build/noyaux-exemples.tsv, écrit par CMake
 *        (noyaux_write_example_manifest) : une ligne par exemple déclaré.
 */
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace noyaux::integrity {

/** @brief Une ligne du manifeste : un exemple tel que CMake l'a déclaré. */
struct ManifestEntry {
    std::string part;                   ///< partie du site (ressources, gemm…)
    std::string slug;                   ///< NN-slug du dossier
    std::string folder;                 ///< relatif à la racine : examples/<partie>/<NN-slug>
    std::string name;                   ///< slug sans numéro : nom du programme et de <nom>.cuh
    std::vector<std::string> backends;  ///< gpu, cpu
    std::vector<std::string> tests;     ///< noms ctest de l'exemple
    std::string benchmark;              ///< « bench.cu » ou « sans benchmark : <raison> »
};

/** @brief Manifeste absent, illisible ou mal formé : la vérification ne peut pas commencer. */
class ManifestError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/** @brief L'en-tête attendu, colonnes séparées par des tabulations. */
inline constexpr std::string_view kManifestHeader =
    "partie\tslug\tdossier\tnom\tbackends\ttests\tbenchmark";

/**
 * @brief Analyse le texte du manifeste, ligne par ligne (les lignes vides sont ignorées).
 * @throws ManifestError pour un en-tête inattendu, un nombre de colonnes faux ou un
 *         dossier ou un nom vide ; le message donne la ligne.
 */
std::vector<ManifestEntry> parse_manifest(const std::vector<std::string>& lines);

/**
 * @brief Lit et analyse le manifeste @p file.
 * @throws ManifestError si le fichier est absent, illisible ou mal formé.
 */
std::vector<ManifestEntry> read_manifest(const std::filesystem::path& file);

}  // namespace noyaux::integrity
