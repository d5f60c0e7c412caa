/**
 * @file glossary.cpp
 * @brief Lecture des fiches du glossaire et recherche d'un terme.
 */
#include "glossary.hpp"

#include <algorithm>
#include <numeric>
#include <regex>

#include <yaml-cpp/yaml.h>

#include "text.hpp"
#include "yaml_header.hpp"

namespace noyaux::glossary {
namespace {

using integrity::guillemets;
using integrity::YamlHeader;

// Lettres accentuées du français (et voisines), minuscules et majuscules, vers l'ASCII.
char32_t fold_accent(char32_t c) {
    static const std::map<char32_t, char32_t> kFold = [] {
        std::map<char32_t, char32_t> fold;
        const auto add = [&](std::u32string_view from, char32_t to) {
            for (char32_t letter : from) fold[letter] = to;
        };
        add(U"àáâãäåÀÁÂÃÄÅ", U'a');
        add(U"çÇ", U'c');
        add(U"èéêëÈÉÊË", U'e');
        add(U"ìíîïÌÍÎÏ", U'i');
        add(U"ñÑ", U'n');
        add(U"òóôõöÒÓÔÕÖ", U'o');
        add(U"ùúûüÙÚÛÜ", U'u');
        add(U"ýÿÝŸ", U'y');
        return fold;
    }();
    const auto found = kFold.find(c);
    return found == kFold.end() ? c : found->second;
}

// Décode un point de code UTF-8 à partir de text[i] et avance i (octet invalide : rendu tel quel).
char32_t next_code_point(std::string_view text, std::size_t& i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    int length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3 : (byte >> 3) == 0x1E ? 4 : 1;
    if (i + length > text.size()) length = 1;
    char32_t c = length == 1 ? byte : byte & (0x7F >> length);
    for (int k = 1; k < length; ++k) c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    i += length;
    return c;
}

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

// --- Lecture d'une fiche -------------------------------------------------------------------

class TermReader {
public:
    TermReader(const YamlHeader& header, std::string file, std::vector<Diagnostic>& errors)
        : header_(header), file_(std::move(file)), errors_(errors) {}

    bool ok() const { return ok_; }

    void fail(int line, std::string message) {
        errors_.push_back(Diagnostic{file_, line, std::move(message)});
        ok_ = false;
    }

    int line_of(std::string_view key) const {
        const YAML::Node value = header_.node[std::string(key)];
        return value ? header_.line_of(value) : 1;
    }

    std::string text(std::string_view key, bool required) {
        const YAML::Node value = header_.node[std::string(key)];
        if (!value || value.IsNull()) {
            if (required) fail(1, "clé " + guillemets(key) + " manquante dans l'en-tête");
            return {};
        }
        if (!value.IsScalar() || value.Scalar().empty()) {
            fail(header_.line_of(value), guillemets(key) + " doit être un texte non vide");
            return {};
        }
        return value.Scalar();
    }

