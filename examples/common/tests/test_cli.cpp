// Lecture des arguments : valeurs valides, et chaque forme d'erreur avec son message.
#include "common/cli.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

using noyaux::cli::Parser;
using noyaux::cli::UsageError;
using noyaux::cli::parse_choice;
using noyaux::cli::parse_integer;
using noyaux::cli::parse_real;
using testing::HasSubstr;

namespace {

// Renvoie le message de l'erreur levée par f, ou échoue si rien n'est levé.
template <typename F>
std::string usage_error_message(F&& f) {
    try {
        f();
    } catch (const UsageError& error) {
        return error.what();
    }
    ADD_FAILURE() << "UsageError attendue";
    return {};
}

}  // namespace

TEST(ParseInteger, AcceptsBoundsAndValuesInside) {
    EXPECT_EQ(parse_integer("0", "--taille", 0, 10), 0);
    EXPECT_EQ(parse_integer("10", "--taille", 0, 10), 10);
    EXPECT_EQ(parse_integer("-3", "--decalage", -5, 5), -3);
}

TEST(ParseInteger, RejectsNegativeSize) {
    EXPECT_THAT(usage_error_message([] { parse_integer("-5", "--taille", 0, 100); }),
                HasSubstr("--taille : « -5 » est négatif ; attendu un entier entre 0 et 100"));
}

TEST(ParseInteger, RejectsNonNumbers) {
    for (const char* text : {"abc", "12abc", "1.5", "", " 3", "0x10"})
        EXPECT_THAT(usage_error_message([&] { parse_integer(text, "--taille", 0, 100); }),
                    HasSubstr("n'est pas un entier"))
            << text;
}

TEST(ParseInteger, RejectsAbsurdSizes) {
    EXPECT_THAT(usage_error_message([] { parse_integer("1000000000000", "--taille", 0, 1 << 30); }),
                HasSubstr("hors limites ; attendu un entier entre 0 et 1073741824"));
    EXPECT_THAT(usage_error_message(
                    [] { parse_integer("99999999999999999999999", "--taille", 0, 100); }),
                HasSubstr("trop grand"));
}

TEST(ParseReal, AcceptsFiniteValuesAndRejectsOthers) {
    EXPECT_DOUBLE_EQ(parse_real("2.5", "--alpha", -10, 10), 2.5);
    EXPECT_DOUBLE_EQ(parse_real("-1e-3", "--alpha", -10, 10), -1e-3);
    for (const char* text : {"nan", "inf", "-inf", "deux", "1,5"})
        EXPECT_THAT(usage_error_message([&] { parse_real(text, "--alpha", -10, 10); }),
                    HasSubstr("n'est pas un réel fini"))
            << text;
    EXPECT_THAT(usage_error_message([] { parse_real("11", "--alpha", -10, 10); }),
                HasSubstr("hors limites"));
}

TEST(ParseChoice, FindsTheChoiceAndListsAllOnError) {
    const std::vector<std::string> choices{"naif", "partagee", "partagee-decalee"};
    EXPECT_EQ(parse_choice("partagee", "--noyau", choices), 1u);
    EXPECT_EQ(parse_choice("partagee-decalee", "--noyau", choices), 2u);
    // Ni préfixe, ni casse différente, ni chaîne vide : seul le nom exact est un choix.
    for (const char* text : {"rapide", "partage", "NAIF", ""})
        EXPECT_THAT(usage_error_message([&] { parse_choice(text, "--noyau", choices); }),
                    HasSubstr("n'est pas un choix valide ; attendu naif, partagee ou "
                              "partagee-decalee"))
            << text;
    EXPECT_THAT(usage_error_message([] { parse_choice("x", "--mode", {"seul"}); }),
                HasSubstr("--mode : « x » n'est pas un choix valide ; attendu seul"));
}

enum class Mode { slow, fast };

class ParserTest : public testing::Test {
protected:
    ParserTest() : parser("programme", "Description.") {
        parser.add_integer("--taille", &size, 0, 1000, "nombre d'éléments");
        parser.add_real("--alpha", &alpha, -10, 10, "coefficient");
        parser.add_choice("--mode", &mode, {{"lent", Mode::slow}, {"rapide", Mode::fast}},
                          "vitesse");
        parser.add_flag("--verbeux", &verbose, "affiche le détail");
    }
    std::int64_t size = 7;
    double alpha = 1.0;
    Mode mode = Mode::slow;
    bool verbose = false;
    Parser parser;
};

