// Les règles d'intégrité sur un dépôt conforme, puis chaque faute introduite une à une :
// exactement l'erreur attendue, à son fichier et à sa ligne.
#include "integrity.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fixture_tree.hpp"

using noyaux::integrity::check_repository;
using noyaux::integrity::Diagnostic;
using noyaux::integrity::ManifestEntry;
using noyaux::integrity::Report;
using noyaux::integrity::testing::CleanRepository;
using noyaux::integrity::testing::example_a;
using noyaux::integrity::testing::write_example;
using testing::ElementsAre;
using testing::IsEmpty;

namespace {

class Rules : public ::testing::Test {
protected:
    Report check() const { return check_repository(repo_.tree.root(), repo_.manifest); }
    void write(std::string_view path, std::string_view content) const {
        repo_.tree.write(path, content);
    }

    CleanRepository repo_;
};

}  // namespace

TEST_F(Rules, CleanRepositoryHasNoError) {
    const Report report = check();
    EXPECT_THAT(report.errors, IsEmpty());
    EXPECT_EQ(report.pages, 1u);
    EXPECT_EQ(report.examples, 1u);
    EXPECT_EQ(report.inclusions, 1u);
}

TEST_F(Rules, ApiFoldersAreNotPages) {
    write("docs/api/classe.md", "Référence générée, sans en-tête.\n");
    write("docs/p/api/index.md", "Idem.\n");
    write("docs/p/notes.txt", "Pas une page.\n");
    const Report report = check();
    EXPECT_THAT(report.errors, IsEmpty());
    EXPECT_EQ(report.pages, 1u);
}

// Règle 1.
TEST_F(Rules, PageNamingNoExampleIsAnError) {
    write("docs/p/vide.md", "# Titre\n");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"docs/p/vide.md", 1,
                                       "la page ne nomme aucun exemple : ajoutez à son en-tête "
                                       "« exemples: » et la liste de ses exemples, ou "
                                       "« sans_exemple: » et la raison"}));
}

TEST_F(Rules, PageWithAReasonIsAccepted) {
    write("docs/index.md", "---\nsans_exemple: page d'accueil du site\n---\n# Noyaux\n");
    EXPECT_THAT(check().errors, IsEmpty());
}

TEST_F(Rules, EmptyExampleListIsAnError) {
    write("docs/p/liste.md", "---\ntitle: x\nexemples: []\n---\n");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"docs/p/liste.md", 3,
                                       "« exemples » est vide : nommez au moins un exemple "
                                       "(- examples/<partie>/<NN-slug>), ou donnez la raison "
                                       "dans « sans_exemple »"}));
}

TEST_F(Rules, EmptyReasonIsAnError) {
    write("docs/p/raison.md", "---\nsans_exemple: \"\"\n---\n");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"docs/p/raison.md", 2,
                                       "« sans_exemple » est vide : donnez la raison en une "
                                       "phrase"}));
}

TEST_F(Rules, ExamplesAndReasonTogetherAreAnError) {
    write("docs/p/deux.md",
          "---\nexemples:\n  - examples/p/01-a\nsans_exemple: à venir\n---\n");
    repo_.tree.append("examples/p/01-a/README.md", "\n[Deux](../../../docs/p/deux.md)\n");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"docs/p/deux.md", 4,
                                       "« exemples » et « sans_exemple » s'excluent : gardez "
                                       "l'un ou l'autre"}));
}

// Règle 2.
TEST_F(Rules, UnknownExampleIsAnErrorOnItsLine) {
    write("docs/p/index.md",
          "---\nexemples:\n  - examples/p/01-a\n  - examples/p/02-b\n---\n");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"docs/p/index.md", 4,
                                       "exemple « examples/p/02-b » inexistant : ni dossier de ce "
                                       "nom, ni entrée dans le manifeste"}));
}

