/**
 * @file front_matter.cpp
 * @brief Lecture des clés « exemples » et « sans_exemple » de l'en-tête YAML d'une page.
 */
#include "front_matter.hpp"

#include "text.hpp"

namespace noyaux::integrity {
namespace {

constexpr std::string_view kExamples = "exemples";
constexpr std::string_view kNoExample = "sans_exemple";

// Comme MkDocs : « --- » en début de ligne, espaces finales tolérées ; « ... » ferme aussi.
bool is_delimiter(std::string_view line, bool closing) {
    const std::string_view text = line.substr(0, line.find_last_not_of(" \t") + 1);
    return text == "---" || (closing && text == "...");
}

// Retire un commentaire YAML « # … » : précédé d'un espace, ou après une valeur entre
// guillemets.
std::string_view strip_comment(std::string_view value) {
    if (value.starts_with('#')) return {};
    if (value.starts_with('"') || value.starts_with('\'')) {
        const std::size_t closing = value.find(value.front(), 1);
        if (closing != std::string_view::npos) value = value.substr(0, closing + 1);
    } else {
        const std::size_t hash = value.find(" #");
        if (hash != std::string_view::npos) value = value.substr(0, hash);
    }
    return trim(value);
}

bool is_indented(std::string_view line) {
    return line.starts_with(' ') || line.starts_with('\t');
}

bool is_skippable(std::string_view line) {
    const std::string_view text = trim(line);
    return text.empty() || text.starts_with('#');
}

// Une ligne qui ne peut pas ouvrir une nouvelle clé continue la valeur de la précédente :
// indentée, élément « - », ou sans « : » (alors fautive, et signalée par la clé qui la lit).
bool continues_value(std::string_view line) {
    return is_skippable(line) || is_indented(line) || trim(line).starts_with('-') ||
           line.find(':') == std::string_view::npos;
}

// Lit l'en-tête entre les lignes [first, end) : une clé de premier niveau par ligne non
// indentée, ses éléments ou sa suite sur les lignes indentées (ou « - ») qui suivent.
class Reader {
public:
    Reader(const std::vector<std::string>& lines, std::string_view file, FrontMatter& result)
        : lines_(lines), file_(file), result_(result) {}

    void read(std::size_t first, std::size_t end) {
        for (std::size_t i = first; i < end;) {
            const std::string_view line = lines_[i];
            const std::size_t colon = line.find(':');
            if (is_skippable(line) || is_indented(line) || colon == std::string_view::npos) {
                ++i;  // clé d'un autre usage, ou suite d'une valeur qui ne nous concerne pas
                continue;
            }
            const std::string_view key = trim(line.substr(0, colon));
            const std::string_view value = strip_comment(trim(line.substr(colon + 1)));
            std::size_t next = i + 1;
            while (next < end && continues_value(lines_[next])) ++next;
            if (key == kExamples) read_examples(value, i, next);
            if (key == kNoExample) read_reason(value, i, next);
            i = next;
        }
    }

private:
    int line_number(std::size_t index) const { return static_cast<int>(index) + 1; }

    void error(std::size_t index, std::string message) {
        result_.errors.push_back({std::string(file_), line_number(index), std::move(message)});
    }

    // Une clé répétée : YAML ne garderait que la dernière valeur ; on la signale.
    bool is_repeated(std::string_view key, std::size_t index, int previous_line) {
        if (previous_line == 0) return false;
        error(index, "clé " + guillemets(key) + " répétée (déjà ligne " +
                         std::to_string(previous_line) + ") ; YAML ne garderait que la dernière");
        return true;
    }

    // « exemples: » suivi d'éléments « - chemin », ou « exemples: [a, b] ».
    void read_examples(std::string_view value, std::size_t key_index, std::size_t end) {
        if (is_repeated(kExamples, key_index, result_.examples_line.value_or(0))) return;
        result_.examples_line = line_number(key_index);
        if (value.starts_with('[')) {
            if (!value.ends_with(']')) {
                error(key_index, "liste « [ … ] » de « exemples » non fermée par « ] »");
                return;
            }
            for (const std::string& item : split(value.substr(1, value.size() - 2), ','))
                if (!trim(item).empty())
                    add_example(trim(item), key_index);
            return;
        }
        if (!value.empty()) {
            error(key_index, "« exemples » attend une liste : un élément « - examples/<partie>/"
                             "<NN-slug> » par ligne, ou [ a, b ] ; reçu " + guillemets(value));
            return;
        }
        for (std::size_t i = key_index + 1; i < end; ++i) {
            if (is_skippable(lines_[i])) continue;
            const std::string_view item = trim(lines_[i]);
            if (item != "-" && !item.starts_with("- ")) {
                error(i, "élément de « exemples » mal formé : attendu « - examples/<partie>/"
                         "<NN-slug> », reçu " + guillemets(item));
                continue;
            }
            const std::string_view path = strip_comment(trim(item.substr(1)));
            if (path.empty())
                error(i, "élément vide dans « exemples »");
            else
                add_example(path, i);
        }
    }

    void add_example(std::string_view raw, std::size_t index) {
        std::string path = unquote(raw);
        while (path.size() > 1 && path.back() == '/') path.pop_back();
        if (path.starts_with("./")) path.erase(0, 2);
        result_.examples.push_back({std::move(path), line_number(index)});
    }

    // « sans_exemple: raison », la raison pouvant continuer sur les lignes indentées
    // suivantes (scalaire sur plusieurs lignes, ou bloc « > » / « | »).
    void read_reason(std::string_view value, std::size_t key_index, std::size_t end) {
        if (is_repeated(kNoExample, key_index, result_.no_example ? result_.no_example->line : 0))
            return;
        std::string reason;
        if (!(value.starts_with('>') || value.starts_with('|'))) reason = value;
        for (std::size_t i = key_index + 1; i < end && is_indented(lines_[i]); ++i) {
            const std::string_view more = trim(lines_[i]);
            if (more.empty()) continue;
            reason += reason.empty() ? "" : " ";
            reason += more;
        }
        result_.no_example = Located{unquote(trim(reason)), line_number(key_index)};
    }

    const std::vector<std::string>& lines_;
    std::string_view file_;
    FrontMatter& result_;
};

}  // namespace

FrontMatter parse_front_matter(const std::vector<std::string>& lines, std::string_view file) {
    FrontMatter result;
    if (lines.empty() || !is_delimiter(lines.front(), false)) return result;
    std::size_t closing = 1;
    while (closing < lines.size() && !is_delimiter(lines[closing], true)) ++closing;
    if (closing == lines.size()) {
        result.errors.push_back({std::string(file), 1,
                                 "en-tête YAML ouvert par « --- » mais jamais fermé : ajoutez "
                                 "une ligne « --- » après la dernière clé"});
        result.body_line = static_cast<int>(lines.size()) + 1;
        return result;
    }
    Reader(lines, file, result).read(1, closing);
    result.body_line = static_cast<int>(closing) + 2;
    return result;
}

}  // namespace noyaux::integrity
