/**
 * @file program.cpp
 * @brief Arguments, affichage et codes de sortie de la commande « glossaire ».
 */
#include "program.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "glossary.hpp"
#include "manifest.hpp"
#include "text.hpp"

namespace noyaux::glossary {
namespace {

using integrity::count_of;
using integrity::guillemets;

constexpr int kFound = 0;
constexpr int kNotFound = 1;
constexpr int kUsage = 2;

constexpr std::string_view kUsageText =
    "Usage :\n"
    "  glossaire TERME…                 définition, voir aussi, exemple et commande ctest\n"
    "  glossaire --liste [--categorie C] tous les termes (C : matériel, « logiciel côté GPU »,\n"
    "                                   « logiciel côté hôte », performance)\n"
    "  glossaire --verifier --manifeste build/noyaux-exemples.tsv [--a-venir FICHIER]\n"
    "                                   renvois et exemples de chaque fiche (tests docs)\n"
    "  glossaire --exporter             les fiches en JSON, une par ligne (pour le site)\n"
    "Options : --dossier DOSSIER (par défaut le glossary/ du dépôt), --aide.\n"
    "Accents, majuscules, tirets indifférents : « memoire partagee » trouve « Mémoire partagée ».\n";

struct Options {
    std::filesystem::path directory;
    bool list = false, verify = false, export_json = false, help = false;
    std::optional<std::string> category, manifest, pending;
    std::vector<std::string_view> words;
};

std::string title_of(const Term& term) {
    std::string title = term.french;
    if (normalize(term.english) != normalize(term.french)) title += " — " + term.english;
    if (!term.abbreviation.empty() && normalize(term.abbreviation) != normalize(term.french))
        title += " (" + term.abbreviation + ")";
    return title;
}

bool report_errors(const Glossary& glossary, std::ostream& err) {
    if (glossary.errors.empty()) return false;
    for (const auto& error : glossary.errors) err << error.format() << '\n';
    std::set<std::string> files;
    for (const auto& error : glossary.errors) files.insert(error.file);
    err << "glossaire : " << count_of(glossary.errors.size(), "erreur", "erreurs") << " dans "
        << count_of(files.size(), "fichier", "fichiers") << " ; corrigez-les (le format est décrit "
        << "dans l'en-tête de chaque fiche : terme, anglais, categorie, voir_aussi, exemples, sources)\n";
    return true;
}

void print_term(const Glossary& glossary, const Term& term, std::ostream& out) {
    out << title_of(term) << '\n'
        << "  Catégorie : " << term.category << " ; architecture : " << term.architecture << '\n'
        << "  " << term.definition << '\n';
    std::string see_also;
    for (const auto& slug : term.see_also) {
        const Term* other = glossary.find_slug(slug);
        if (!see_also.empty()) see_also += ", ";
        see_also += other ? other->french : slug;
    }
    out << "  Voir aussi : " << see_also << '\n';
    out << "  " << (term.examples.size() == 1 ? "Exemple :" : "Exemples :") << '\n';
    for (const auto& example : term.examples)
        out << "    " << example << "\n      " << ctest_command(example) << '\n';
    out << "  Fiche : " << term.file << '\n';
}

int list_terms(const Glossary& glossary, const Options& options, std::ostream& out, std::ostream& err) {
    if (options.category) {
        const std::string wanted = normalize(*options.category);
        if (std::ranges::none_of(kCategories, [&](std::string_view c) { return normalize(c) == wanted; })) {
            err << "glossaire : catégorie inconnue " << guillemets(*options.category)
                << " ; catégories : matériel, « logiciel côté GPU », « logiciel côté hôte », performance\n";
            return kUsage;
        }
    }
    for (std::string_view category : kCategories) {
        if (options.category && normalize(*options.category) != normalize(category)) continue;
        std::vector<const Term*> terms;
        for (const auto& term : glossary.terms)
            if (term.category == category) terms.push_back(&term);
        std::ranges::sort(terms, {}, [](const Term* t) { return normalize(t->french); });
        out << category << " (" << count_of(terms.size(), "terme", "termes") << ")\n";
        for (const Term* term : terms) out << "  " << title_of(*term) << "   [" << term->slug << "]\n";
    }
    return kFound;
}

int find_term(const Glossary& glossary, std::string_view query, std::ostream& out, std::ostream& err) {
    const Lookup found = lookup(glossary, query);
    if (!found.matches.empty()) {
        for (std::size_t i = 0; i < found.matches.size(); ++i) {
            if (i > 0) out << '\n';
            print_term(glossary, *found.matches[i], out);
        }
        return kFound;
    }
    err << "glossaire : " << guillemets(query) << " n'est pas dans le glossaire";
    if (found.suggestions.empty()) {
        err << " (" << count_of(glossary.terms.size(), "terme", "termes")
            << ") ; « glossaire --liste » les énumère tous.\n";
    } else {
        err << ". Vouliez-vous dire :\n";
        for (const Term* term : found.suggestions) err << "  " << title_of(*term) << "   [" << term->slug << "]\n";
    }
    return kNotFound;
}

std::string json(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char code[8];
                    std::snprintf(code, sizeof code, "\\u%04x", c);
                    out += code;
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

std::string json(const std::vector<std::string>& items) {
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += ',';
        out += json(items[i]);
    }
    return out + "]";
}

std::string sources_json(const Term& term) {
    std::string out = "[";
    for (const auto& [title, url] : term.sources) {
        if (out.size() > 1) out += ',';
        out += "{\"titre\":" + json(title) + ",\"url\":" + json(url) + "}";
    }
    return out + "]";
}

int export_terms(const Glossary& glossary, std::ostream& out) {
    for (const auto& t : glossary.terms)
        out << "{\"slug\":" << json(t.slug) << ",\"fichier\":" << json(t.file) << ",\"terme\":" << json(t.french)
            << ",\"anglais\":" << json(t.english) << ",\"abreviation\":" << json(t.abbreviation)
            << ",\"alias\":" << json(t.aliases) << ",\"categorie\":" << json(t.category)
            << ",\"architecture\":" << json(t.architecture) << ",\"voir_aussi\":" << json(t.see_also)
            << ",\"exemples\":" << json(t.examples) << ",\"definition\":" << json(t.definition) << ",\"sources\":" << sources_json(t)
            << ",\"corps\":" << json(t.body) << "}\n";
    return kFound;
}

// glossary/exemples-a-venir.txt : un dossier d'exemple par ligne, « # » commente.
std::optional<std::vector<std::pair<std::string, int>>> read_pending(const std::filesystem::path& file) {
    const auto lines = integrity::read_lines(file);
    if (!lines) return std::nullopt;
    std::vector<std::pair<std::string, int>> pending;
    for (std::size_t i = 0; i < lines->size(); ++i) {
        const std::string_view line = integrity::trim((*lines)[i]);
        if (!line.empty() && !line.starts_with('#')) pending.emplace_back(std::string(line), static_cast<int>(i + 1));
    }
    return pending;
}

int verify(Glossary glossary, const Options& options, const std::string& shown, std::ostream& out,
           std::ostream& err) {
    if (!options.manifest) {
        err << "glossaire : --verifier demande --manifeste build/noyaux-exemples.tsv\n";
        return kUsage;
    }
    std::set<std::string, std::less<>> built;
    try {
        for (const auto& entry : integrity::read_manifest(*options.manifest)) built.insert(entry.folder);
    } catch (const integrity::ManifestError& error) {
        err << "glossaire : " << error.what() << '\n';
        return kUsage;
    }
    const std::filesystem::path pending_file =
        options.pending ? std::filesystem::path(*options.pending) : options.directory / "exemples-a-venir.txt";
    const std::string pending_shown = options.pending ? *options.pending : shown + "exemples-a-venir.txt";
    std::map<std::string, int, std::less<>> pending;
    if (const auto entries = read_pending(pending_file)) {
        for (const auto& [example, line] : *entries) {
            if (built.contains(example))
                glossary.errors.push_back({pending_shown, line, guillemets(example) +
                                                                    " est construit (manifeste) : retirez-le de la liste"});
            pending.emplace(example, line);
        }
    } else if (options.pending) {
        err << "glossaire : liste des exemples à venir illisible : " << *options.pending << '\n';
        return kUsage;
    }
    std::map<std::string, std::vector<std::string>, std::less<>> waiting;  // exemple → fiches
    std::set<std::string, std::less<>> named;
    for (const auto& term : glossary.terms) {
        for (const auto& example : term.examples) {
            named.insert(example);
            if (built.contains(example)) continue;
            if (pending.contains(example)) {
                waiting[example].push_back(term.slug);
                continue;
            }
            glossary.errors.push_back({term.file, term.examples_line,
                                       "exemple " + guillemets(example) +
                                           " inconnu : absent du manifeste construit par CMake et de " +
                                           pending_shown});
        }
    }
    for (const auto& [example, line] : pending)
        if (!named.contains(example))
            glossary.errors.push_back({pending_shown, line,
                                       guillemets(example) + " n'est nommé par aucune fiche : retirez-le de la liste"});
    std::sort(glossary.errors.begin(), glossary.errors.end());
    if (report_errors(glossary, err)) return kNotFound;
    std::size_t terms_waiting = 0;
    for (const auto& term : glossary.terms)
        if (std::ranges::none_of(term.examples, [&](const std::string& e) { return built.contains(e); }))
            ++terms_waiting;
    out << "glossaire : " << count_of(glossary.terms.size(), "fiche vérifiée", "fiches vérifiées")
        << " (renvois, liens, exemples) ; " << count_of(waiting.size(), "exemple reste", "exemples restent")
        << " à venir, " << count_of(terms_waiting, "fiche n'a", "fiches n'ont")
        << " encore aucun exemple construit\n";
    for (const auto& [example, slugs] : waiting) {
        out << "  à venir : " << example << " (";
        for (std::size_t i = 0; i < slugs.size(); ++i) out << (i ? ", " : "") << slugs[i];
        out << ")\n";
    }
    return kFound;
}

std::optional<Options> parse(const std::vector<std::string_view>& arguments,
                             const std::filesystem::path& default_directory, std::ostream& err) {
    Options options;
    options.directory = default_directory;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string_view argument = arguments[i];
        const auto value = [&]() -> std::optional<std::string> {
            if (i + 1 >= arguments.size() || arguments[i + 1].empty()) {
                err << "glossaire : " << argument << " : valeur manquante\n";
                return std::nullopt;
            }
            return std::string(arguments[++i]);
        };
        if (argument == "--aide" || argument == "-h" || argument == "--help") {
            options.help = true;
        } else if (argument == "--liste") {
            options.list = true;
        } else if (argument == "--verifier") {
            options.verify = true;
        } else if (argument == "--exporter") {
            options.export_json = true;
        } else if (argument == "--categorie" || argument == "--dossier" || argument == "--manifeste" ||
                   argument == "--a-venir") {
            auto given = value();
            if (!given) return std::nullopt;
            if (argument == "--categorie") options.category = given;
            if (argument == "--dossier") options.directory = *given;
            if (argument == "--manifeste") options.manifest = given;
            if (argument == "--a-venir") options.pending = given;
        } else if (argument.starts_with("--")) {
            err << "glossaire : option inconnue " << guillemets(argument) << "\n" << kUsageText;
            return std::nullopt;
        } else {
            options.words.push_back(argument);
        }
    }
    const int modes = options.list + options.verify + options.export_json + !options.words.empty();
    if (modes > 1) {
        err << "glossaire : un terme, --liste, --verifier et --exporter s'excluent\n";
        return std::nullopt;
    }
    if (options.category && !options.list) {
        err << "glossaire : --categorie ne va qu'avec --liste\n";
        return std::nullopt;
    }
    if (modes == 0 && !options.help) {
        err << "glossaire : quel terme ? Par exemple « glossaire warp »\n" << kUsageText;
        return std::nullopt;
    }
    return options;
}

}  // namespace

int run(const std::vector<std::string_view>& arguments, const std::filesystem::path& default_directory,
        std::ostream& out, std::ostream& err) {
    const auto options = parse(arguments, default_directory, err);
    if (!options) return kUsage;
    if (options->help) {
        out << kUsageText;
        return kFound;
    }
    // Les messages nomment le fichier depuis le dossier : « glossary/warp.md ».
    const std::string shown = options->directory.filename().empty()
                                  ? options->directory.parent_path().filename().string() + "/"
                                  : options->directory.filename().string() + "/";
    Glossary glossary = load(options->directory, shown);
    if (options->verify) return verify(std::move(glossary), *options, shown, out, err);
    if (report_errors(glossary, err)) return kUsage;
    if (options->list) return list_terms(glossary, *options, out, err);
    if (options->export_json) return export_terms(glossary, out);
    std::string query;
    for (const auto word : options->words) {
        if (!query.empty()) query += ' ';
        query += word;
    }
    return find_term(glossary, query, out, err);
}

}  // namespace noyaux::glossary