    std::vector<std::string> list(std::string_view key, std::size_t min, std::size_t max) {
        const YAML::Node value = header_.node[std::string(key)];
        if (!value) {
            fail(1, "clé " + guillemets(key) + " manquante dans l'en-tête");
            return {};
        }
        std::vector<std::string> items;
        if (!value.IsSequence()) {
            fail(header_.line_of(value), guillemets(key) + " doit être une liste (« [a, b] » ou lignes « - a »)");
            return items;
        }
        for (const auto& item : value) {
            if (!item.IsScalar() || item.Scalar().empty()) {
                fail(header_.line_of(item), "élément de " + guillemets(key) + " : un texte non vide est attendu");
                continue;
            }
            items.push_back(item.Scalar());
        }
        if (items.size() < min || items.size() > max) {
            fail(header_.line_of(value), guillemets(key) + " : " + std::to_string(items.size()) +
                                             " élément(s), attendu de " + std::to_string(min) +
                                             " à " + std::to_string(max));
        }
        return items;
    }

private:
    const YamlHeader& header_;
    std::string file_;
    std::vector<Diagnostic>& errors_;
    bool ok_ = true;
};

const std::set<std::string, std::less<>> kKeys = {
    "terme", "anglais", "abreviation", "alias", "categorie", "architecture",
    "voir_aussi", "exemples", "sources"};

std::optional<Term> read_term(const std::filesystem::path& path, std::string file,
                              std::vector<Diagnostic>& errors) {
    const auto lines = integrity::read_lines(path);
    if (!lines) {
        errors.push_back(Diagnostic{file, 1, "fichier illisible"});
        return std::nullopt;
    }
    const YamlHeader header = integrity::parse_yaml_header(*lines, file);
    if (header.error) {
        errors.push_back(*header.error);
        return std::nullopt;
    }
    if (!header.present || !header.node.IsMap()) {
        errors.push_back(Diagnostic{file, 1, "en-tête YAML absent : la fiche doit s'ouvrir sur « --- » "
                                             "suivi des clés terme, anglais, categorie…"});
        return std::nullopt;
    }
    TermReader reader(header, file, errors);
    for (const auto& pair : header.node) {
        const std::string key = pair.first.Scalar();
        if (!kKeys.contains(key))
            reader.fail(header.line_of(pair.first), "clé inconnue " + guillemets(key) +
                                                         " (clés permises : terme, anglais, abreviation, alias, "
                                                         "categorie, architecture, voir_aussi, exemples, sources)");
    }
    Term term;
    term.file = file;
    term.slug = path.stem().string();
    term.french = reader.text("terme", true);
    term.english = reader.text("anglais", true);
    term.abbreviation = reader.text("abreviation", false);
    term.aliases = reader.list("alias", 0, 1000);
    term.category = reader.text("categorie", true);
    if (!term.category.empty() &&
        std::ranges::find(kCategories, std::string_view(term.category)) == std::end(kCategories))
        reader.fail(reader.line_of("categorie"),
                    "catégorie inconnue " + guillemets(term.category) +
                        " (attendu : matériel, logiciel côté GPU, logiciel côté hôte ou performance)");
    term.architecture = reader.text("architecture", true);
    term.see_also = reader.list("voir_aussi", 1, 8);
    term.see_also_line = reader.line_of("voir_aussi");
    term.examples = reader.list("exemples", 1, 3);
    term.examples_line = reader.line_of("exemples");
    if (const YAML::Node sources = header.node["sources"]; !sources || !sources.IsSequence() || sources.size() == 0) {
        reader.fail(sources ? header.line_of(sources) : 1,
                    "« sources » : une liste d'au moins une source (titre, url) est attendue");
    } else {
        for (const auto& source : sources)
            if (!source.IsMap() || !source["titre"] || !source["url"] || !source["titre"].IsScalar() ||
                !source["url"].IsScalar())
                reader.fail(header.line_of(source), "source sans « titre » ou sans « url »");
            else
                term.sources.emplace_back(source["titre"].Scalar(), source["url"].Scalar());
    }

    std::string body;
    static const std::regex kLink(R"(\]\(([^()\s]+)\))");
    for (std::size_t i = static_cast<std::size_t>(header.body_line - 1); i < lines->size(); ++i) {
        body += (*lines)[i];
        body += '\n';
        const std::string& line = (*lines)[i];
        for (auto it = std::sregex_iterator(line.begin(), line.end(), kLink); it != std::sregex_iterator(); ++it) {
            const std::string target = (*it)[1];
            if (target.find("://") == std::string::npos && !target.starts_with("mailto:"))
                term.links.emplace_back(target, static_cast<int>(i + 1));
        }
    }
    term.definition = first_sentence(body);
    term.body = std::move(body);
    if (term.definition.empty())
        reader.fail(header.body_line, "corps vide : la première phrase doit définir le terme");
    if (!reader.ok()) return std::nullopt;
    return term;
}

// Regroupe les clés de recherche d'une fiche (formes normalisées).
std::vector<std::string> keys_of(const Term& term) {
    std::vector<std::string> keys = {normalize(term.french), normalize(term.english), normalize(term.slug)};
    if (!term.abbreviation.empty()) keys.push_back(normalize(term.abbreviation));
    for (const auto& alias : term.aliases) keys.push_back(normalize(alias));
    std::erase(keys, std::string());
    return keys;
}

}  // namespace

const Term* Glossary::find_slug(std::string_view slug) const {
    const auto found = std::ranges::find(terms, slug, &Term::slug);
    return found == terms.end() ? nullptr : &*found;
}

Glossary load(const std::filesystem::path& directory, std::string_view shown_prefix) {
    Glossary glossary;
    std::error_code error;
    if (!std::filesystem::is_directory(directory, error)) {
        glossary.errors.push_back(Diagnostic{directory.string(), 1, "dossier du glossaire introuvable"});
        return glossary;
    }
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(directory))
        if (entry.is_regular_file() && entry.path().extension() == ".md") paths.push_back(entry.path());
    std::ranges::sort(paths);
    for (const auto& path : paths) {
        auto term = read_term(path, std::string(shown_prefix) + path.filename().string(), glossary.errors);
        if (term) glossary.terms.push_back(std::move(*term));
    }
    if (paths.empty())
        glossary.errors.push_back(Diagnostic{std::string(shown_prefix), 1, "aucune fiche « *.md » dans le glossaire"});
    // Renvois : chaque « voir aussi » et chaque lien « slug.md » du corps vise une fiche. Une
    // fiche présente mais mal formée est déjà signalée : on ne l'accuse pas une seconde fois.
    std::set<std::string, std::less<>> present;
    for (const auto& path : paths) present.insert(path.stem().string());
    for (const auto& term : glossary.terms) {
        for (const auto& slug : term.see_also)
            if (!present.contains(slug))
                glossary.errors.push_back(Diagnostic{term.file, term.see_also_line,
                                                     "voir_aussi : aucune fiche " + guillemets(slug) +
                                                         " (fichier glossary/" + slug + ".md absent)"});
        for (const auto& [target, line] : term.links) {
            std::string_view file = target;
            file = file.substr(0, file.find('#'));
            if (file.find('/') != std::string_view::npos || !file.ends_with(".md") ||
                !present.contains(file.substr(0, file.size() - 3)))
                glossary.errors.push_back(Diagnostic{term.file, line,
                                                     "lien " + guillemets(target) +
                                                         " : aucune fiche du glossaire à ce nom "
                                                         "(un lien interne s'écrit « slug.md »)"});
        }
    }
    std::sort(glossary.errors.begin(), glossary.errors.end());
    return glossary;
}

