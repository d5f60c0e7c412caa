/**
 * @file program.hpp
 * @brief La commande « glossaire » : chercher un terme, lister, vérifier, exporter.
 *
 * Codes de sortie : 0 trouvé (ou liste, vérification réussie) ; 1 terme introuvable (avec ou
 * sans propositions) ou vérification en échec ; 2 usage incorrect ou glossaire mal formé.
 */
#pragma once

#include <filesystem>
#include <ostream>
#include <string_view>
#include <vector>

namespace noyaux::glossary {

/** @brief Exécute la commande avec @p arguments (sans le nom du programme). */
int run(const std::vector<std::string_view>& arguments, const std::filesystem::path& default_directory,
        std::ostream& out, std::ostream& err);

}  // namespace noyaux::glossary
