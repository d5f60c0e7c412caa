// Clés « exemples » et « sans_exemple » de l'en-tête des pages (lu par yaml-cpp) : les formes
// acceptées, et chaque forme mal écrite, signalée à sa ligne sans interrompre la lecture.
#include "front_matter.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fixture_tree.hpp"

using noyaux::integrity::Diagnostic;
using noyaux::integrity::FrontMatter;
using noyaux::integrity::parse_front_matter;
using testing::ElementsAre;
using testing::IsEmpty;

namespace {

FrontMatter parse(std::vector<std::string> lines) { return parse_front_matter(lines, "p.md"); }

std::vector<std::string> values(const FrontMatter& front) {
    std::vector<std::string> paths;
    for (const auto& example : front.examples) paths.push_back(example.value);
    return paths;
}

std::vector<int> lines_of(const FrontMatter& front) {
    std::vector<int> lines;
    for (const auto& example : front.examples) lines.push_back(example.line);
    return lines;
}

}  // namespace

TEST(FrontMatter, PageWithoutHeaderDeclaresNothing) {
    const FrontMatter front = parse({"# Titre", "", "Texte."});
    EXPECT_FALSE(front.examples_line);
    EXPECT_FALSE(front.no_example);
    EXPECT_THAT(front.errors, IsEmpty());
    EXPECT_EQ(front.body_line, 1);
}

TEST(FrontMatter, ReadsABlockListWithItsLines) {
    const FrontMatter front = parse({"---", "title: Titre", "exemples:",
                                     "  - examples/a/01-x", "  # commentaire", "",
                                     "  - \"examples/b/02-y/\"  ", "  - './examples/c/03-z' # fin",
                                     "description: texte", "---", "# Titre"});
    EXPECT_THAT(values(front),
                ElementsAre("examples/a/01-x", "examples/b/02-y", "examples/c/03-z"));
    EXPECT_THAT(lines_of(front), ElementsAre(4, 7, 8));
    EXPECT_EQ(front.examples_line, 3);
    EXPECT_THAT(front.errors, IsEmpty());
    EXPECT_EQ(front.body_line, 11);
}

TEST(FrontMatter, ReadsAnInlineList) {
    const FrontMatter front =
        parse({"---", "exemples: [examples/a/01-x, 'examples/b/02-y']  # deux", "---"});
    EXPECT_THAT(values(front), ElementsAre("examples/a/01-x", "examples/b/02-y"));
    EXPECT_THAT(lines_of(front), ElementsAre(2, 2));
    EXPECT_THAT(front.errors, IsEmpty());
}

TEST(FrontMatter, EmptyListsAreKeptEmpty) {
    EXPECT_THAT(parse({"---", "exemples: []", "---"}).examples, IsEmpty());
    const FrontMatter front = parse({"---", "exemples:", "title: x", "---"});
    EXPECT_EQ(front.examples_line, 2);
    EXPECT_THAT(front.examples, IsEmpty());
    EXPECT_THAT(front.errors, IsEmpty());
}

TEST(FrontMatter, ReadsTheNoExampleReasonInItsForms) {
    const FrontMatter plain = parse({"---", "sans_exemple: \"partie à venir\"", "---"});
    ASSERT_TRUE(plain.no_example);
    EXPECT_EQ(plain.no_example->value, "partie à venir");
    EXPECT_EQ(plain.no_example->line, 2);

    const FrontMatter folded =
        parse({"---", "title: x", "sans_exemple: >", "  page d'accueil", "  de la partie", "---"});
    ASSERT_TRUE(folded.no_example);
    EXPECT_EQ(folded.no_example->value, "page d'accueil de la partie");
    EXPECT_EQ(folded.no_example->line, 3);

    const FrontMatter empty = parse({"---", "sans_exemple: ''", "---"});
    ASSERT_TRUE(empty.no_example);
    EXPECT_EQ(empty.no_example->value, "");
}

TEST(FrontMatter, AcceptsTheDotsClosingAndTrailingSpaces) {
    const FrontMatter front = parse({"---  ", "exemples: [examples/a/01-x]", "...", "texte"});
    EXPECT_THAT(values(front), ElementsAre("examples/a/01-x"));
    EXPECT_EQ(front.body_line, 4);
}