TEST_F(Rules, ExampleFolderMissingFromTheManifestIsAnError) {
    write_example(repo_.tree, {"p", "02-b", "examples/p/02-b", "b", {}, {}, "bench.cu"});
    write("docs/p/index.md", "---\nexemples: [examples/p/01-a, examples/p/02-b]\n---\n");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"docs/p/index.md", 2,
                                       "exemple « examples/p/02-b » absent du manifeste : son "
                                       "CMakeLists.txt appelle-t-il noyaux_add_example() ?"}));
}

TEST_F(Rules, ExampleWithoutTestIsAnError) {
    repo_.manifest.front().tests.clear();
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"docs/p/index.md", 4,
                                       "exemple « examples/p/01-a » sans aucun test ctest dans "
                                       "le manifeste"}));
}

// Règle 3.
TEST_F(Rules, ExampleNamedByNoPageIsAnErrorOnItsReadme) {
    ManifestEntry b{"p", "02-b", "examples/p/02-b", "b", {"gpu"}, {"p.02-b.gpu"}, "bench.cu"};
    write_example(repo_.tree, b);
    repo_.manifest.push_back(b);
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"examples/p/02-b/README.md", 1,
                                       "aucune page ne nomme cet exemple : ajoutez "
                                       "« examples/p/02-b » à la liste « exemples » de l'en-tête "
                                       "de sa page (ou d'une fiche de glossary/)"}));
}

TEST_F(Rules, ExampleNamedOnlyByAGlossaryTermIsNotAnOrphan) {
    ManifestEntry b{"p", "02-b", "examples/p/02-b", "b", {"gpu"}, {"p.02-b.gpu"}, "bench.cu"};
    write_example(repo_.tree, b);
    repo_.manifest.push_back(b);
    // La fiche nomme aussi un exemple à venir : c'est à « glossaire --verifier » d'en juger.
    write("glossary/terme.md",
          "---\nterme: Terme\nexemples:\n  - examples/p/02-b\n  - examples/p/09-a-venir\n---\n"
          "Un **terme** est…\n");
    EXPECT_THAT(check().errors, IsEmpty());
}

// Règle 4.
TEST_F(Rules, InclusionOfAMissingFileIsAnError) {
    write("docs/p/index.md",
          "---\nexemples: [examples/p/01-a]\n---\n--8<-- \"examples/p/01-a/absent.cuh:noyau\"\n"
          "--8<-- \"examples/p/01-a/absent.cu\"\n");
    EXPECT_THAT(
        check().errors,
        ElementsAre(Diagnostic{"docs/p/index.md", 4,
                               "extrait introuvable : le fichier « examples/p/01-a/absent.cuh » "
                               "n'existe pas"},
                    Diagnostic{"docs/p/index.md", 5,
                               "extrait introuvable : le fichier « examples/p/01-a/absent.cu » "
                               "n'existe pas"}));
}

TEST_F(Rules, InclusionOfAMissingSectionIsAnError) {
    write("docs/p/index.md",
          "---\nexemples: [examples/p/01-a]\n---\n\n"
          "--8<-- \"examples/p/01-a/a.cuh:inexistante\"\n");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"docs/p/index.md", 5,
                                       "section « inexistante » absente de « examples/p/01-a/"
                                       "a.cuh » : ni « --8<-- [start:inexistante] » ni « --8<-- "
                                       "[end:inexistante] »"}));
}

TEST_F(Rules, BrokenSectionIsReportedOnEveryPageThatIncludesIt) {
    write("examples/p/01-a/a.cuh", "// --8<-- [start:noyau]\ncode\n");
    write("docs/p/autre.md",
          "---\nexemples: [examples/p/01-a]\n---\n--8<-- \"examples/p/01-a/a.cuh:noyau\"\n");
    repo_.tree.append("examples/p/01-a/README.md", "\n[Autre](../../../docs/p/autre.md)\n");
    const std::string message =
        "section « noyau » de « examples/p/01-a/a.cuh » jamais fermée : « --8<-- [end:noyau] » "
        "manque";
    const Report report = check();
    EXPECT_THAT(report.errors, ElementsAre(Diagnostic{"docs/p/autre.md", 4, message},
                                           Diagnostic{"docs/p/index.md", 10, message}));
    EXPECT_EQ(report.inclusions, 2u);
}

