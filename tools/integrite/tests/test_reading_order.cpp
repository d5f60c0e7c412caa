// Règle 7 : l'ordre de lecture des README d'exemples.
#include "reading_order.hpp"

#include <gtest/gtest.h>

using noyaux::integrity::check_reading_order;

namespace {

std::vector<std::string> readme(std::vector<std::string> order) {
    std::vector<std::string> lines{"# Exemple", "", "Texte.", "", "## Ordre de lecture", ""};
    lines.insert(lines.end(), order.begin(), order.end());
    lines.insert(lines.end(), {"", "## Autre section", "main.cu avant tout, hors de la section"});
    return lines;
}

}  // namespace

TEST(ReadingOrder, AcceptsTheMethodOrder) {
    EXPECT_FALSE(check_reading_order(readme({"1. Ce fichier.", "2. `test.cu`", "3. `bench.cu`",
                                             "4. `k.cuh`", "5. `main.cu`"}),
                                     "k.cuh", true));
}

TEST(ReadingOrder, SharedBenchmarkFolderCountsAsTheBenchmark) {
    EXPECT_FALSE(check_reading_order(readme({"2. `test.cu`", "3. `examples/gemm/echelle/`",
                                             "4. `k.cuh`", "5. `main.cu`"}),
                                     "k.cuh", false));
}

TEST(ReadingOrder, BenchmarkMayBeAbsentOnlyWithoutBenchCu) {
    const auto lines = readme({"2. `test.cu`", "4. `k.cuh`", "5. `main.cu`"});
    EXPECT_FALSE(check_reading_order(lines, "k.cuh", false));
    const auto problem = check_reading_order(lines, "k.cuh", true);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "ordre de lecture : le benchmark n'est pas cité");
}

TEST(ReadingOrder, KernelBeforeTestsIsRejectedWithItsLine) {
    const auto problem = check_reading_order(
        readme({"1. `k.cuh`", "2. `test.cu`", "3. `bench.cu`", "4. `main.cu`"}), "k.cuh", true);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->line, 7);  // la ligne où k.cuh est cité trop tôt
    EXPECT_NE(problem->message.find("k.cuh est cité avant le benchmark"), std::string::npos)
        << problem->message;
}

TEST(ReadingOrder, MissingSectionIsReported) {
    const auto problem = check_reading_order({"# Exemple", "Texte."}, "k.cuh", true);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->line, 1);
    EXPECT_NE(problem->message.find("« ## Ordre de lecture » absente"), std::string::npos);
}
