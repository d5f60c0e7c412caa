// Lecture du manifeste des exemples : lignes valides, et chaque forme de manifeste refusée.
#include "manifest.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fixture_tree.hpp"

using noyaux::integrity::ManifestEntry;
using noyaux::integrity::ManifestError;
using noyaux::integrity::kManifestHeader;
using noyaux::integrity::parse_manifest;
using noyaux::integrity::read_manifest;
using noyaux::integrity::testing::FixtureTree;
using testing::ElementsAre;
using testing::HasSubstr;

namespace {

// Renvoie le message de la ManifestError levée par f, ou échoue si rien n'est levé.
template <typename F>
std::string manifest_error(F&& f) {
    try {
        f();
    } catch (const ManifestError& error) {
        return error.what();
    }
    ADD_FAILURE() << "ManifestError attendue";
    return {};
}

const std::string kHeader(kManifestHeader);

}  // namespace

TEST(Manifest, ReadsTheRowWrittenByCMake) {
    const auto entries = parse_manifest(
        {kHeader,
         "ressources\t01-boucle-grid-stride\texamples/ressources/01-boucle-grid-stride\t"
         "boucle-grid-stride\tgpu,cpu\tressources.01-boucle-grid-stride.gpu,"
         "ressources.01-boucle-grid-stride.cli\tbench.cu",
         ""});
    ASSERT_EQ(entries.size(), 1u);
    const ManifestEntry& entry = entries.front();
    EXPECT_EQ(entry.part, "ressources");
    EXPECT_EQ(entry.slug, "01-boucle-grid-stride");
    EXPECT_EQ(entry.folder, "examples/ressources/01-boucle-grid-stride");
    EXPECT_EQ(entry.name, "boucle-grid-stride");
    EXPECT_THAT(entry.backends, ElementsAre("gpu", "cpu"));
    EXPECT_THAT(entry.tests, ElementsAre("ressources.01-boucle-grid-stride.gpu",
                                         "ressources.01-boucle-grid-stride.cli"));
    EXPECT_EQ(entry.benchmark, "bench.cu");
}

TEST(Manifest, KeepsAnEmptyTestListAndTheNoBenchmarkReason) {
    const auto entries = parse_manifest(
        {kHeader, "p\t01-a\texamples/p/01-a\ta\tgpu\t\tsans benchmark : rien à mesurer"});
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_TRUE(entries.front().tests.empty());
    EXPECT_EQ(entries.front().benchmark, "sans benchmark : rien à mesurer");
}

TEST(Manifest, HeaderOnlyMeansNoExample) {
    EXPECT_TRUE(parse_manifest({kHeader}).empty());
}

TEST(Manifest, RejectsAWrongOrMissingHeader) {
    EXPECT_EQ(manifest_error([] { parse_manifest({"partie\tslug"}); }),
              "ligne 1 : en-tête inattendu « partie\tslug » ; attendu les colonnes partie, slug, "
              "dossier, nom, backends, tests, benchmark séparées par des tabulations");
    EXPECT_THAT(manifest_error([] { parse_manifest({}); }),
                HasSubstr("ligne 1 : en-tête inattendu «  »"));
}

TEST(Manifest, RejectsAWrongColumnCountWithItsLine) {
    EXPECT_EQ(manifest_error([] { parse_manifest({kHeader, "", "p\t01-a\texamples/p/01-a"}); }),
              "ligne 3 : 3 colonnes au lieu de 7");
    EXPECT_EQ(manifest_error([] { parse_manifest({kHeader, "p\t01-a\tx\ta\tgpu\tt\tb\t8"}); }),
              "ligne 2 : 8 colonnes au lieu de 7");
    EXPECT_EQ(manifest_error([] { parse_manifest({kHeader, "une seule colonne"}); }),
              "ligne 2 : 1 colonne au lieu de 7");
}

TEST(Manifest, RejectsAnEmptyFolderOrName) {
    EXPECT_EQ(manifest_error([] { parse_manifest({kHeader, "p\t01-a\t\ta\tgpu\tt\tbench.cu"}); }),
              "ligne 2 : colonne « dossier » ou « nom » vide");
}

TEST(Manifest, ReadsAFileWithWindowsLineEndings) {
    FixtureTree tree;
    tree.write("m.tsv", kHeader + "\r\np\t01-a\texamples/p/01-a\ta\tgpu\tp.01-a.gpu\tbench.cu\r\n");
    const auto entries = read_manifest(tree.root() / "m.tsv");
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries.front().benchmark, "bench.cu");
}

TEST(Manifest, RejectsAMissingOrUnreadableFile) {
    FixtureTree tree;
    EXPECT_THAT(manifest_error([&] { read_manifest(tree.root() / "absent.tsv"); }),
                HasSubstr("introuvable ; CMake l'écrit à la configuration"));
    EXPECT_EQ(manifest_error([&] { read_manifest(tree.root()); }),
              "illisible, ou n'est pas un fichier");
}
