/**
 * @file
 * @brief Programme : vagues et efficacité d'une grille d'une vague exacte, puis d'un bloc de
 *        plus ; les deux grilles sont lancées et chaque bloc vérifié.
 *
 * Usage : effet-de-queue [--cycles C] [--vagues V]
 */
#include "effet-de-queue.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/french_format.hpp"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

namespace tl = noyaux::glossaire::tail;

int run(int argc, char** argv) {
    std::int64_t cycles = 1000000;
    std::int64_t full_waves = 1;
    noyaux::cli::Parser parser("effet-de-queue", "Une vague de blocs longs, puis la même plus un bloc.");
    parser.add_integer("--cycles", &cycles, 0, std::int64_t{1} << 40, "durée de chaque bloc, en cycles");
    parser.add_integer("--vagues", &full_waves, 1, 1000, "vagues pleines de la première grille");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(tl::long_block, "long_block");
    const unsigned per_wave = tl::blocks_per_wave();
    std::printf("GPU : %s ; une vague = %u blocs de %u threads (%d SM)\n", device.name, per_wave,
                tl::kThreadsPerBlock, device.multiProcessorCount);
    bool ok = true;
    const auto full = static_cast<unsigned>(full_waves) * per_wave;
    for (unsigned blocks : {full, full + 1}) {
        const tl::Waves w = tl::waves(blocks, per_wave);
        noyaux::DeviceBuffer<long long> elapsed(blocks);
        tl::launch_long_blocks(blocks, cycles, elapsed.data());
        NOYAUX_CHECK_LAUNCH();
        std::size_t short_blocks = 0;
        for (long long seen : elapsed.download()) short_blocks += seen < cycles;
        std::printf("%6u blocs : %llu vague%s, dernière de %llu bloc%s, efficacité %s\n", blocks,
                    static_cast<unsigned long long>(w.count), w.count > 1 ? "s" : "",
                    static_cast<unsigned long long>(w.last_wave), w.last_wave > 1 ? "s" : "",
                    noyaux::percent_text(100.0 * w.efficiency).c_str());
        ok = ok && short_blocks == 0;
    }
    std::printf("Chaque bloc a duré au moins %lld cycles : %s\n", static_cast<long long>(cycles), ok ? "oui" : "NON");
    return ok ? noyaux::kExitSuccess : noyaux::kExitFailure;
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("effet-de-queue", [&] { return run(argc, argv); });
}
