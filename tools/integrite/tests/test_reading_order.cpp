// Règle 7 : l'ordre de lecture des README d'exemples.
#include "reading_order.hpp"

#include <gtest/gtest.h>

using noyaux::integrity::check_reading_order;
using noyaux::integrity::example_files;
using noyaux::integrity::ExampleFile;
using noyaux::integrity::ManifestEntry;

namespace {

// L'anatomie de l'exemple « k », avec son bench.cu ou sans benchmark propre.
std::vector<ExampleFile> files(bool has_benchmark) {
    return example_files(ManifestEntry{"p", "01-k", "examples/p/01-k", "k", {"gpu"}, {"p.01-k.gpu"},
                                       has_benchmark ? "bench.cu" : "sans benchmark : commun"});
}

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
                                     files(true)));
}

TEST(ReadingOrder, SharedBenchmarkFolderCountsAsTheBenchmark) {
    EXPECT_FALSE(check_reading_order(readme({"2. `test.cu`", "3. `examples/gemm/echelle/`",
                                             "4. `k.cuh`", "5. `main.cu`"}),
                                     files(false)));
}

TEST(ReadingOrder, BenchmarkMayBeAbsentOnlyWithoutBenchCu) {
    const auto lines = readme({"2. `test.cu`", "4. `k.cuh`", "5. `main.cu`"});
    EXPECT_FALSE(check_reading_order(lines, files(false)));
    const auto problem = check_reading_order(lines, files(true));
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "ordre de lecture : le benchmark n'est pas cité");
}

TEST(ReadingOrder, KernelBeforeTestsIsRejectedWithItsLine) {
    const auto problem = check_reading_order(
        readme({"1. `k.cuh`", "2. `test.cu`", "3. `bench.cu`", "4. `main.cu`"}), files(true));
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->line, 7);  // la ligne où k.cuh est cité trop tôt
    EXPECT_NE(problem->message.find("k.cuh est cité avant le benchmark"), std::string::npos)
        << problem->message;
}

TEST(ReadingOrder, MissingSectionIsReported) {
    const auto problem = check_reading_order({"# Exemple", "Texte."}, files(true));
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->line, 1);
    EXPECT_NE(problem->message.find("« ## Ordre de lecture » absente"), std::string::npos);
}
