/**
 * @file
 * @brief Programme : vérifie un puzzle (ou tous), dans sa solution ou dans le squelette
 *        que le lecteur complète.
 *
 * Usage : puzzles-gpu [--puzzle N] [--squelette]
 */
#include "harnais.cuh"

#include "common/cli.hpp"
#include "common/device.cuh"
#include "common/program.cuh"

#include <cstdio>

namespace {

using noyaux::puzzles::Puzzle;

int run(int argc, char** argv) {
    bool skeletons = false;
    std::int64_t number = 0;
    noyaux::cli::Parser parser(
        "puzzles-gpu",
        "Vérifie un puzzle GPU (0 : tous) contre sa référence CPU ; avec --squelette, vérifie "
        "votre version de squelettes.cuh au lieu de la solution.");
    parser.add_integer("--puzzle", &number, 0, noyaux::puzzles::kPuzzleCount,
                       "numéro du puzzle, 0 pour tous");
    parser.add_flag("--squelette", &skeletons, "vérifie squelettes.cuh au lieu de la solution");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(noyaux::puzzles::solution::map_add_ten, "map_add_ten");
    std::printf("GPU : %s (%d multiprocesseurs)\n", device.name, device.multiProcessorCount);

    const noyaux::puzzles::KernelSet kernels = skeletons ? noyaux::puzzles::skeleton_kernels()
                                                         : noyaux::puzzles::solution_kernels();
    const char* variant = skeletons ? "squelette" : "solution";
    int failures = 0;
    for (const Puzzle& puzzle : noyaux::puzzles::all_puzzles()) {
        if (number != 0 && puzzle.number != number) continue;
        const noyaux::puzzles::Verdict verdict = puzzle.check(kernels);
        if (verdict.solved) {
            std::printf("Puzzle %2d (%s), %s : résolu.\n", puzzle.number, puzzle.title, variant);
        } else {
            ++failures;
            std::printf("Puzzle %2d (%s), %s : pas encore résolu ; %s\n", puzzle.number,
                        puzzle.title, variant, verdict.detail.c_str());
            if (skeletons)
                std::printf("  → à écrire dans squelettes.cuh, section %s\n", puzzle.slug);
        }
    }
    return failures == 0 ? noyaux::kExitSuccess : noyaux::kExitFailure;
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("puzzles-gpu", [&] { return run(argc, argv); });
}
