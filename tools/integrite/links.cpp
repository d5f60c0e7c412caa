/**
 * @file links.cpp
 * @brief Relevé des liens relatifs d'un texte Markdown.
 */
#include "links.hpp"

#include <regex>

#include "text.hpp"

namespace noyaux::integrity {
namespace {

// Lien en ligne « ](cible) » ou « ](cible "titre") », cible éventuellement entre < >.
const std::regex kInline(R"re(\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\))re");
// Définition de référence « [id]: cible », en début de ligne.
const std::regex kReference(R"re(^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?)re");
const std::regex kScheme(R"re(^[A-Za-z][A-Za-z0-9+.-]*:)re");

void add_target(std::string target, std::vector<std::string>& targets) {
    if (target.empty() || target.front() == '#' || target.front() == '/' ||
        std::regex_search(target, kScheme))
        return;
    if (const std::size_t hash = target.find('#'); hash != std::string::npos) target.resize(hash);
    targets.push_back(std::move(target));
}

}  // namespace

std::vector<std::string> find_link_targets(const std::vector<std::string>& lines) {
    std::vector<std::string> targets;
    bool in_code = false;
    for (const std::string& line : lines) {
        if (trim(line).starts_with("```")) {
            in_code = !in_code;
            continue;
        }
        if (in_code) continue;
        for (auto it = std::sregex_iterator(line.begin(), line.end(), kInline);
             it != std::sregex_iterator(); ++it)
            add_target((*it)[1].str(), targets);
        if (std::smatch match; std::regex_search(line, match, kReference))
            add_target(match[1].str(), targets);
    }
    return targets;
}

}  // namespace noyaux::integrity
