// Le programme de bout en bout : codes de sortie, sortie standard et erreurs d'usage.
#include "program.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "fixture_tree.hpp"

using noyaux::integrity::kAllGood;
using noyaux::integrity::kBadInput;
using noyaux::integrity::kManifestHeader;
using noyaux::integrity::kViolations;
using noyaux::integrity::ManifestEntry;
using noyaux::integrity::testing::CleanRepository;
using testing::HasSubstr;
using testing::IsEmpty;

namespace {

struct Outcome {
    int code;
    std::string out;
    std::string err;
};

Outcome run(std::vector<std::string> arguments) {
    const std::vector<std::string_view> views(arguments.begin(), arguments.end());
    std::ostringstream out;
    std::ostringstream err;
    const int code = noyaux::integrity::run(views, out, err);
    return {code, out.str(), err.str()};
}

// Le dépôt conforme, et son manifeste écrit comme CMake l'écrit.
class Program : public ::testing::Test {
protected:
    Program() { write_manifest(); }

    void write_manifest() const {
        std::string text = std::string(kManifestHeader) + "\n";
        for (const ManifestEntry& entry : repo_.manifest)
            text += entry.part + "\t" + entry.slug + "\t" + entry.folder + "\t" + entry.name +
                    "\tgpu\t" + (entry.tests.empty() ? "" : entry.tests.front()) + "\t" +
                    entry.benchmark + "\n";
        repo_.tree.write("build/noyaux-exemples.tsv", text);
    }

    Outcome check() const {
        return run({"--racine", root(), "--manifeste", root() + "/build/noyaux-exemples.tsv"});
    }
    std::string root() const { return repo_.tree.root().string(); }

    CleanRepository repo_;
};

}  // namespace

TEST_F(Program, CleanRepositoryExitsZeroWithASummary) {
    const Outcome outcome = check();
    EXPECT_EQ(outcome.code, kAllGood);
    EXPECT_EQ(outcome.out,
              "noyaux-integrite : 1 page, 1 exemple, 1 extrait vérifiés ; aucune erreur\n");
    EXPECT_THAT(outcome.err, IsEmpty());
}

TEST_F(Program, SummaryUsesPluralsAndTheEqualsForm) {
    repo_.tree.write("docs/index.md", "---\nsans_exemple: accueil\n---\n");
    const Outcome outcome =
        run({"--racine=" + root(), "--manifeste=" + root() + "/build/noyaux-exemples.tsv"});
    EXPECT_EQ(outcome.code, kAllGood);
    EXPECT_EQ(outcome.out,
              "noyaux-integrite : 2 pages, 1 exemple, 1 extrait vérifiés ; aucune erreur\n");
}

TEST_F(Program, ViolationsExitOneWithEveryErrorThenASummary) {
    repo_.tree.write("docs/b.md", "# Titre\n--8<-- \"absent.cuh\"\n");
    repo_.tree.write("docs/a.md", "# Titre\n");
    const Outcome outcome = check();
    EXPECT_EQ(outcome.code, kViolations);
    EXPECT_EQ(outcome.out,
              "docs/a.md:1: la page ne nomme aucun exemple : ajoutez à son en-tête « exemples: » "
              "et la liste de ses exemples, ou « sans_exemple: » et la raison\n"
              "docs/b.md:1: la page ne nomme aucun exemple : ajoutez à son en-tête « exemples: » "
              "et la liste de ses exemples, ou « sans_exemple: » et la raison\n"
              "docs/b.md:2: extrait introuvable : le fichier « absent.cuh » n'existe pas\n"
              "noyaux-integrite : 3 erreurs dans 2 fichiers\n");
}

TEST_F(Program, OneErrorIsSingular) {
    repo_.tree.write("docs/a.md", "# Titre\n");
    EXPECT_THAT(check().out, HasSubstr("\nnoyaux-integrite : 1 erreur dans 1 fichier\n"));
}

TEST_F(Program, ReadingOrderListsThePresentFilesOfEachExampleWithoutChecking) {
    repo_.tree.write("docs/a.md", "# Titre\n");  // une faute : la vérification n'a pas lieu
    repo_.tree.write("examples/p/01-a/CMakeLists.txt", "noyaux_add_example(BACKENDS gpu)\n");
    repo_.tree.remove("examples/p/01-a/bench.cu");
    const Outcome outcome = run({"--racine", root(), "--manifeste",
                                 root() + "/build/noyaux-exemples.tsv", "--ordre-de-lecture"});
    EXPECT_EQ(outcome.code, kAllGood);
    EXPECT_EQ(outcome.out,
              "examples/p/01-a\tREADME.md\ttest.cu\ta.cuh\tmain.cu\tCMakeLists.txt\n");
    EXPECT_THAT(outcome.err, IsEmpty());
}

TEST_F(Program, HelpExitsZero) {
    const Outcome outcome = run({"--aide"});
    EXPECT_EQ(outcome.code, kAllGood);
    EXPECT_THAT(outcome.out, HasSubstr("usage : noyaux-integrite --racine DOSSIER --manifeste"));
}

TEST_F(Program, BadArgumentsExitTwoWithAMessage) {
    const std::string manifest = root() + "/build/noyaux-exemples.tsv";
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{}, "noyaux-integrite : option « --racine » manquante\nusage : "},
        {{"--racine", root()}, "noyaux-integrite : option « --manifeste » manquante\n"},
        {{"--racine"}, "noyaux-integrite : --racine : valeur manquante\n"},
        {{"--manifeste="}, "noyaux-integrite : --manifeste : valeur vide\n"},
        {{"--vitesse", "3"},
         "noyaux-integrite : option inconnue « --vitesse » ; options : --racine, --manifeste, "
         "--ordre-de-lecture, --aide\n"},
        {{"--racine", root() + "/absent", "--manifeste", manifest},
         "noyaux-integrite : --racine : « " + root() + "/absent » n'existe pas\n"},
        {{"--racine", root() + "/examples", "--manifeste", manifest},
         "noyaux-integrite : --racine : « " + root() +
             "/examples » n'a pas de dossier docs/ : est-ce bien la racine du dépôt ?\n"},
        {{"--racine", root(), "--manifeste", root() + "/absent.tsv"},
         "noyaux-integrite : manifeste « " + root() +
             "/absent.tsv » : introuvable ; CMake l'écrit à la configuration (cmake --preset "
             "default)\n"},
    };
    for (const auto& [arguments, message] : cases) {
        const Outcome outcome = run(arguments);
        EXPECT_EQ(outcome.code, kBadInput) << message;
        EXPECT_THAT(outcome.err, testing::StartsWith(message));
        EXPECT_THAT(outcome.out, IsEmpty()) << message;
    }
}

TEST_F(Program, MalformedManifestExitsTwo) {
    repo_.tree.write("build/noyaux-exemples.tsv",
                     std::string(kManifestHeader) + "\np\t01-a\texamples/p/01-a\n");
    const Outcome outcome = check();
    EXPECT_EQ(outcome.code, kBadInput);
    EXPECT_EQ(outcome.err,
              "noyaux-integrite : manifeste « " + root() +
                  "/build/noyaux-exemples.tsv » : ligne 2 : 3 colonnes au lieu de 7\n");
}
