/**
 * @file fixture_tree.hpp
 * @brief Arbres de dépôt jetables pour les tests : un dossier temporaire, des fichiers écrits
 *        par le test lui-même, supprimé à la fin.
 */
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostic.hpp"
#include "manifest.hpp"

namespace noyaux::integrity {

// Affichage lisible des diagnostics dans les messages d'échec de GoogleTest.
inline void PrintTo(const Diagnostic& diagnostic, std::ostream* out) {
    *out << diagnostic.format();
}

}  // namespace noyaux::integrity

namespace noyaux::integrity::testing {

namespace fs = std::filesystem;

/** @brief Un dossier temporaire propre au test en cours, supprimé à la destruction. */
class FixtureTree {
public:
    FixtureTree() {
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        root_ = fs::temp_directory_path() /
                ("noyaux-integrite-" + std::string(test->test_suite_name()) + "-" +
                 test->name() + "-" + std::to_string(std::random_device{}()));
        fs::create_directories(root_);
    }
    ~FixtureTree() {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }
    FixtureTree(const FixtureTree&) = delete;
    FixtureTree& operator=(const FixtureTree&) = delete;

    const fs::path& root() const { return root_; }

    /** @brief Écrit @p content dans @p relative, dossiers parents compris. */
    void write(std::string_view relative, std::string_view content) const {
        const fs::path path = root_ / relative;
        fs::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << content;
    }

    /** @brief Ajoute @p content à la fin de @p relative. */
    void append(std::string_view relative, std::string_view content) const {
        std::ofstream(root_ / relative, std::ios::binary | std::ios::app) << content;
    }

    void remove(std::string_view relative) const { fs::remove_all(root_ / relative); }

private:
    fs::path root_;
};

/** @brief L'exemple examples/p/01-a du dépôt conforme. */
inline ManifestEntry example_a() {
    return {"p", "01-a", "examples/p/01-a", "a", {"gpu"}, {"p.01-a.gpu", "p.01-a.cli"}, "bench.cu"};
}

/**
 * @brief Écrit les fichiers d'un exemple complet ; son en-tête délimite la section « noyau ».
 *        Le README renvoie vers la page du dépôt conforme, docs/p/index.md.
 */
inline void write_example(const FixtureTree& tree, const ManifestEntry& entry) {
    tree.write(entry.folder + "/README.md",
               "# Exemple\n\nPage du site : [Page](../../../docs/p/index.md)\n\n"
               "## Ordre de lecture\n\n1. Ce fichier.\n2. `test.cu`\n3. `bench.cu`\n4. `" +
                   entry.name + ".cuh`\n5. `main.cu`\n");
    tree.write(entry.folder + "/" + entry.name + ".cuh",
               "#pragma once\n"
               "// --8<-- [start:noyau]\n"
               "__global__ void noyau() {}\n"
               "// --8<-- [end:noyau]\n");
    for (const char* file : {"main.cu", "test.cu", "bench.cu"})
        tree.write(entry.folder + "/" + file, "// vide\n");
}

/** @brief La page conforme : elle nomme examples/p/01-a et inclut sa section « noyau ». */
inline constexpr std::string_view kCleanPage =
    "---\n"
    "title: Page\n"
    "exemples:\n"
    "  - examples/p/01-a\n"
    "---\n"
    "\n"
    "# Page\n"
    "\n"
    "```cpp\n"
    "--8<-- \"examples/p/01-a/a.cuh:noyau\"\n"
    "```\n";

/** @brief Un dépôt conforme : une page, un exemple, une inclusion ; aucune erreur. */
struct CleanRepository {
    FixtureTree tree;
    std::vector<ManifestEntry> manifest{example_a()};

    CleanRepository() {
        tree.write("docs/p/index.md", kCleanPage);
        write_example(tree, manifest.front());
    }
};

}  // namespace noyaux::integrity::testing
