/**
 * @file yaml_header.cpp
 * @brief Lecture de l'en-tête YAML d'un fichier Markdown par yaml-cpp, erreurs en français.
 */
#include "yaml_header.hpp"

#include <map>
#include <sstream>

#include "text.hpp"

namespace noyaux::integrity {
namespace {

bool is_delimiter(std::string_view line, bool closing) {
    const std::string_view text = line.substr(0, line.find_last_not_of(" \t") + 1);
    return text == "---" || (closing && text == "...");
}

// yaml-cpp rédige ses erreurs en anglais (YAML::ErrorMsg) : on traduit celles qu'un
// rédacteur rencontre ; les autres gardent le texte de la bibliothèque, cité.
std::string french(const std::string& message) {
    static const std::map<std::string, std::string, std::less<>> kKnown = {
        {YAML::ErrorMsg::END_OF_MAP, "fin de table introuvable : indentation incohérente ?"},
        {YAML::ErrorMsg::END_OF_MAP_FLOW, "table « { … } » non fermée par « } »"},
        {YAML::ErrorMsg::END_OF_SEQ, "fin de liste introuvable : indentation incohérente ?"},
        {YAML::ErrorMsg::END_OF_SEQ_FLOW, "liste « [ … ] » non fermée par « ] »"},
        {YAML::ErrorMsg::BLOCK_ENTRY,
         "élément « - » inattendu ici : indentation incohérente avec les lignes précédentes ?"},
        {YAML::ErrorMsg::MAP_KEY, "clé inattendue ici"},
        {YAML::ErrorMsg::MAP_VALUE,
         "« : » inattendu ici : une valeur qui contient « : » s'écrit entre guillemets"},
        {YAML::ErrorMsg::FLOW_END, "« ] » ou « } » sans ouverture correspondante"},
        {YAML::ErrorMsg::TAB_IN_INDENTATION,
         "tabulation dans l'indentation : YAML n'accepte que des espaces"},
        {YAML::ErrorMsg::EOF_IN_SCALAR, "guillemets ouverts mais jamais fermés"},
        {YAML::ErrorMsg::CHAR_IN_SCALAR, "caractère interdit dans une valeur"},
        {YAML::ErrorMsg::DOC_IN_SCALAR, "« --- » ou « ... » au milieu d'une valeur"},
        {YAML::ErrorMsg::UNKNOWN_TOKEN, "symbole inattendu"},
        {YAML::ErrorMsg::UNKNOWN_ANCHOR, "alias vers une ancre (&nom) non définie"},
    };
    if (const auto found = kKnown.find(message); found != kKnown.end()) return found->second;
    if (message.starts_with(YAML::ErrorMsg::INVALID_ESCAPE))
        return "séquence d'échappement inconnue : " +
               message.substr(std::string_view(YAML::ErrorMsg::INVALID_ESCAPE).size());
    return "syntaxe YAML invalide (yaml-cpp : " + guillemets(message) + ")";
}

std::string kind_of(const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Sequence: return "une liste";
        case YAML::NodeType::Scalar: return "une valeur simple";
        default: return "rien";
    }
}

}  // namespace

int YamlHeader::line_of(const YAML::Node& value) const {
    const YAML::Mark mark = value.Mark();
    return mark.is_null() ? first_line - 1 : first_line + mark.line;
}

YamlHeader parse_yaml_header(const std::vector<std::string>& lines, std::string_view file) {
    YamlHeader header;
    if (lines.empty() || !is_delimiter(lines.front(), false)) return header;
    header.present = true;
    std::size_t closing = 1;
    while (closing < lines.size() && !is_delimiter(lines[closing], true)) ++closing;
    const auto fail = [&](int line, std::string message) {
        header.node = YAML::Node();
        header.error = Diagnostic{std::string(file), line, "en-tête YAML : " + std::move(message)};
        return header;
    };
    if (closing == lines.size()) {
        header.body_line = static_cast<int>(lines.size()) + 1;
        return fail(1, "ouvert par « --- » mais jamais fermé : ajoutez une ligne « --- » après "
                       "la dernière clé");
    }
    header.body_line = static_cast<int>(closing) + 2;

    std::ostringstream text;
    for (std::size_t i = 1; i < closing; ++i) text << lines[i] << '\n';
    try {
        header.node = YAML::Load(text.str());
    } catch (const YAML::Exception& error) {
        const int line = error.mark.is_null() ? 1 : header.first_line + error.mark.line;
        return fail(line, french(error.msg));
    }
    if (header.node.IsNull()) return header;  // en-tête vide, ou seulement des commentaires
    if (!header.node.IsMap())
        return fail(header.line_of(header.node),
                    "attendu des lignes « clé: valeur », trouvé " + kind_of(header.node));
    // yaml-cpp garde les clés répétées sans rien dire ; un lecteur n'en verrait qu'une.
    std::map<std::string, int, std::less<>> seen;
    for (const auto& pair : header.node) {
        if (!pair.first.IsScalar()) continue;
        const std::string key = pair.first.Scalar();
        const int line = header.line_of(pair.first);
        if (const auto [previous, inserted] = seen.emplace(key, line); !inserted) {
            header.error = Diagnostic{std::string(file), line,
                                      "en-tête YAML : clé " + guillemets(key) +
                                          " répétée (déjà ligne " +
                                          std::to_string(previous->second) +
                                          ") : une clé ne s'écrit qu'une fois"};
            break;
        }
    }
    return header;
}

YamlHeader read_yaml_header(const std::filesystem::path& path, std::string_view shown) {
    const auto lines = read_lines(path);
    if (!lines) {
        YamlHeader header;
        header.error = Diagnostic{std::string(shown), 1, "fichier illisible"};
        return header;
    }
    return parse_yaml_header(*lines, shown);
}

}  // namespace noyaux::integrity
