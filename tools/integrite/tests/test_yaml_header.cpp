// En-tête YAML d'un fichier Markdown (yaml-cpp) : lecture, lignes du fichier, et chaque
// en-tête mal formé signalé avec son fichier, sa ligne et un message en français.
#include "yaml_header.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fixture_tree.hpp"

using noyaux::integrity::Diagnostic;
using noyaux::integrity::parse_yaml_header;
using noyaux::integrity::read_yaml_header;
using noyaux::integrity::YamlHeader;
using noyaux::integrity::testing::FixtureTree;
using testing::HasSubstr;

namespace {

YamlHeader parse(std::vector<std::string> lines) {
    return parse_yaml_header(lines, "docs/p.md");
}

// La ligne affichée d'une erreur attendue : « fichier:ligne: message ».
std::string shown_error(const YamlHeader& header) {
    return header.error ? header.error->format() : "(aucune erreur)";
}

}  // namespace

TEST(YamlHeader, FileWithoutHeaderHasNone) {
    const YamlHeader header = parse({"# Titre", "---", "texte"});
    EXPECT_FALSE(header.present);
    EXPECT_FALSE(header.error);
    EXPECT_TRUE(header.node.IsNull());
    EXPECT_EQ(header.body_line, 1);
}

TEST(YamlHeader, ReadsTheNodeAndTheFileLinesOfItsValues) {
    const YamlHeader header = parse({"---", "titre: Occupation", "# commentaire",
                                     "anglais: [occupancy]", "voir:", "  - registre",
                                     "  - \"mémoire partagée\"", "---", "# Occupation"});
    ASSERT_FALSE(header.error) << shown_error(header);
    EXPECT_TRUE(header.present);
    EXPECT_EQ(header.node["titre"].as<std::string>(), "Occupation");
    EXPECT_EQ(header.node["anglais"][0].as<std::string>(), "occupancy");
    EXPECT_EQ(header.node["voir"][1].as<std::string>(), "mémoire partagée");
    EXPECT_EQ(header.line_of(header.node["titre"]), 2);
    EXPECT_EQ(header.line_of(header.node["anglais"][0]), 4);
    EXPECT_EQ(header.line_of(header.node["voir"][1]), 7);
    EXPECT_EQ(header.body_line, 9);
}

TEST(YamlHeader, DotsCloseTheHeaderAndAnEmptyHeaderIsAccepted) {
    const YamlHeader dots = parse({"---  ", "titre: x", "...", "texte"});
    EXPECT_FALSE(dots.error) << shown_error(dots);
    EXPECT_EQ(dots.body_line, 4);
    const YamlHeader empty = parse({"---", "# rien", "---"});
    EXPECT_FALSE(empty.error) << shown_error(empty);
    EXPECT_TRUE(empty.node.IsNull());
}

TEST(YamlHeader, UnclosedHeaderIsAnErrorOnLineOne) {
    const YamlHeader header = parse({"---", "titre: x", "# Titre"});
    EXPECT_EQ(shown_error(header),
              "docs/p.md:1: en-tête YAML : ouvert par « --- » mais jamais fermé : ajoutez une "
              "ligne « --- » après la dernière clé");
    EXPECT_EQ(header.body_line, 4);
}

TEST(YamlHeader, UnclosedFlowListGivesFileLineAndFrenchMessage) {
    const YamlHeader header = parse({"---", "titre: x", "exemples: [a, b", "autre: y", "---"});
    ASSERT_TRUE(header.error);
    EXPECT_EQ(header.error->file, "docs/p.md");
    EXPECT_THAT(shown_error(header), HasSubstr("en-tête YAML : liste « [ … ] » non fermée"));
    EXPECT_GE(header.error->line, 3);
    EXPECT_LE(header.error->line, 5);
    EXPECT_TRUE(header.node.IsNull());
    EXPECT_EQ(header.body_line, 6);  // le corps reste situé : les autres règles s'appliquent
}

TEST(YamlHeader, ColonInAPlainValueIsAnErrorOnItsLine) {
    const YamlHeader header = parse({"---", "titre: x", "description: a: b", "---"});
    EXPECT_EQ(shown_error(header),
              "docs/p.md:3: en-tête YAML : « : » inattendu ici : une valeur qui contient « : » "
              "s'écrit entre guillemets");
}

TEST(YamlHeader, BadIndentationIsAnErrorOnItsLine) {
    const YamlHeader header = parse({"---", "exemples:", "  - a", " - b", "---"});
    ASSERT_TRUE(header.error);
    EXPECT_EQ(header.error->file, "docs/p.md");
    EXPECT_EQ(header.error->line, 4) << shown_error(header);
}

TEST(YamlHeader, TabInIndentationIsAnErrorOnItsLine) {
    EXPECT_EQ(shown_error(parse({"---", "titre: x", "voir: y", "\tautre: z", "---"})),
              "docs/p.md:4: en-tête YAML : tabulation dans l'indentation : YAML n'accepte que "
              "des espaces");
}

TEST(YamlHeader, RepeatedKeyIsAnErrorAndTheFirstValueIsKept) {
    const YamlHeader header = parse({"---", "titre: a", "autre: b", "titre: c", "---"});
    EXPECT_EQ(shown_error(header),
              "docs/p.md:4: en-tête YAML : clé « titre » répétée (déjà ligne 2) : une clé ne "
              "s'écrit qu'une fois");
    EXPECT_EQ(header.node["autre"].as<std::string>(), "b");
}

TEST(YamlHeader, HeaderThatIsNotATableIsAnError) {
    EXPECT_EQ(shown_error(parse({"---", "- a", "- b", "---"})),
              "docs/p.md:2: en-tête YAML : attendu des lignes « clé: valeur », trouvé une liste");
    EXPECT_EQ(shown_error(parse({"---", "juste du texte", "---"})),
              "docs/p.md:2: en-tête YAML : attendu des lignes « clé: valeur », trouvé une valeur "
              "simple");
}

TEST(YamlHeader, ReadsAFileAndNamesItAsAsked) {
    FixtureTree tree;
    tree.write("glossaire/occupation.md", "\xEF\xBB\xBF---\r\ntitre: x\r\ntitre: y\r\n---\r\n");
    const YamlHeader header =
        read_yaml_header(tree.root() / "glossaire/occupation.md", "glossaire/occupation.md");
    EXPECT_EQ(shown_error(header),
              "glossaire/occupation.md:3: en-tête YAML : clé « titre » répétée (déjà ligne 2) : "
              "une clé ne s'écrit qu'une fois");
    EXPECT_EQ(read_yaml_header(tree.root() / "absent.md", "absent.md").error,
              (Diagnostic{"absent.md", 1, "fichier illisible"}));
}
