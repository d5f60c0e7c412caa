/**
 * @file integrity.hpp
 * @brief Les règles d'intégrité entre pages, exemples et extraits de code.
 *
 *  1. Chaque page nomme au moins un exemple (« exemples ») ou dit pourquoi elle n'en a pas
 *     (« sans_exemple ») ; jamais les deux.
 *  2. Chaque exemple nommé existe dans le manifeste et a au moins un test ctest.
 *  3. Chaque exemple du manifeste est nommé par au moins une page.
 *  4. Chaque inclusion d'extrait désigne un fichier existant et, avec « :section », une
 *     section bien formée (début et fin, une fois chacun, dans cet ordre).
 *  5. Chaque dossier d'exemple a les fichiers que son anatomie requiert (anatomy.hpp) :
 *     README.md, <nom>.cuh, main.cu, test.cu, et bench.cu ou la raison de son absence.
 *  6. Un en-tête YAML mal formé est une erreur située, jamais un arrêt.
 *  7. Le README de chaque exemple a une section « Ordre de lecture » qui cite, dans l'ordre
 *     de l'anatomie, test.cu, le benchmark, <nom>.cuh et main.cu (voir reading_order.hpp).
 *  8. Le README de chaque exemple renvoie (lien relatif) vers chaque page qui le nomme.
 */
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

#include "diagnostic.hpp"
#include "manifest.hpp"

namespace noyaux::integrity {

/** @brief Le résultat d'une vérification : les erreurs triées, et ce qui a été vérifié. */
struct Report {
    std::vector<Diagnostic> errors;  ///< triées par fichier puis par ligne
    std::size_t pages = 0;           ///< pages lues
    std::size_t examples = 0;        ///< exemples du manifeste
    std::size_t inclusions = 0;      ///< inclusions d'extraits vérifiées
};

/**
 * @brief Vérifie les pages de @p root/docs (fichiers .md, hors dossiers « api ») et les
 *        exemples de @p manifest, dont les dossiers sont relatifs à @p root.
 */
Report check_repository(const std::filesystem::path& root,
                        const std::vector<ManifestEntry>& manifest);

}  // namespace noyaux::integrity
