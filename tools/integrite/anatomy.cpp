/**
 * @file anatomy.cpp
 * @brief L'anatomie d'un exemple : fichiers requis et ordre de lecture.
 */
#include "anatomy.hpp"

namespace noyaux::integrity {

std::vector<ExampleFile> example_files(const ManifestEntry& entry) {
    const std::string header = entry.name + ".cuh";
    return {
        {"README.md", true, false, "README.md", {}},
        {"test.cu", true, true, "test.cu", {"test.cu"}},
        // Une échelle de noyaux (GEMM) partage un benchmark, cité par son dossier « echelle ».
        {"bench.cu", entry.benchmark == "bench.cu", true, "le benchmark", {"bench.cu", "gemm/echelle/"}},
        {header, true, true, header, {header}},
        {"main.cu", true, true, "main.cu", {"main.cu"}},
        {"CMakeLists.txt", false, false, "CMakeLists.txt", {}},
    };
}

std::vector<std::string> present_files(const std::filesystem::path& root,
                                       const ManifestEntry& entry) {
    std::vector<std::string> present;
    std::error_code missing;
    for (const ExampleFile& file : example_files(entry))
        if (std::filesystem::is_regular_file(root / entry.folder / file.name, missing))
            present.push_back(file.name);
    return present;
}

}  // namespace noyaux::integrity
