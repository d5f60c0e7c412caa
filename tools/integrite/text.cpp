/**
 * @file text.cpp
 * @brief Petits outils de texte partagés par les vérifications.
 */
#include "text.hpp"

#include <fstream>

namespace noyaux::integrity {

std::optional<std::vector<std::string>> read_lines(const std::filesystem::path& file) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error)) return std::nullopt;
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
    }
    if (in.bad()) return std::nullopt;
    // Une marque d'ordre des octets cacherait le « --- » d'ouverture de l'en-tête.
    constexpr std::string_view kBom = "\xEF\xBB\xBF";
    if (!lines.empty() && lines.front().starts_with(kBom)) lines.front().erase(0, kBom.size());
    return lines;
}

std::string_view trim(std::string_view text) {
    const std::size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    const std::size_t last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> pieces;
    for (std::size_t start = 0;;) {
        const std::size_t end = text.find(separator, start);
        pieces.emplace_back(text.substr(start, end - start));
        if (end == std::string_view::npos) return pieces;
        start = end + 1;
    }
}

std::string guillemets(std::string_view text) { return "« " + std::string(text) + " »"; }

std::string count_of(std::size_t count, std::string_view singular, std::string_view plural) {
    return std::to_string(count) + " " + std::string(count <= 1 ? singular : plural);
}

}  // namespace noyaux::integrity
