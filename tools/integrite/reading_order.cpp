/**
 * @file
 * @brief Règle 7 : ordre de lecture des README d'exemples.
 */
#include "reading_order.hpp"

namespace noyaux::integrity {
namespace {

constexpr const char* kHeading = "## Ordre de lecture";

/** @brief Première ligne de [begin, end) qui contient l'un des @p needles, ou -1. */
int first_mention(const std::vector<std::string>& lines, std::size_t begin, std::size_t end,
                  const std::vector<std::string>& needles) {
    for (std::size_t i = begin; i < end; ++i)
        for (const std::string& needle : needles)
            if (lines[i].find(needle) != std::string::npos) return static_cast<int>(i);
    return -1;
}

}  // namespace

std::optional<ReadingOrderProblem> check_reading_order(const std::vector<std::string>& readme,
                                                       const std::vector<ExampleFile>& files) {
    std::size_t begin = readme.size();
    for (std::size_t i = 0; i < readme.size(); ++i)
        if (readme[i].rfind(kHeading, 0) == 0) begin = i + 1;
    if (begin == readme.size())
        return ReadingOrderProblem{1, "section « ## Ordre de lecture » absente : le README doit "
                                      "guider la lecture (README, tests, benchmark, noyau, programme)"};
    std::size_t end = begin;
    while (end < readme.size() && readme[end].rfind("## ", 0) != 0) ++end;

    int previous = -1;
    std::string previous_what = "le début de la section";
    for (const ExampleFile& file : files) {
        if (!file.cited) continue;
        const int line = first_mention(readme, begin, end, file.mentions);
        if (line < 0) {
            if (!file.required) continue;  // ex. pas de benchmark propre ni commun
            return ReadingOrderProblem{static_cast<int>(begin),
                                       "ordre de lecture : " + file.what + " n'est pas cité"};
        }
        if (line < previous)
            return ReadingOrderProblem{line + 1, "ordre de lecture : " + file.what +
                                                     " est cité avant " + previous_what +
                                                     " ; l'ordre est README, tests, "
                                                     "benchmark, noyau, programme"};
        previous = line;
        previous_what = file.what;
    }
    return std::nullopt;
}

}  // namespace noyaux::integrity