// Règle 5.
TEST_F(Rules, MissingExampleFilesAreErrors) {
    repo_.tree.remove("examples/p/01-a/main.cu");
    repo_.tree.remove("examples/p/01-a/test.cu");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"examples/p/01-a/main.cu", 1,
                                       "fichier requis absent de l'exemple"},
                            Diagnostic{"examples/p/01-a/test.cu", 1,
                                       "fichier requis absent de l'exemple"}));
}

TEST_F(Rules, MissingHeaderNamedAfterTheExampleIsAnError) {
    repo_.manifest.front().name = "autre";
    EXPECT_THAT(check().errors, ElementsAre(Diagnostic{"examples/p/01-a/autre.cuh", 1,
                                                       "fichier requis absent de l'exemple"}));
}

TEST_F(Rules, MissingReadmeIsReportedOnce) {
    repo_.tree.remove("examples/p/01-a/README.md");
    EXPECT_THAT(check().errors, ElementsAre(Diagnostic{"examples/p/01-a/README.md", 1,
                                                       "fichier requis absent de l'exemple"}));
}

TEST_F(Rules, AnnouncedBenchmarkMustExist) {
    repo_.tree.remove("examples/p/01-a/bench.cu");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{
                    "examples/p/01-a/bench.cu", 1,
                    "fichier requis absent : le manifeste annonce « bench.cu »"}));
}

TEST_F(Rules, NoBenchmarkNeedsAReason) {
    repo_.tree.remove("examples/p/01-a/bench.cu");
    repo_.manifest.front().benchmark = "sans benchmark : aucune mesure n'a de sens ici";
    EXPECT_THAT(check().errors, IsEmpty());
    for (const char* benchmark : {"sans benchmark : ", "sans benchmark :", "", "bench.cpp"}) {
        repo_.manifest.front().benchmark = benchmark;
        EXPECT_THAT(check().errors,
                    ElementsAre(Diagnostic{"examples/p/01-a/CMakeLists.txt", 1,
                                           "ni bench.cu ni raison de son absence : le manifeste "
                                           "annonce « " + std::string(benchmark) +
                                               " » ; attendu « bench.cu » ou « sans benchmark : "
                                               "<raison> » (NO_BENCHMARK_REASON)"}))
            << benchmark;
    }
}

TEST_F(Rules, MissingExampleFolderIsOneError) {
    repo_.tree.remove("examples/p/01-a");
    write("docs/p/index.md", "---\nexemples: [examples/p/01-a]\n---\n");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"examples/p/01-a", 1,
                                       "dossier de l'exemple introuvable (le manifeste est-il à "
                                       "jour ?)"}));
}

// Règle 8.
TEST_F(Rules, ReadmeMustLinkToEveryPageNamingTheExample) {
    write("docs/q/autre.md", "---\nexemples: [examples/p/01-a]\n---\n");
    write("docs/q/troisieme.md", "---\nexemples: [examples/p/01-a]\n---\n");
    EXPECT_THAT(
        check().errors,
        ElementsAre(Diagnostic{"examples/p/01-a/README.md", 1,
                               "le README ne renvoie pas vers « docs/q/autre.md », qui nomme cet "
                               "exemple : ajoutez une ligne « Page du site : [titre]"
                               "(../../../docs/q/autre.md) »"},
                    Diagnostic{"examples/p/01-a/README.md", 1,
                               "le README ne renvoie pas vers « docs/q/troisieme.md », qui nomme "
                               "cet exemple : ajoutez une ligne « Page du site : [titre]"
                               "(../../../docs/q/troisieme.md) »"}));
}

