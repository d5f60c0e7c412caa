// Inclusions d'extraits dans les pages et sections nommées dans les sources : ce que
// pymdownx.snippets inclurait est relevé, le reste ignoré ou signalé.
#include "snippets.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fixture_tree.hpp"

using noyaux::integrity::check_section;
using noyaux::integrity::Diagnostic;
using noyaux::integrity::find_inclusions;
using noyaux::integrity::find_sections;
using noyaux::integrity::Inclusion;
using noyaux::integrity::PageInclusions;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

namespace {

PageInclusions scan(std::vector<std::string> lines, int first_line = 1) {
    return find_inclusions(lines, "p.md", first_line);
}

std::vector<std::string> describe(const PageInclusions& found) {
    std::vector<std::string> lines;
    for (const Inclusion& inclusion : found.inclusions)
        lines.push_back(std::to_string(inclusion.line) + " " + inclusion.path + " [" +
                        inclusion.section + "]");
    return lines;
}

std::optional<std::string> check(std::vector<std::string> source, std::string_view section) {
    return check_section(find_sections(source), section, "a.cuh");
}

}  // namespace

TEST(Inclusions, FindsSectionsAndWholeFiles) {
    const PageInclusions found = scan({"Texte", "--8<-- \"examples/p/01-a/a.cuh:noyau\"",
                                       "    --8<-- 'examples/p/01-a/main.cu'",
                                       "---8<--- \"examples/p/01-a/a.cuh:lancement-2\""});
    EXPECT_THAT(describe(found),
                ElementsAre("2 examples/p/01-a/a.cuh [noyau]", "3 examples/p/01-a/main.cu []",
                            "4 examples/p/01-a/a.cuh [lancement-2]"));
    EXPECT_THAT(found.errors, IsEmpty());
}

TEST(Inclusions, IgnoresEscapedLinesProseAndTheHeader) {
    const PageInclusions found =
        scan({"---", "--8<-- \"dans/l-en-tete.cuh\"", "---",
              ";--8<-- \"echappe.cuh:noyau\"", "La syntaxe `--8<-- \"chemin:section\"` inclut.",
              "<!-- --8<-- [start:resume] -->"},
             4);
    EXPECT_THAT(found.inclusions, IsEmpty());
    EXPECT_THAT(found.errors, IsEmpty());
}

TEST(Inclusions, ReadsTheBlockForm) {
    const PageInclusions found =
        scan({"--8<--", "examples/p/01-a/a.cuh:noyau", "", ";ignore.cuh", "  b.cuh", "--8<--",
              "après"});
    EXPECT_THAT(describe(found), ElementsAre("2 examples/p/01-a/a.cuh [noyau]", "5 b.cuh []"));
    EXPECT_THAT(found.errors, IsEmpty());
}

TEST(Inclusions, UnclosedBlockIsAnError) {
    EXPECT_THAT(scan({"texte", "--8<--", "a.cuh"}).errors,
                ElementsAre(Diagnostic{
                    "p.md", 2, "bloc d'inclusion ouvert par « --8<-- » mais jamais fermé"}));
}

TEST(Inclusions, MalformedLineIsAnError) {
    for (const char* line : {"--8<-- \"a.cuh:noyau\" ", "--8<-- a.cuh:noyau",
                             "--8<-- \"a.cuh\" \"b.cuh\""}) {
        const PageInclusions found = scan({line});
        EXPECT_THAT(found.inclusions, IsEmpty()) << line;
        ASSERT_EQ(found.errors.size(), 1u) << line;
        EXPECT_EQ(found.errors.front().line, 1);
        EXPECT_THAT(found.errors.front().message,
                    HasSubstr("ligne d'inclusion mal formée, que pymdownx.snippets afficherait "
                              "telle quelle"));
    }
}

TEST(Inclusions, LineRangesAreRefused) {
    const PageInclusions found = scan({"--8<-- \"a.cuh:3:12\"", "--8<-- \"a.cuh:5\""});
    EXPECT_THAT(found.inclusions, IsEmpty());
    ASSERT_EQ(found.errors.size(), 2u);
    EXPECT_EQ(found.errors[0].message,
              "inclusion par numéros de lignes « a.cuh:3:12 » : elle dérive dès que le code "
              "change ; nommez une section « --8<-- [start:nom] » … « --8<-- [end:nom] » dans "
              "la source");
    EXPECT_EQ(found.errors[1].line, 2);
}

TEST(Sections, WellFormedSectionPasses) {
    EXPECT_EQ(check({"// --8<-- [start:noyau]", "code", "// --8<-- [end:noyau]"}, "noyau"),
              std::nullopt);
    EXPECT_EQ(check({"# --8<-- [ start : noyau ]", "code", "#--8<-- [end:noyau] fin"}, "noyau"),
              std::nullopt);
}

TEST(Sections, MissingSection) {
    EXPECT_EQ(check({"// --8<-- [start:autre]", "// --8<-- [end:autre]"}, "noyau"),
              "section « noyau » absente de « a.cuh » : ni « --8<-- [start:noyau] » ni "
              "« --8<-- [end:noyau] »");
}

TEST(Sections, EscapedMarkersDoNotCount) {
    EXPECT_THAT(check({"// ;--8<-- [start:noyau]", "// ;--8<-- [end:noyau]"}, "noyau").value_or(""),
                HasSubstr("absente"));
}

TEST(Sections, StartWithoutEnd) {
    EXPECT_EQ(check({"// --8<-- [start:noyau]", "code"}, "noyau"),
              "section « noyau » de « a.cuh » jamais fermée : « --8<-- [end:noyau] » manque");
}

TEST(Sections, EndWithoutStart) {
    EXPECT_EQ(check({"code", "// --8<-- [end:noyau]"}, "noyau"),
              "section « noyau » de « a.cuh » sans début : « --8<-- [start:noyau] » manque");
}

TEST(Sections, RepeatedMarkers) {
    EXPECT_EQ(check({"// --8<-- [start:noyau]", "// --8<-- [end:noyau]", "// --8<-- [start:noyau]",
                     "// --8<-- [end:noyau]"},
                    "noyau"),
              "section « noyau » de « a.cuh » : « --8<-- [start:noyau] » apparaît 2 fois "
              "(lignes 1, 3)");
    EXPECT_EQ(check({"// --8<-- [start:noyau]", "// --8<-- [end:noyau]", "// --8<-- [end:noyau]"},
                    "noyau"),
              "section « noyau » de « a.cuh » : « --8<-- [end:noyau] » apparaît 2 fois "
              "(lignes 2, 3)");
}

TEST(Sections, EndBeforeStart) {
    EXPECT_EQ(check({"// --8<-- [end:noyau]", "code", "// --8<-- [start:noyau]"}, "noyau"),
              "section « noyau » de « a.cuh » : la fin (ligne 1) précède le début (ligne 3)");
}