TEST_F(ParserTest, KeepsDefaultsWithoutArguments) {
    const std::array argv{"programme"};
    EXPECT_TRUE(parser.parse(1, argv.data()));
    EXPECT_EQ(size, 7);
    EXPECT_EQ(alpha, 1.0);
    EXPECT_EQ(mode, Mode::slow);
    EXPECT_FALSE(verbose);
}

TEST_F(ParserTest, ReadsSeparateAndJoinedValues) {
    const std::array argv{"programme", "--taille", "12", "--alpha=-2.5"};
    EXPECT_TRUE(parser.parse(4, argv.data()));
    EXPECT_EQ(size, 12);
    EXPECT_EQ(alpha, -2.5);
}

TEST_F(ParserTest, RejectsUnknownOptionAndListsKnownOnes) {
    const std::array argv{"programme", "--taile", "12"};
    EXPECT_THAT(usage_error_message([&] { parser.parse(3, argv.data()); }),
                HasSubstr("option inconnue « --taile » ; options reconnues : --taille --alpha "
                          "--mode --verbeux"));
}

TEST_F(ParserTest, RejectsMissingValue) {
    const std::array argv{"programme", "--taille"};
    EXPECT_THAT(usage_error_message([&] { parser.parse(2, argv.data()); }),
                HasSubstr("--taille : valeur manquante"));
}

TEST_F(ParserTest, HelpStopsParsingAndListsOptions) {
    const std::array argv{"programme", "--aide"};
    testing::internal::CaptureStdout();
    EXPECT_FALSE(parser.parse(2, argv.data()));
    const std::string printed = testing::internal::GetCapturedStdout();
    EXPECT_THAT(printed, HasSubstr("Usage : programme [options]"));
    EXPECT_THAT(printed, HasSubstr("--taille N"));
    EXPECT_THAT(printed, HasSubstr("entre 0 et 1000, défaut 7"));
}

TEST_F(ParserTest, ReadsChoicesInBothForms) {
    const std::array argv{"programme", "--mode", "rapide"};
    EXPECT_TRUE(parser.parse(3, argv.data()));
    EXPECT_EQ(mode, Mode::fast);
    const std::array joined{"programme", "--mode=lent"};
    EXPECT_TRUE(parser.parse(2, joined.data()));
    EXPECT_EQ(mode, Mode::slow);
}

TEST_F(ParserTest, RejectsUnknownChoiceAndListsValidOnes) {
    const std::array argv{"programme", "--mode", "moyen"};
    EXPECT_THAT(usage_error_message([&] { parser.parse(3, argv.data()); }),
                HasSubstr("--mode : « moyen » n'est pas un choix valide ; attendu lent ou rapide"));
    EXPECT_EQ(mode, Mode::slow);
    const std::array missing{"programme", "--mode"};
    EXPECT_THAT(usage_error_message([&] { parser.parse(2, missing.data()); }),
                HasSubstr("--mode : valeur manquante"));
}

TEST_F(ParserTest, FlagTakesNoValue) {
    // Le drapeau ne consomme pas l'argument suivant : « --taille 3 » reste lu.
    const std::array argv{"programme", "--verbeux", "--taille", "3"};
    EXPECT_TRUE(parser.parse(4, argv.data()));
    EXPECT_TRUE(verbose);
    EXPECT_EQ(size, 3);
    const std::array valued{"programme", "--verbeux=oui"};
    EXPECT_THAT(usage_error_message([&] { parser.parse(2, valued.data()); }),
                HasSubstr("--verbeux : c'est un drapeau, il ne prend pas de valeur (« oui » donné)"));
}

TEST_F(ParserTest, HelpDescribesChoicesAndFlags) {
    const std::string help = parser.help();
    EXPECT_THAT(help, HasSubstr("  --mode NOM\n      vitesse (lent ou rapide, défaut lent)\n"));
    EXPECT_THAT(help, HasSubstr("  --verbeux\n      affiche le détail\n"));
    EXPECT_THAT(help, HasSubstr("  --alpha X\n      coefficient (entre -10 et 10, défaut 1)\n"));
}
