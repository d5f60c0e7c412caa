/**
 * @file snippets.cpp
 * @brief Inclusions d'extraits dans les pages et sections nommées dans les sources.
 */
#include "snippets.hpp"

#include <algorithm>
#include <regex>

#include "text.hpp"

namespace noyaux::integrity {
namespace {

// Les ciseaux de pymdownx.snippets : au moins un tiret de chaque côté de « 8< ».
// Une ligne d'inclusion : ciseaux en début de ligne (après des espaces), un chemin entre
// guillemets, rien après. Un « ; » devant les ciseaux échappe la ligne.
const std::regex kInline(R"re(^[ \t]*(;*)-+8<-+[ \t]+("(?:\\"|[^"])+"|'(?:\\'|[^'])+')$)re");
// Les ciseaux seuls ouvrent ou ferment un bloc : un chemin par ligne entre les deux.
const std::regex kBlockMarker(R"re(^[ \t]*(;*)-+8<-+$)re");
// Des ciseaux en début de ligne que l'extension n'inclurait pas : ils s'afficheraient tels quels.
const std::regex kLooksLikeInclusion(R"re(^[ \t]*-+8<-+)re");
// Un marqueur de section, où qu'il soit sur la ligne (après « // », « # », « <!-- »…).
const std::regex kSection(
    R"re((?:^|[^;-])-+8<-+[ \t]+)re"
    R"re(\[[ \t]*(start|end)[ \t]*:[ \t]*([a-zA-Z][-_0-9a-zA-Z]*)[ \t]*\])re");
// « chemin:12 », « chemin:1:3 », « chemin:1:3,5:6 » : des numéros de lignes, pas une section.
const std::regex kLineRange(R"re(:-?[0-9]*(?::-?[0-9]*)?(?:,-?[0-9]*(?::-?[0-9]*)?)*$)re");
// « chemin:nom » : une section nommée (lettre, puis lettres, chiffres, « - » ou « _ »).
const std::regex kSectionSuffix(R"re(:([a-zA-Z][-_0-9a-zA-Z]*)$)re");

// Retire les guillemets d'un chemin d'inclusion et ses guillemets échappés.
std::string unescape(std::string_view quoted_path) {
    const char quote = quoted_path.front();
    std::string path;
    for (std::size_t i = 1; i + 1 < quoted_path.size(); ++i) {
        if (quoted_path[i] == '\\' && quoted_path[i + 1] == quote && i + 2 < quoted_path.size())
            ++i;
        path += quoted_path[i];
    }
    return std::string(trim(path));
}

class Scanner {
public:
    Scanner(std::string_view file, PageInclusions& result) : file_(file), result_(result) {}

    // Ajoute l'inclusion « chemin » ou « chemin:section » écrite à la ligne @p line.
    void add(std::string_view spec, int line) {
        std::smatch match;
        const std::string text(spec);
        if (std::regex_search(text, match, kSectionSuffix)) {
            const auto path_length = static_cast<std::size_t>(match.position(0));
            result_.inclusions.push_back({text.substr(0, path_length), match[1].str(), line});
        } else if (std::regex_search(text, match, kLineRange) && match.position(0) > 0) {
            error(line, "inclusion par numéros de lignes " + guillemets(text) +
                            " : elle dérive dès que le code change ; nommez une section "
                            "« --8<-- [start:nom] » … « --8<-- [end:nom] » dans la source");
        } else {
            result_.inclusions.push_back({text, "", line});
        }
    }

    void error(int line, std::string message) {
        result_.errors.push_back({std::string(file_), line, std::move(message)});
    }

private:
    std::string_view file_;
    PageInclusions& result_;
};

}  // namespace

PageInclusions find_inclusions(const std::vector<std::string>& lines, std::string_view file,
                               int first_line) {
    PageInclusions result;
    Scanner scanner(file, result);
    std::optional<int> block_start;  // ligne des ciseaux qui ont ouvert un bloc
    for (std::size_t i = static_cast<std::size_t>(std::max(first_line, 1)) - 1; i < lines.size();
         ++i) {
        const int line = static_cast<int>(i) + 1;
        std::smatch match;
        if (std::regex_match(lines[i], match, kBlockMarker)) {
            if (match[1].length() > 0) continue;  // « ;--8<-- » : échappé
            block_start = block_start ? std::nullopt : std::optional<int>(line);
        } else if (block_start) {
            const std::string_view path = trim(lines[i]);
            if (!path.empty() && !path.starts_with(';')) scanner.add(path, line);
        } else if (std::regex_match(lines[i], match, kInline)) {
            if (match[1].length() == 0) scanner.add(unescape(match[2].str()), line);
        } else if (std::regex_search(lines[i], kLooksLikeInclusion) &&
                   !std::regex_search(lines[i], kSection)) {
            scanner.error(line, "ligne d'inclusion mal formée, que pymdownx.snippets afficherait "
                                "telle quelle : attendu --8<-- \"chemin:section\" seul sur sa "
                                "ligne, sans espace finale");
        }
    }
    if (block_start)
        scanner.error(*block_start, "bloc d'inclusion ouvert par « --8<-- » mais jamais fermé");
    return result;
}

SectionMarkers find_sections(const std::vector<std::string>& lines) {
    SectionMarkers markers;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch match;
        if (!std::regex_search(lines[i], match, kSection)) continue;
        auto& table = match[1].str() == "start" ? markers.starts : markers.ends;
        table[match[2].str()].push_back(static_cast<int>(i) + 1);
    }
    return markers;
}

std::optional<std::string> check_section(const SectionMarkers& markers, std::string_view section,
                                         std::string_view path) {
    const std::string name(section);
    const std::string start = guillemets("--8<-- [start:" + name + "]");
    const std::string end = guillemets("--8<-- [end:" + name + "]");
    const std::string where = "section " + guillemets(section) + " de " + guillemets(path);
    const auto starts = markers.starts.find(section);
    const auto ends = markers.ends.find(section);
    const bool has_start = starts != markers.starts.end();
    const bool has_end = ends != markers.ends.end();
    if (!has_start && !has_end)
        return "section " + guillemets(section) + " absente de " + guillemets(path) + " : ni " +
               start + " ni " + end;
    if (!has_end) return where + " jamais fermée : " + end + " manque";
    if (!has_start) return where + " sans début : " + start + " manque";
    const auto repeated = [&](const std::string& marker, const std::vector<int>& at) {
        std::string lines;
        for (const int line : at) lines += (lines.empty() ? "" : ", ") + std::to_string(line);
        return where + " : " + marker + " apparaît " + std::to_string(at.size()) +
               " fois (lignes " + lines + ")";
    };
    if (starts->second.size() > 1) return repeated(start, starts->second);
    if (ends->second.size() > 1) return repeated(end, ends->second);
    if (ends->second.front() < starts->second.front())
        return where + " : la fin (ligne " + std::to_string(ends->second.front()) +
               ") précède le début (ligne " + std::to_string(starts->second.front()) + ")";
    return std::nullopt;
}

}  // namespace noyaux::integrity
