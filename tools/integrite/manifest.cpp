/**
 * @file manifest.cpp
 * @brief Lecture du manifeste des exemples écrit par CMake.
 */
#include "manifest.hpp"

#include "text.hpp"

namespace noyaux::integrity {
namespace {

constexpr std::size_t kColumnCount = 7;

std::vector<std::string> non_empty(const std::string& list) {
    std::vector<std::string> items;
    for (std::string& item : split(list, ','))
        if (!item.empty()) items.push_back(std::move(item));
    return items;
}

}  // namespace

std::vector<ManifestEntry> parse_manifest(const std::vector<std::string>& lines) {
    if (lines.empty() || lines.front() != kManifestHeader)
        throw ManifestError(
            "ligne 1 : en-tête inattendu " + guillemets(lines.empty() ? "" : lines.front()) +
            " ; attendu les colonnes partie, slug, dossier, nom, backends, tests, benchmark "
            "séparées par des tabulations");
    std::vector<ManifestEntry> entries;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        if (lines[i].empty()) continue;
        const std::string where = "ligne " + std::to_string(i + 1) + " : ";
        std::vector<std::string> columns = split(lines[i], '\t');
        if (columns.size() != kColumnCount)
            throw ManifestError(where + count_of(columns.size(), "colonne", "colonnes") +
                                " au lieu de " + std::to_string(kColumnCount));
        if (columns[2].empty() || columns[3].empty())
            throw ManifestError(where + "colonne « dossier » ou « nom » vide");
        entries.push_back({std::move(columns[0]), std::move(columns[1]), std::move(columns[2]),
                           std::move(columns[3]), non_empty(columns[4]), non_empty(columns[5]),
                           std::move(columns[6])});
    }
    return entries;
}

std::vector<ManifestEntry> read_manifest(const std::filesystem::path& file) {
    std::error_code error;
    if (!std::filesystem::exists(file, error))
        throw ManifestError("introuvable ; CMake l'écrit à la configuration "
                            "(cmake --preset default)");
    const auto lines = read_lines(file);
    if (!lines) throw ManifestError("illisible, ou n'est pas un fichier");
    return parse_manifest(*lines);
}

}  // namespace noyaux::integrity