TEST_F(Rules, LinksWithAnchorsTitlesOrReferencesCount) {
    write("docs/q/a.md", "---\nexemples: [examples/p/01-a]\n---\n");
    write("docs/q/b.md", "---\nexemples: [examples/p/01-a]\n---\n");
    write("docs/q/c.md", "---\nexemples: [examples/p/01-a]\n---\n");
    repo_.tree.append("examples/p/01-a/README.md",
                      "\nVoir [A](../../../docs/q/a.md#section) et [B](<../../../docs/q/b.md> "
                      "\"titre\").\n\n[c]: ../.././../docs/q/c.md\n");
    EXPECT_THAT(check().errors, IsEmpty());
}

TEST_F(Rules, LinksThatDoNotReachThePageDoNotCount) {
    write("docs/q/a.md", "---\nexemples: [examples/p/01-a]\n---\n");
    write("examples/docs/a.md", "Le fichier existe, mais ce n'est pas la page.\n");
    repo_.tree.append("examples/p/01-a/README.md",
                      "\n[Mauvais niveau](../../docs/a.md) · [Adresse](https://x.org/docs/q/a.md)"
                      "\n\n```markdown\n[Dans du code](../../../docs/q/a.md)\n```\n");
    const Report report = check();
    ASSERT_EQ(report.errors.size(), 1u);
    EXPECT_EQ(report.errors.front().file, "examples/p/01-a/README.md");
    EXPECT_THAT(report.errors.front().message, testing::HasSubstr("« docs/q/a.md »"));
}

TEST_F(Rules, BrokenRelativeLinkOfAReadmeIsAnErrorOnItsLine) {
    repo_.tree.append("examples/p/01-a/README.md",
                      "\nVoir [la page](../../../docs/p/absente.md#x) et [le test](test.cu).\n");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"examples/p/01-a/README.md", 13,
                                       "lien cassé : « ../../../docs/p/absente.md » ne mène à rien "
                                       "(« docs/p/absente.md » n'existe pas)"}));
}

TEST_F(Rules, MissingReadmeIsNotAlsoReportedAsUnlinked) {
    write("docs/q/a.md", "---\nexemples: [examples/p/01-a]\n---\n");
    repo_.tree.remove("examples/p/01-a/README.md");
    EXPECT_THAT(check().errors, ElementsAre(Diagnostic{"examples/p/01-a/README.md", 1,
                                                       "fichier requis absent de l'exemple"}));
}

// Règle 6.
TEST_F(Rules, MalformedHeaderIsAnErrorNotACrash) {
    write("docs/p/ouvert.md", "---\nexemples:\n  - examples/p/01-a\n# Titre\n");
    write("docs/p/liste.md", "---\nexemples:\n  examples/p/01-a\n---\n");
    EXPECT_THAT(check().errors,
                ElementsAre(Diagnostic{"docs/p/liste.md", 2,
                                       "« exemples » attend une liste : un élément « - examples/"
                                       "<partie>/<NN-slug> » par ligne, ou [ a, b ] ; reçu "
                                       "« examples/p/01-a »"},
                            Diagnostic{"docs/p/ouvert.md", 1,
                                       "en-tête YAML : ouvert par « --- » mais jamais fermé : "
                                       "ajoutez une ligne « --- » après la dernière clé"}));
}

TEST_F(Rules, ErrorsAreSortedByFileThenLine) {
    write("docs/b.md", "# sans en-tête\n--8<-- \"absent.cuh\"\n");
    write("docs/a.md", "---\nexemples: [examples/z/09-z]\n---\n");
    const Report report = check();
    std::vector<std::string> where;
    for (const Diagnostic& error : report.errors)
        where.push_back(error.file + ":" + std::to_string(error.line));
    EXPECT_THAT(where, ElementsAre("docs/a.md:2", "docs/b.md:1", "docs/b.md:2"));
}

TEST_F(Rules, RootWrittenWithATrailingSlashGivesTheSamePaths) {
    write("docs/p/vide.md", "# Titre\n");
    const Report report =
        check_repository(repo_.tree.root().string() + "/", repo_.manifest);
    ASSERT_EQ(report.errors.size(), 1u);
    EXPECT_EQ(report.errors.front().file, "docs/p/vide.md");
}