std::string normalize(std::string_view text) {
    std::string out;
    bool space = false;
    for (std::size_t i = 0; i < text.size();) {
        char32_t c = fold_accent(next_code_point(text, i));
        if (c == U' ' || c == U'\t' || c == U'-' || c == U'_' || c == U'\'' || c == U'’' || c == U'\u00A0' ||
            c == U'\u202F') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        if (c == U'œ' || c == U'Œ') {
            out += "oe";
        } else if (c == U'æ' || c == U'Æ') {
            out += "ae";
        } else if (c < 0x80) {
            out += static_cast<char>(std::tolower(static_cast<int>(c)));
        } else {
            append_utf8(out, c);
        }
    }
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    // Trois lignes de la matrice suffisent (la transposition regarde deux lignes en arrière).
    std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
    std::iota(previous.begin(), previous.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                current[j] = std::min(current[j], before[j - 2] + 1);
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[b.size()];
}

std::string first_sentence(std::string_view body) {
    // Premier paragraphe, sur une seule ligne.
    std::string paragraph;
    std::size_t start = body.find_first_not_of(" \t\n");
    if (start == std::string_view::npos) return {};
    const std::size_t end = body.find("\n\n", start);
    for (char c : body.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start))
        paragraph += c == '\n' ? ' ' : c;
    // Balisage réduit à son texte : [texte](cible) → texte ; **gras**, *italique*, `code`.
    paragraph = std::regex_replace(paragraph, std::regex(R"(\[([^\]]*)\]\([^)]*\))"), "$1");
    paragraph = std::regex_replace(paragraph, std::regex(R"(\*\*|`)"), "");
    paragraph = std::regex_replace(paragraph, std::regex(R"((^|[\s(«])\*([^*\s][^*]*)\*)"), "$1$2");
    // Fin de phrase : « . », « ! » ou « ? » suivi d'une espace et d'une majuscule, ou du bout.
    static const std::regex kEnd(R"([^\s§.]{2}[.!?](\s+[A-ZÀÂÉÈÊÎÔÙÛÇ«]|\s*$))");
    std::smatch match;
    std::string sentence = paragraph;
    if (std::regex_search(paragraph, match, kEnd))
        sentence = paragraph.substr(0, static_cast<std::size_t>(match.position(0)) + 3);
    return std::string(integrity::trim(sentence));
}

Lookup lookup(const Glossary& glossary, std::string_view query) {
    Lookup result;
    const std::string wanted = normalize(query);
    if (wanted.empty()) return result;
    std::vector<std::pair<std::size_t, const Term*>> near;
    for (const auto& term : glossary.terms) {
        std::size_t best = std::string::npos;
        for (const auto& key : keys_of(term)) best = std::min(best, edit_distance(wanted, key));
        if (best == 0) {
            result.matches.push_back(&term);
        } else {
            // Tolérance qui croît avec la longueur : une faute sur un sigle, trois sur un long nom.
            const std::size_t tolerance = wanted.size() <= 4 ? 1 : wanted.size() <= 8 ? 2 : 3;
            if (best <= tolerance) near.emplace_back(best, &term);
        }
    }
    std::ranges::stable_sort(near, {}, &std::pair<std::size_t, const Term*>::first);
    for (const auto& [distance, term] : near)
        if (result.suggestions.size() < 8) result.suggestions.push_back(term);
    return result;
}

std::string ctest_command(std::string_view example) {
    // examples/<partie>/<NN-slug> → tests « <partie>.<NN-slug>.<genre> ».
    std::string_view rest = example;
    if (rest.starts_with("examples/")) rest.remove_prefix(9);
    while (rest.ends_with('/')) rest.remove_suffix(1);
    std::string regex(rest);
    std::ranges::replace(regex, '/', '.');
    std::string escaped;
    for (char c : regex) {
        if (c == '.') escaped += '\\';
        escaped += c;
    }
    return "ctest --test-dir build -R '^" + escaped + "\\.'";
}

}  // namespace noyaux::glossary
