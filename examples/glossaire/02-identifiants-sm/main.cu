/**
 * @file
 * @brief Programme : où se posent les blocs et les warps d'une grille (%smid, %warpid,
 *        %laneid), et combien de blocs chaque SM a reçus.
 *
 * Usage : identifiants-sm [--blocs B] [--threads T] [--sm-affiches N]
 */
#include "identifiants-sm.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

namespace ids = noyaux::glossaire::sm_ids;

// Environ 50 µs à 2 GHz : assez pour que toute la grille soit résidente en même temps.
constexpr long long kSpinCycles = 100000;

int run(int argc, char** argv) {
    std::int64_t blocks = 0;  // 0 : deux blocs par SM
    std::int64_t threads = 128;
    std::int64_t shown = 8;
    noyaux::cli::Parser parser("identifiants-sm",
                               "Répartition des blocs sur les SM, lue par %smid, %warpid et %laneid.");
    parser.add_integer("--blocs", &blocks, 0, 65535, "blocs de la grille (0 : deux par SM)");
    parser.add_integer("--threads", &threads, 32, 1024, "threads par bloc, multiple de 32");
    parser.add_integer("--sm-affiches", &shown, 0, 1024, "SM détaillés dans la sortie");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;
    if (threads % 32 != 0)
        throw noyaux::cli::UsageError("--threads : « " + std::to_string(threads) +
                                      " » n'est pas un multiple de 32 ; attendu des warps complets");

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(ids::record_placement, "record_placement");
    const unsigned grid = blocks > 0 ? static_cast<unsigned>(blocks)
                                     : 2u * static_cast<unsigned>(device.multiProcessorCount);
    const auto block = static_cast<unsigned>(threads);
    const unsigned warps_per_block = block / 32;

    noyaux::DeviceBuffer<ids::WarpPlacement> warps(std::size_t{grid} * warps_per_block);
    noyaux::DeviceBuffer<unsigned> lanes(std::size_t{grid} * block);
    noyaux::DeviceBuffer<unsigned> limits(2);
    ids::launch_record_placement(grid, block, warps.data(), lanes.data(), limits.data(), kSpinCycles);
    NOYAUX_CHECK_LAUNCH();

    const std::vector<ids::WarpPlacement> placements = warps.download();
    const std::vector<unsigned> lane_values = lanes.download();
    const std::vector<unsigned> limit_values = limits.download();
    const unsigned sm_limit = limit_values[0];
    std::printf("GPU : %s (%d SM ; %%nsmid = %u, %%nwarpid = %u)\n", device.name, device.multiProcessorCount, sm_limit,
                limit_values[1]);
    std::printf("%u blocs de %u threads (%u warps chacun)\n", grid, block, warps_per_block);

    const std::string problem = ids::first_inconsistency(placements, grid, warps_per_block);
    std::size_t wrong_lanes = 0;
    for (std::size_t i = 0; i < lane_values.size(); ++i) wrong_lanes += lane_values[i] != i % 32;
    const std::vector<unsigned> histogram = ids::blocks_per_sm(placements, sm_limit);
    const ids::Spread s = ids::spread(histogram);
    std::printf("Blocs par SM : %u SM utilisés, de %u à %u blocs chacun\n", s.used, s.fewest, s.most);

    // Détail des premiers SM : quels blocs, et à quel %warpid chacun de leurs warps.
    for (unsigned sm = 0, listed = 0; sm < sm_limit && listed < shown; ++sm) {
        if (histogram[sm] == 0) continue;
        ++listed;
        std::printf("SM %3u :", sm);
        for (const ids::WarpPlacement& w : placements)
            if (w.sm == sm && w.warp_in_block == 0) {
                std::printf(" bloc %u (%%warpid", w.block);
                for (unsigned k = 0; k < warps_per_block; ++k)
                    std::printf(" %u", placements[std::size_t{w.block} * warps_per_block + k].hardware_warp);
                std::printf(")");
            }
        std::printf("\n");
    }
    std::printf("%%laneid = threadIdx.x %% 32 : %s (%zu threads)\n", wrong_lanes == 0 ? "vrai" : "FAUX",
                lane_values.size());
    if (!problem.empty()) std::printf("Relevés incohérents : %s\n", problem.c_str());
    const bool ok = problem.empty() && wrong_lanes == 0;
    std::printf("%s\n", ok ? "Chaque bloc est resté sur un seul SM." : "ÉCHEC");
    return ok ? noyaux::kExitSuccess : noyaux::kExitFailure;
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("identifiants-sm", [&] { return run(argc, argv); });
}
