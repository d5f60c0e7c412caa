/**
 * @file integrity.cpp
 * @brief Les règles d'intégrité entre pages, exemples et extraits de code.
 */
#include "integrity.hpp"
#include "reading_order.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "anatomy.hpp"
#include "front_matter.hpp"
#include "links.hpp"
#include "snippets.hpp"
#include "text.hpp"

namespace noyaux::integrity {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kNoBenchmark = "sans benchmark :";

// Les pages du site, triées pour que la sortie ne dépende pas de l'ordre du disque.
// Les dossiers « api » contiennent la référence générée par Doxygen, pas des pages écrites.
std::vector<fs::path> find_pages(const fs::path& docs) {
    std::vector<fs::path> pages;
    std::error_code error;
    for (auto it = fs::recursive_directory_iterator(docs, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
        std::error_code unreadable;  // entrée illisible : ni page, ni dossier à parcourir
        if (it->is_directory(unreadable) && it->path().filename() == "api") {
            it.disable_recursion_pending();
        } else if (it->is_regular_file(unreadable) && it->path().extension() == ".md") {
            pages.push_back(it->path());
        }
    }
    std::sort(pages.begin(), pages.end());
    return pages;
}

class Checker {
public:
    Checker(fs::path root, const std::vector<ManifestEntry>& manifest)
        : root_(std::move(root)), manifest_(manifest) {
        for (const ManifestEntry& entry : manifest_) by_folder_[entry.folder] = &entry;
    }

    Report run() {
        for (const fs::path& page : find_pages(root_ / "docs")) check_page(page);
        std::error_code no_glossary;
        if (fs::is_directory(root_ / "glossary", no_glossary))
            for (const fs::path& term : find_pages(root_ / "glossary")) register_term(term);
        for (const ManifestEntry& entry : manifest_) {
            check_named(entry);
            check_example_files(entry);
        }
        report_.examples = manifest_.size();
        std::sort(report_.errors.begin(), report_.errors.end());
        return std::move(report_);
    }

private:
    std::string relative(const fs::path& path) const {
        return path.lexically_relative(root_).generic_string();
    }

    void error(std::string file, int line, std::string message) {
        report_.errors.push_back({std::move(file), line, std::move(message)});
    }

    void check_page(const fs::path& path) {
        ++report_.pages;
        const std::string page = relative(path);
        const auto lines = read_lines(path);
        if (!lines) return error(page, 1, "page illisible");
        FrontMatter front = parse_front_matter(*lines, page);
        for (Diagnostic& problem : front.errors) report_.errors.push_back(std::move(problem));
        check_declaration(page, front);
        for (const Located& example : front.examples) check_named_example(page, example);
        PageInclusions found = find_inclusions(*lines, page, front.body_line);
        for (Diagnostic& problem : found.errors) report_.errors.push_back(std::move(problem));
        for (const Inclusion& inclusion : found.inclusions) check_inclusion(page, inclusion);
    }

    // Une fiche du glossaire (glossary/<terme>.md) devient une page du site qui nomme ses
    // exemples : un exemple qu'elle nomme n'est pas orphelin (règle 3). La règle 8 ne la
    // compte pas (un exemple courant est cité par des dizaines de fiches, la page du terme
    // renvoie déjà à lui) ; ses exemples encore à venir et le reste de sa forme relèvent de
    // « glossaire --verifier ».
    void register_term(const fs::path& path) {
        const auto lines = read_lines(path);
        if (!lines) return error(relative(path), 1, "fiche illisible");
        const FrontMatter front = parse_front_matter(*lines, relative(path));
        for (const Located& example : front.examples)
            if (by_folder_.contains(example.value)) named_by_terms_.insert(example.value);
    }

    // Règle 1 : des exemples, ou la raison de leur absence, pas les deux.
    void check_declaration(const std::string& page, const FrontMatter& front) {
        if (front.examples_line && front.no_example) {
            error(page, front.no_example->line,
                  "« exemples » et « sans_exemple » s'excluent : gardez l'un ou l'autre");
        } else if (front.no_example) {
            if (front.no_example->value.empty() && front.errors.empty())
                error(page, front.no_example->line,
                      "« sans_exemple » est vide : donnez la raison en une phrase");
        } else if (front.examples_line) {
            if (front.examples.empty() && front.errors.empty())
                error(page, *front.examples_line,
                      "« exemples » est vide : nommez au moins un exemple "
                      "(- examples/<partie>/<NN-slug>), ou donnez la raison dans « sans_exemple »");
        } else if (front.errors.empty()) {
            error(page, 1,
                  "la page ne nomme aucun exemple : ajoutez à son en-tête « exemples: » et la "
                  "liste de ses exemples, ou « sans_exemple: » et la raison");
        }
    }

    // Règle 2 : l'exemple nommé est déclaré à CMake et testé.
    void check_named_example(const std::string& page, const Located& example) {
        naming_pages_[example.value].insert(page);
        const auto found = by_folder_.find(example.value);
        if (found == by_folder_.end()) {
            std::error_code missing;
            if (fs::is_directory(root_ / example.value, missing))
                error(page, example.line,
                      "exemple " + guillemets(example.value) +
                          " absent du manifeste : son CMakeLists.txt appelle-t-il "
                          "noyaux_add_example() ?");
            else
                error(page, example.line,
                      "exemple " + guillemets(example.value) +
                          " inexistant : ni dossier de ce nom, ni entrée dans le manifeste");
        } else if (found->second->tests.empty()) {
            error(page, example.line,
                  "exemple " + guillemets(example.value) +
                      " sans aucun test ctest dans le manifeste");
        }
    }

    // Règle 3 : aucun exemple orphelin.
    void check_named(const ManifestEntry& entry) {
        if (naming_pages_.contains(entry.folder) || named_by_terms_.contains(entry.folder)) return;
        error(entry.folder + "/README.md", 1,
              "aucune page ne nomme cet exemple : ajoutez " + guillemets(entry.folder) +
                  " à la liste « exemples » de l'en-tête de sa page (ou d'une fiche de glossary/)");
    }

    // Règle 4 : l'extrait inclus existe, et sa section est bien délimitée.
    void check_inclusion(const std::string& page, const Inclusion& inclusion) {
        ++report_.inclusions;
        const auto lines = source_lines(inclusion.path);
        if (!lines) {
            error(page, inclusion.line,
                  "extrait introuvable : le fichier " + guillemets(inclusion.path) +
                      " n'existe pas");
            return;
        }
        if (inclusion.section.empty()) return;
        auto markers = sections_.find(inclusion.path);
        if (markers == sections_.end())
            markers = sections_.emplace(inclusion.path, find_sections(*lines)).first;
        if (const auto problem = check_section(markers->second, inclusion.section, inclusion.path))
            error(page, inclusion.line, *problem);
    }

    // Les sources incluses par plusieurs pages ne sont lues qu'une fois.
    const std::optional<std::vector<std::string>>& source_lines(const std::string& path) {
        auto found = sources_.find(path);
        if (found == sources_.end()) found = sources_.emplace(path, read_lines(root_ / path)).first;
        return found->second;
    }

    // Règle 5 : le dossier suit l'anatomie d'un exemple.
    void check_example_files(const ManifestEntry& entry) {
        const fs::path folder = root_ / entry.folder;
        std::error_code missing;
        if (!fs::is_directory(folder, missing)) {
            error(entry.folder, 1,
                  "dossier de l'exemple introuvable (le manifeste est-il à jour ?)");
            return;
        }
        // Règle 5 : les fichiers requis par l'anatomie ; bench.cu est vérifié plus bas, avec
        // la raison de son absence.
        const std::vector<ExampleFile> files = example_files(entry);
        bool complete = true;
        for (const ExampleFile& file : files)
            if (file.required && file.name != "bench.cu" &&
                !fs::is_regular_file(folder / file.name, missing)) {
                error(entry.folder + "/" + file.name, 1, "fichier requis absent de l'exemple");
                complete = false;
            }
        // Règle 7 : le README propose la méthode de lecture d'un dépôt de noyaux (vérifiée
        // sur un exemple complet : un fichier manquant est déjà signalé).
        const auto readme = read_lines(folder / "README.md");
        if (complete && readme)
            if (const auto problem = check_reading_order(*readme, files))
                error(entry.folder + "/README.md", problem->line, problem->message);
        if (readme) check_links_to_pages(entry, *readme);
        if (entry.benchmark == "bench.cu") {
            if (!fs::is_regular_file(folder / "bench.cu", missing))
                error(entry.folder + "/bench.cu", 1,
                      "fichier requis absent : le manifeste annonce « bench.cu »");
        } else if (!entry.benchmark.starts_with(kNoBenchmark) ||
                   trim(std::string_view(entry.benchmark).substr(kNoBenchmark.size())).empty()) {
            error(entry.folder + "/CMakeLists.txt", 1,
                  "ni bench.cu ni raison de son absence : le manifeste annonce " +
                      guillemets(entry.benchmark) +
                      " ; attendu « bench.cu » ou « sans benchmark : <raison> » "
                      "(NO_BENCHMARK_REASON)");
        }
    }

    // Règle 8 : le README renvoie vers chaque page qui nomme l'exemple (un lien compte s'il
    // mène, depuis le dossier de l'exemple, au fichier de la page, ancre permise), et chacun
    // de ses liens relatifs mène à un fichier qui existe.
    void check_links_to_pages(const ManifestEntry& entry, const std::vector<std::string>& readme) {
        const std::string file = entry.folder + "/README.md";
        std::set<std::string> linked;
        for (const LinkTarget& target : find_link_targets(readme)) {
            const fs::path path = (fs::path(entry.folder) / target.path).lexically_normal();
            linked.insert(path.generic_string());
            std::error_code missing;
            if (!fs::exists(root_ / path, missing))
                error(file, target.line,
                      "lien cassé : " + guillemets(target.path) + " ne mène à rien (" +
                          guillemets(path.generic_string()) + " n'existe pas)");
        }
        const auto naming = naming_pages_.find(entry.folder);
        if (naming == naming_pages_.end()) return;  // règle 3
        for (const std::string& page : naming->second) {
            if (linked.contains(page)) continue;
            const std::string link =
                fs::path(page).lexically_relative(entry.folder).generic_string();
            error(file, 1,
                  "le README ne renvoie pas vers " + guillemets(page) +
                      ", qui nomme cet exemple : ajoutez une ligne « Page du site : [titre](" +
                      link + ") »");
        }
    }

    const fs::path root_;
    const std::vector<ManifestEntry>& manifest_;
    std::map<std::string, const ManifestEntry*, std::less<>> by_folder_;
    std::map<std::string, std::set<std::string>, std::less<>> naming_pages_;  // exemple → pages
    std::set<std::string, std::less<>> named_by_terms_;  // exemples nommés par une fiche
    std::map<std::string, std::optional<std::vector<std::string>>, std::less<>> sources_;
    std::map<std::string, SectionMarkers, std::less<>> sections_;
    Report report_;
};

}  // namespace

Report check_repository(const fs::path& root, const std::vector<ManifestEntry>& manifest) {
    // Forme canonique : les chemins affichés sont relatifs à elle, quelle que soit la façon
    // dont la racine a été écrite (« . », « dépôt/ », lien symbolique).
    std::error_code error;
    fs::path canonical = fs::weakly_canonical(root, error);
    if (error) canonical = root.lexically_normal();
    if (!canonical.has_filename()) canonical = canonical.parent_path();
    return Checker(std::move(canonical), manifest).run();
}

}  // namespace noyaux::integrity