TEST(FrontMatter, UnclosedHeaderIsAnErrorOnLineOne) {
    const FrontMatter front = parse({"---", "exemples:", "  - examples/a/01-x", "# Titre"});
    EXPECT_THAT(front.errors,
                ElementsAre(Diagnostic{"p.md", 1,
                                       "en-tête YAML : ouvert par « --- » mais jamais fermé : "
                                       "ajoutez une ligne « --- » après la dernière clé"}));
    EXPECT_THAT(front.examples, IsEmpty());
}

TEST(FrontMatter, MalformedYamlIsAnErrorOnItsLineAndNothingIsRead) {
    const FrontMatter front = parse({"---", "exemples:", "  - examples/a/01-x",
                                     "title: a: b", "---", "# Titre"});
    EXPECT_THAT(front.errors,
                ElementsAre(Diagnostic{"p.md", 4,
                                       "en-tête YAML : « : » inattendu ici : une valeur qui "
                                       "contient « : » s'écrit entre guillemets"}));
    EXPECT_FALSE(front.examples_line);
    EXPECT_EQ(front.body_line, 6);
}

TEST(FrontMatter, ItemThatIsNotAPathIsAnErrorOnItsLine) {
    const FrontMatter front = parse({"---", "exemples:", "  - examples/a/01-x",
                                     "  - dossier: examples/b/02-y", "  - [examples/c/03-z]", "---"});
    EXPECT_THAT(values(front), ElementsAre("examples/a/01-x"));
    EXPECT_THAT(
        front.errors,
        ElementsAre(Diagnostic{"p.md", 4,
                               "élément de « exemples » mal formé : attendu « - examples/<partie>/"
                               "<NN-slug> », reçu une liste ou une table"},
                    Diagnostic{"p.md", 5,
                               "élément de « exemples » mal formé : attendu « - examples/<partie>/"
                               "<NN-slug> », reçu une liste ou une table"}));
}

TEST(FrontMatter, EmptyItemIsAnError) {
    EXPECT_THAT(parse({"---", "exemples:", "  - examples/a/01-x", "  - ''", "---"}).errors,
                ElementsAre(Diagnostic{"p.md", 4, "élément vide dans « exemples »"}));
}

TEST(FrontMatter, ScalarOrMappingIsNotAList) {
    EXPECT_THAT(parse({"---", "exemples: examples/a/01-x", "---"}).errors,
                ElementsAre(Diagnostic{"p.md", 2,
                                       "« exemples » attend une liste : un élément « - examples/"
                                       "<partie>/<NN-slug> » par ligne, ou [ a, b ] ; reçu "
                                       "« examples/a/01-x »"}));
    EXPECT_THAT(parse({"---", "exemples:", "  a: examples/a/01-x", "---"}).errors,
                ElementsAre(Diagnostic{"p.md", 2,
                                       "« exemples » attend une liste : un élément « - examples/"
                                       "<partie>/<NN-slug> » par ligne, ou [ a, b ] ; reçu "
                                       "une table"}));
}

TEST(FrontMatter, ReasonThatIsNotASentenceIsAnError) {
    const FrontMatter front = parse({"---", "sans_exemple: [a, b]", "---"});
    EXPECT_THAT(front.errors,
                ElementsAre(Diagnostic{"p.md", 2,
                                       "« sans_exemple » attend une phrase, pas une liste ni une "
                                       "table"}));
    ASSERT_TRUE(front.no_example);
}

TEST(FrontMatter, RepeatedKeyIsAnErrorAndTheFirstValueIsRead) {
    const FrontMatter front =
        parse({"---", "exemples: [examples/a/01-x]", "exemples: [examples/b/02-y]", "---"});
    EXPECT_THAT(values(front), ElementsAre("examples/a/01-x"));
    EXPECT_THAT(front.errors,
                ElementsAre(Diagnostic{"p.md", 3,
                                       "en-tête YAML : clé « exemples » répétée (déjà ligne 2) : "
                                       "une clé ne s'écrit qu'une fois"}));
}

TEST(FrontMatter, IgnoresOtherKeysAndNestedLookalikes) {
    const FrontMatter front = parse({"---", "title: 'exemples: non'", "extra:", "  exemples:",
                                     "    - examples/a/01-x", "---"});
    EXPECT_FALSE(front.examples_line);
    EXPECT_THAT(front.errors, IsEmpty());
}
