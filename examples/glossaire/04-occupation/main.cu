/**
 * @file
 * @brief Programme : occupation théorique selon la mémoire partagée dynamique demandée, puis
 *        selon les registres que `__launch_bounds__` laisse au compilateur ; résultat du noyau
 *        à mémoire partagée vérifié.
 *
 * Usage : occupation [--threads T]
 */
#include "occupation.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/french_format.hpp"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

namespace occ = noyaux::glossaire::occupancy;

// Colonne de largeur fixe comptée en caractères, pas en octets (« partagée » en a 9 pour 10 octets).
std::string padded(const std::string& text, std::size_t width) {
    std::size_t characters = 0;
    for (unsigned char c : text) characters += (c & 0xC0) != 0x80;
    return text + std::string(characters < width ? width - characters : 0, ' ');
}

void print_row(const std::string& label, const occ::Occupancy& o) {
    std::printf("  %s %5d %9d %9d %11s   %s\n", padded(label, 20).c_str(), o.registers_per_thread, o.blocks_per_sm,
                o.warps_per_sm, noyaux::percent_text(o.percent()).c_str(), o.limit.c_str());
}

void print_header(const char* first_column) {
    std::printf("  %s %5s %9s %9s %11s   %s\n", padded(first_column, 20).c_str(), "reg.", "blocs/SM", "warps/SM", "occupation",
                "limite");
}

int run(int argc, char** argv) {
    std::int64_t threads = 256;
    noyaux::cli::Parser parser("occupation",
                               "Occupation théorique d'un SM selon la mémoire partagée et les registres.");
    parser.add_integer("--threads", &threads, 32, 1024, "threads par bloc du noyau à mémoire partagée");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;
    if (threads % 32 != 0)
        throw noyaux::cli::UsageError("--threads : « " + std::to_string(threads) +
                                      " » n'est pas un multiple de 32 ; attendu des warps complets");

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(occ::reverse_blocks, "reverse_blocks");
    const int block = static_cast<int>(threads);
    std::printf("GPU : %s (%d SM, %d warps et %zu Kio de mémoire partagée au plus par SM)\n", device.name,
                device.multiProcessorCount, device.maxThreadsPerMultiProcessor / 32,
                device.sharedMemPerMultiprocessor / 1024);

    std::printf("\nreverse_blocks, blocs de %d threads, selon la mémoire partagée dynamique :\n", block);
    print_header("partagée dynamique");
    const std::size_t minimum = static_cast<std::size_t>(block) * sizeof(float);
    for (std::size_t kib : {0, 8, 16, 32, 48, 64, 100, 160}) {
        const std::size_t bytes = std::max(kib * 1024, minimum);
        if (bytes > device.sharedMemPerBlockOptin) break;
        const std::string label = std::to_string(bytes / 1024) + " Kio";
        print_row(label, occ::query_occupancy(occ::reverse_blocks, block, bytes));
    }

    std::printf("\nmany_live_values, blocs de 256 threads, selon __launch_bounds__(256, minimum) :\n");
    print_header("variante");
    print_row("sans minimum (1)", occ::query_occupancy(occ::many_live_values<1>, 256, 0));
    print_row("au moins 4 blocs", occ::query_occupancy(occ::many_live_values<4>, 256, 0));
    print_row("au moins 8 blocs", occ::query_occupancy(occ::many_live_values<8>, 256, 0));

    // Le noyau à mémoire partagée calcule juste, quelle que soit la mémoire demandée en plus.
    const std::size_t n = 100003;
    std::vector<float> input(n);
    for (std::size_t i = 0; i < n; ++i) input[i] = static_cast<float>(i);
    noyaux::DeviceBuffer<float> in{std::span<const float>(input)};
    noyaux::DeviceBuffer<float> out(n);
    const auto blocks = static_cast<unsigned>((n + block - 1) / block);
    occ::reverse_blocks<<<blocks, block, minimum>>>(in.data(), out.data(), n);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> result = out.download();
    bool ok = true;
    for (std::size_t i = 0; i < n && ok; ++i) {
        const std::size_t base = i / block * block;
        const std::size_t last = std::min(base + block, n) - 1;
        ok = result[i] == input[base + last - i];
    }
    std::printf("\n");
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("occupation", [&] { return run(argc, argv); });
}
