/**
 * @file anatomy.hpp
 * @brief L'anatomie d'un exemple, écrite une seule fois : ses fichiers dans l'ordre de
 *        lecture (README, tests, benchmark, noyau, programme), et ceux qui sont requis.
 *
 * Les règles 5 (fichiers requis) et 7 (ordre de lecture du README) s'en servent, et le
 * site la reçoit par « noyaux-integrite --ordre-de-lecture » pour présenter les fichiers
 * d'un exemple : ni CMake ni le site ne la répètent.
 */
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "manifest.hpp"

namespace noyaux::integrity {

/** @brief Un fichier de l'anatomie d'un exemple. */
struct ExampleFile {
    std::string name;                   ///< relatif au dossier de l'exemple
    bool required = true;               ///< son absence est une erreur (règle 5)
    bool cited = true;                  ///< la section « Ordre de lecture » du README le cite (règle 7)
    std::string what;                   ///< son nom dans les messages
    std::vector<std::string> mentions;  ///< ce qui, dans le README, vaut citation
};

/**
 * @brief Les fichiers de l'exemple @p entry, dans l'ordre de lecture : README.md, test.cu,
 *        bench.cu (requis si le manifeste l'annonce ; sinon un benchmark commun à la
 *        partie peut être cité), <nom>.cuh, main.cu, puis CMakeLists.txt.
 */
std::vector<ExampleFile> example_files(const ManifestEntry& entry);

/**
 * @brief Les fichiers de @p entry présents dans @p root / dossier, dans l'ordre de lecture.
 */
std::vector<std::string> present_files(const std::filesystem::path& root,
                                       const ManifestEntry& entry);

}  // namespace noyaux::integrity
