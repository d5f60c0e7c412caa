/**
 * @file glossary.hpp
 * @brief Le glossaire de Noyaux lu depuis glossary/ : une fiche par terme, en-tête YAML lu par
 *        yaml-cpp (noyaux_yaml_header), recherche insensible aux accents et à la casse.
 */
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostic.hpp"

namespace noyaux::glossary {

using noyaux::integrity::Diagnostic;

/** @brief Les quatre catégories du glossaire, dans l'ordre où on les présente. */
inline constexpr std::string_view kCategories[] = {
    "matériel", "logiciel côté GPU", "logiciel côté hôte", "performance"};

/** @brief Une fiche du glossaire (glossary/<slug>.md). */
struct Term {
    std::string slug;                    ///< nom du fichier sans « .md »
    std::string file;                    ///< chemin affiché : glossary/<slug>.md
    std::string french;                  ///< terme
    std::string english;                 ///< anglais
    std::string abbreviation;            ///< abreviation (vide s'il n'y en a pas)
    std::vector<std::string> aliases;    ///< alias
    std::string category;                ///< categorie
    std::string architecture;            ///< architecture
    std::vector<std::string> see_also;   ///< voir_aussi (slugs)
    int see_also_line = 1;               ///< ligne de la clé voir_aussi
    std::vector<std::string> examples;   ///< exemples (dossiers relatifs à la racine)
    int examples_line = 1;               ///< ligne de la clé exemples
    std::vector<std::pair<std::string, std::string>> sources;  ///< sources : (titre, url)
    std::string body;                    ///< corps Markdown (après l'en-tête)
    std::string definition;              ///< première phrase du corps, sans balisage Markdown
    std::vector<std::pair<std::string, int>> links;  ///< liens relatifs du corps, et leur ligne
};

/** @brief Le glossaire chargé, et les défauts de ses fichiers. */
struct Glossary {
    std::vector<Term> terms;                  ///< triés par slug
    std::vector<Diagnostic> errors;           ///< fichier, ligne, message en français

    /** @brief La fiche de slug @p slug, ou nullptr. */
    const Term* find_slug(std::string_view slug) const;
};

/**
 * @brief Charge tous les fichiers « *.md » de @p directory. @p shown_prefix précède le nom
 *        de fichier dans les messages (« glossary/ »). Les fichiers mal formés sont écartés
 *        et signalés dans @c errors ; les « voir aussi » et liens vers un slug absent aussi.
 */
Glossary load(const std::filesystem::path& directory, std::string_view shown_prefix);

/**
 * @brief Forme de comparaison : minuscules, sans accents (é → e, œ → oe), « - », « _ » et
 *        apostrophes changés en espaces, espaces réduites à une seule, sans espaces aux bouts.
 */
std::string normalize(std::string_view text);

/** @brief Distance d'édition (Damerau–Levenshtein restreinte : une transposition coûte 1). */
std::size_t edit_distance(std::string_view a, std::string_view b);

/** @brief La première phrase d'un corps Markdown, liens, gras et code réduits à leur texte. */
std::string first_sentence(std::string_view body);

/** @brief Résultat d'une recherche : fiches trouvées, sinon les plus proches. */
struct Lookup {
    std::vector<const Term*> matches;      ///< égalité exacte (forme normalisée)
    std::vector<const Term*> suggestions;  ///< à faible distance d'édition, les plus proches d'abord
};

/** @brief Cherche @p query parmi terme, anglais, abréviation, alias et slug de chaque fiche. */
Lookup lookup(const Glossary& glossary, std::string_view query);

/** @brief Commande ctest d'un exemple « examples/<partie>/<NN-slug> » (convention des tests). */
std::string ctest_command(std::string_view example);

}  // namespace noyaux::glossary
