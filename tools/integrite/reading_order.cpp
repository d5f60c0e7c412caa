/**
 * @file
 * @brief Règle 7 : ordre de lecture des README d'exemples.
 */
#include "reading_order.hpp"

#include <array>

namespace noyaux::integrity {
namespace {

constexpr const char* kHeading = "## Ordre de lecture";

/** @brief Première ligne de [begin, end) qui contient l'un des @p needles, ou -1. */
int first_mention(const std::vector<std::string>& lines, std::size_t begin, std::size_t end,
                  std::initializer_list<std::string> needles) {
    for (std::size_t i = begin; i < end; ++i)
        for (const std::string& needle : needles)
            if (lines[i].find(needle) != std::string::npos) return static_cast<int>(i);
    return -1;
}

}  // namespace

std::optional<ReadingOrderProblem> check_reading_order(const std::vector<std::string>& readme,
                                                       const std::string& kernel_header,
                                                       bool has_benchmark) {
    std::size_t begin = readme.size();
    for (std::size_t i = 0; i < readme.size(); ++i)
        if (readme[i].rfind(kHeading, 0) == 0) begin = i + 1;
    if (begin == readme.size())
        return ReadingOrderProblem{1, "section « ## Ordre de lecture » absente : le README doit "
                                      "guider la lecture (README, tests, benchmark, noyau, programme)"};
    std::size_t end = begin;
    while (end < readme.size() && readme[end].rfind("## ", 0) != 0) ++end;

    struct Step {
        const char* what;
        int line;
    };
    const int bench = first_mention(readme, begin, end, {"bench.cu", "gemm/echelle/"});
    const std::array<Step, 4> steps{{
        {"test.cu", first_mention(readme, begin, end, {"test.cu"})},
        {"le benchmark", bench},
        {kernel_header.c_str(), first_mention(readme, begin, end, {kernel_header})},
        {"main.cu", first_mention(readme, begin, end, {"main.cu"})},
    }};
    int previous = -1;
    const char* previous_what = "le début de la section";
    for (const Step& step : steps) {
        if (step.line < 0) {
            if (&step == &steps[1] && !has_benchmark) continue;  // pas de benchmark propre
            return ReadingOrderProblem{static_cast<int>(begin),
                                       std::string("ordre de lecture : ") + step.what +
                                           " n'est pas cité"};
        }
        if (step.line < previous)
            return ReadingOrderProblem{step.line + 1, std::string("ordre de lecture : ") + step.what +
                                                          " est cité avant " + previous_what +
                                                          " ; l'ordre est README, tests, "
                                                          "benchmark, noyau, programme"};
        previous = step.line;
        previous_what = step.what;
    }
    return std::nullopt;
}

}  // namespace noyaux::integrity
