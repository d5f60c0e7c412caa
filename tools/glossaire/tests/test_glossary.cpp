/**
 * @file test_glossary.cpp
 * @brief Tests de la commande glossaire : sur le vrai glossaire (les questions d'un lecteur)
 *        et sur des fiches écrites à la volée ou tirées de fixtures/ (les défauts).
 */
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "glossary.hpp"
#include "program.hpp"

namespace noyaux::glossary {
namespace {

struct Output {
    int code;
    std::string out, err;
};

Output run_with(std::vector<std::string_view> arguments, const std::filesystem::path& directory = NOYAUX_GLOSSARY_DIR) {
    std::ostringstream out, err;
    const int code = run(arguments, directory, out, err);
    return {code, out.str(), err.str()};
}

// --- Le vrai glossaire : les questions de l'issue ------------------------------------------

TEST(Commande, TrouveWarpParSonNom) {
    const auto r = run_with({"warp"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(r.out.starts_with("Warp\n")) << r.out;
    EXPECT_NE(r.out.find("groupe de 32 threads"), std::string::npos) << "définition : " << r.out;
    EXPECT_NE(r.out.find("Voir aussi : "), std::string::npos);
    EXPECT_NE(r.out.find("examples/ressources/03-primitives-warp"), std::string::npos);
    EXPECT_NE(r.out.find(R"(ctest --test-dir build -R '^ressources\.03-primitives-warp\.')"), std::string::npos);
    // Le « voir aussi » donne les noms français, pas les slugs.
    EXPECT_EQ(r.out.find("ordonnanceur-de-warps,"), std::string::npos) << r.out;
}

TEST(Commande, MemePartageeAvecOuSansAccents) {
    const auto accented = run_with({"Mémoire partagée"});
    const auto plain = run_with({"memoire", "partagee"});  // deux mots, sans guillemets
    const auto shouted = run_with({"MÉMOIRE-PARTAGÉE"});
    ASSERT_EQ(accented.code, 0) << accented.err;
    EXPECT_TRUE(accented.out.starts_with("Mémoire partagée — Shared Memory (SMEM)\n")) << accented.out;
    EXPECT_EQ(plain.out, accented.out);
    EXPECT_EQ(shouted.out, accented.out);
}

TEST(Commande, TrouveParAbreviationEtParNomAnglais) {
    const auto sm = run_with({"SM"});
    ASSERT_EQ(sm.code, 0) << sm.err;
    EXPECT_TRUE(sm.out.starts_with("Multiprocesseur de flux — Streaming Multiprocessor (SM)\n")) << sm.out;
    EXPECT_EQ(run_with({"streaming multiprocessor"}).out, sm.out);
    EXPECT_EQ(run_with({"sm"}).out, sm.out);
}

TEST(Commande, FauteDeFrappeProposeLesTermesProches) {
    const auto r = run_with({"wrap"});
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("« wrap » n'est pas dans le glossaire. Vouliez-vous dire :"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("  Warp"), std::string::npos) << r.err;
    const auto long_typo = run_with({"memoire partgee"});
    EXPECT_EQ(long_typo.code, 1);
    EXPECT_NE(long_typo.err.find("Mémoire partagée"), std::string::npos) << long_typo.err;
}

TEST(Commande, TermeInconnuEchoueClairement) {
    const auto r = run_with({"photosynthèse"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("« photosynthèse » n'est pas dans le glossaire ("), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("« glossaire --liste »"), std::string::npos);
}

TEST(Commande, ListeParCategorie) {
    const auto all = run_with({"--liste"});
    ASSERT_EQ(all.code, 0) << all.err;
    for (std::string_view category : kCategories)
        EXPECT_NE(all.out.find(std::string(category) + " ("), std::string::npos) << category;
    const auto hardware = run_with({"--liste", "--categorie", "materiel"});
    ASSERT_EQ(hardware.code, 0) << hardware.err;
    EXPECT_TRUE(hardware.out.starts_with("matériel (")) << hardware.out;
    EXPECT_NE(hardware.out.find("[multiprocesseur]"), std::string::npos);
    EXPECT_EQ(hardware.out.find("[warp]"), std::string::npos) << "warp est du logiciel côté GPU";
    EXPECT_EQ(run_with({"--liste", "--categorie", "cuisine"}).code, 2);
}

// --- Fonctions de base ----------------------------------------------------------------------

TEST(Normalisation, AccentsCasseTiretsEtEspaces) {
    EXPECT_EQ(normalize("Mémoire  partagée"), "memoire partagee");
    EXPECT_EQ(normalize("  CŒUR-de_GPU "), "coeur de gpu");
    EXPECT_EQ(normalize("l’occupation"), "l occupation");
    EXPECT_EQ(normalize("Ça"), "ca");
}

TEST(Distance, InsertionSuppressionSubstitutionTransposition) {
    EXPECT_EQ(edit_distance("warp", "warp"), 0u);
    EXPECT_EQ(edit_distance("wrap", "warp"), 1u);  // transposition
    EXPECT_EQ(edit_distance("war", "warp"), 1u);
    EXPECT_EQ(edit_distance("wbrp", "warp"), 1u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(edit_distance("noyau", "grille"), 6u);
}

TEST(Definition, PremierePhraseSansBalisage) {
    EXPECT_EQ(first_sentence("\nUn **warp** est un groupe de 32 [threads](thread.md).\nIl avance ensemble. Suite.\n"),
              "Un warp est un groupe de 32 threads.");
    // « § 7.1. » ou « 9.0 » ne coupent pas ; une minuscule après le point non plus.
    EXPECT_EQ(first_sentence("Le *PDL* existe dès la capacité 9.0 (§ 7.1). Voici la suite."),
              "Le PDL existe dès la capacité 9.0 (§ 7.1).");
    EXPECT_EQ(first_sentence("Le `cp.async` copie. Ensuite."), "Le cp.async copie.");
    EXPECT_EQ(first_sentence("Pas de point final"), "Pas de point final");
}

TEST(Ctest, CommandeSelonLaConventionDesNoms) {
    EXPECT_EQ(ctest_command("examples/glossaire/03-divergence"), R"(ctest --test-dir build -R '^glossaire\.03-divergence\.')");
    EXPECT_EQ(ctest_command("examples/gemm/01-naif/"), R"(ctest --test-dir build -R '^gemm\.01-naif\.')");
}

// --- Fichiers mal formés : fichier, ligne, message en français -------------------------------

class FichesEcrites : public ::testing::Test {
protected:
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                ("noyaux-glossaire-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                 "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    void SetUp() override { std::filesystem::create_directories(dir); }
    void TearDown() override { std::filesystem::remove_all(dir); }
    void write(const std::string& name, const std::string& text) { std::ofstream(dir / name) << text; }
    static std::string entry(const std::string& header_lines, const std::string& body = "Une **fiche** définit.\n") {
        return "---\n" + header_lines + "---\n" + body;
    }
    static constexpr const char* kValid =
        "terme: Fiche\nanglais: Entry\nalias: []\ncategorie: performance\narchitecture: toutes\n"
        "voir_aussi: [fiche]\nexemples: [examples/x/01-y]\nsources:\n  - {titre: T, url: https://example.invalid/}\n";
};

TEST_F(FichesEcrites, FicheValideChargee) {
    write("fiche.md", entry(kValid));
    const Glossary glossary = load(dir, "g/");
    ASSERT_TRUE(glossary.errors.empty()) << glossary.errors.front().format();
    ASSERT_EQ(glossary.terms.size(), 1u);
    EXPECT_EQ(glossary.terms[0].definition, "Une fiche définit.");
}

TEST_F(FichesEcrites, SyntaxeYamlInvalideDonneFichierEtLigne) {
    write("fiche.md", entry("terme: Fiche\nanglais: Entry: double\nalias: []\n"));
    const Glossary glossary = load(dir, "g/");
    ASSERT_EQ(glossary.errors.size(), 1u) << glossary.errors[0].format() << " / " << glossary.errors[1].format();
    EXPECT_EQ(glossary.errors[0].file, "g/fiche.md");
    EXPECT_EQ(glossary.errors[0].line, 3);
    EXPECT_NE(glossary.errors[0].message.find("une valeur qui contient « : » s'écrit entre guillemets"), std::string::npos)
        << glossary.errors[0].format();
}

TEST_F(FichesEcrites, CleManquanteCategorieInconnueSansExemple) {
    std::string header = kValid;
    header.replace(header.find("anglais: Entry\n"), 15, "");
    header.replace(header.find("performance"), 11, "cuisine");
    header.replace(header.find("[examples/x/01-y]"), 17, "[]");
    write("fiche.md", entry(header));
    const Glossary glossary = load(dir, "g/");
    ASSERT_EQ(glossary.errors.size(), 3u);
    EXPECT_EQ(glossary.errors[0].format(), "g/fiche.md:1: clé « anglais » manquante dans l'en-tête");
    EXPECT_EQ(glossary.errors[1].line, 4);
    EXPECT_NE(glossary.errors[1].message.find("catégorie inconnue « cuisine »"), std::string::npos);
    EXPECT_EQ(glossary.errors[2].line, 7);
    EXPECT_NE(glossary.errors[2].message.find("« exemples » : 0 élément(s), attendu de 1 à 3"), std::string::npos);
    EXPECT_TRUE(glossary.terms.empty());
}

TEST_F(FichesEcrites, RenvoiEtLienVersUneFicheAbsente) {
    std::string header = kValid;
    header.replace(header.find("[fiche]"), 7, "[absente]");
    write("fiche.md", entry(header, "Une **fiche** définit.\n\nVoir [l'autre](autre.md).\n"));
    const Glossary glossary = load(dir, "g/");
    ASSERT_EQ(glossary.errors.size(), 2u);
    EXPECT_EQ(glossary.errors[0].format(), "g/fiche.md:7: voir_aussi : aucune fiche « absente » (fichier glossary/absente.md absent)");
    EXPECT_EQ(glossary.errors[1].line, 14);
    EXPECT_NE(glossary.errors[1].message.find("lien « autre.md »"), std::string::npos);
}

TEST_F(FichesEcrites, ExempleAnnonceAccepteEtCompte) {
    std::string header = kValid;
    header.replace(header.find("[examples/x/01-y]"), 17, "[examples/x/02-a-venir]");
    write("fiche.md", entry(header));
    write("exemples-a-venir.txt", "# annoncés\nexamples/x/02-a-venir\n");
    write("manifeste.tsv", "partie\tslug\tdossier\tnom\tbackends\ttests\tbenchmark\n"
                           "x\t01-y\texamples/x/01-y\ty\tcpu\tx.01-y.cpu\tbench.cu\n");
    const std::string manifest = (dir / "manifeste.tsv").string();
    const auto accepted = run_with({"--verifier", "--manifeste", manifest}, dir);
    EXPECT_EQ(accepted.code, 0) << accepted.err;
    EXPECT_NE(accepted.out.find("1 exemple reste à venir, 1 fiche n'a encore aucun exemple construit"),
              std::string::npos) << accepted.out;
    EXPECT_NE(accepted.out.find("à venir : examples/x/02-a-venir (fiche)"), std::string::npos) << accepted.out;
    // Retiré de la liste, le même exemple est refusé.
    write("exemples-a-venir.txt", "");
    const auto refused = run_with({"--verifier", "--manifeste", manifest}, dir);
    EXPECT_EQ(refused.code, 1);
    EXPECT_NE(refused.err.find("exemple « examples/x/02-a-venir » inconnu"), std::string::npos) << refused.err;
}

TEST(FixtureMalFormee, LaCommandeNommeFichierEtLigne) {
    const auto r = run_with({"grille"}, GLOSSARY_FIXTURES "/mal-forme");
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("mal-forme/bloc.md:5: en-tête YAML : liste « [ … ] » non fermée par « ] »"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("1 erreur dans 1 fichier"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace noyaux::glossary
