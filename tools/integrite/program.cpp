/**
 * @file program.cpp
 * @brief Le programme noyaux-integrite : arguments, codes de sortie, affichage.
 */
#include "program.hpp"

#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "anatomy.hpp"
#include "integrity.hpp"
#include "manifest.hpp"
#include "text.hpp"

namespace noyaux::integrity {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kProgram = "noyaux-integrite";
constexpr std::string_view kUsage =
    "usage : noyaux-integrite --racine DOSSIER --manifeste FICHIER.tsv [--ordre-de-lecture]\n"
    "\n"
    "Vérifie que les pages de DOSSIER/docs, les exemples du manifeste (écrit par CMake dans\n"
    "build/noyaux-exemples.tsv) et les extraits de code inclus par les pages se tiennent.\n"
    "Avec --ordre-de-lecture, ne vérifie rien : écrit pour chaque exemple une ligne « dossier »\n"
    "suivie de ses fichiers présents, dans l'ordre de lecture, séparés par des tabulations\n"
    "(le site présente les fichiers d'un exemple dans cet ordre).\n"
    "Codes de sortie : 0 aucune erreur, 1 erreurs trouvées, 2 arguments ou entrées invalides.\n";

struct Options {
    std::optional<std::string> root;
    std::optional<std::string> manifest;
    bool help = false;
    bool reading_order = false;
};

// Une erreur d'usage : message déjà rédigé, le programme sort avec le code 2.
struct UsageError {
    std::string message;
};

Options parse_options(const std::vector<std::string_view>& arguments) {
    Options options;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string_view argument = arguments[i];
        if (argument == "--aide" || argument == "-h" || argument == "--help") {
            options.help = true;
            continue;
        }
        if (argument == "--ordre-de-lecture") {
            options.reading_order = true;
            continue;
        }
        // « --option valeur » ou « --option=valeur ».
        const std::size_t equal = argument.find('=');
        const std::string_view name = argument.substr(0, equal);
        std::optional<std::string>* target = name == "--racine"      ? &options.root
                                             : name == "--manifeste" ? &options.manifest
                                                                     : nullptr;
        if (target == nullptr)
            throw UsageError{"option inconnue " + guillemets(argument) +
                             " ; options : --racine, --manifeste, --ordre-de-lecture, --aide"};
        if (equal != std::string_view::npos)
            *target = std::string(argument.substr(equal + 1));
        else if (i + 1 < arguments.size())
            *target = std::string(arguments[++i]);
        else
            throw UsageError{std::string(name) + " : valeur manquante"};
        if ((*target)->empty()) throw UsageError{std::string(name) + " : valeur vide"};
    }
    if (options.help) return options;
    if (!options.root) throw UsageError{"option « --racine » manquante"};
    if (!options.manifest) throw UsageError{"option « --manifeste » manquante"};
    return options;
}

void check_root(const fs::path& root) {
    std::error_code error;
    if (!fs::exists(root, error))
        throw UsageError{"--racine : " + guillemets(root.string()) + " n'existe pas"};
    if (!fs::is_directory(root / "docs", error))
        throw UsageError{"--racine : " + guillemets(root.string()) +
                         " n'a pas de dossier docs/ : est-ce bien la racine du dépôt ?"};
}

void print_report(const Report& report, std::ostream& out) {
    std::set<std::string_view> files;
    for (const Diagnostic& error : report.errors) {
        out << error.format() << '\n';
        files.insert(error.file);
    }
    out << kProgram << " : ";
    if (report.errors.empty())
        out << count_of(report.pages, "page", "pages") << ", "
            << count_of(report.examples, "exemple", "exemples") << ", "
            << count_of(report.inclusions, "extrait", "extraits") << " vérifiés ; aucune erreur\n";
    else
        out << count_of(report.errors.size(), "erreur", "erreurs") << " dans "
            << count_of(files.size(), "fichier", "fichiers") << '\n';
}

}  // namespace

int run(const std::vector<std::string_view>& arguments, std::ostream& out, std::ostream& err) {
    try {
        const Options options = parse_options(arguments);
        if (options.help) {
            out << kUsage;
            return kAllGood;
        }
        check_root(*options.root);
        std::vector<ManifestEntry> manifest;
        try {
            manifest = read_manifest(*options.manifest);
        } catch (const ManifestError& error) {
            throw UsageError{"manifeste " + guillemets(*options.manifest) + " : " + error.what()};
        }
        if (options.reading_order) {
            for (const ManifestEntry& entry : manifest) {
                out << entry.folder;
                for (const std::string& file : present_files(*options.root, entry)) out << '\t' << file;
                out << '\n';
            }
            return kAllGood;
        }
        const Report report = check_repository(*options.root, manifest);
        print_report(report, out);
        return report.errors.empty() ? kAllGood : kViolations;
    } catch (const UsageError& error) {
        err << kProgram << " : " << error.message << '\n';
        if (arguments.empty()) err << kUsage;
        return kBadInput;
    }
}

}  // namespace noyaux::integrity
