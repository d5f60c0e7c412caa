/**
 * @file
 * @brief Programme : un signal filtré par un filtre moyenneur dont les coefficients sont en
 *        mémoire constante, vérifié contre le CPU et contre la version à coefficients en
 *        mémoire globale.
 *
 * Usage : memoire-constante [--taille N]
 */
#include "memoire-constante.cuh"

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

namespace cm = noyaux::glossaire::constant_memory;

int run(int argc, char** argv) {
    std::int64_t size = 1 << 20;
    noyaux::cli::Parser parser("memoire-constante", "Filtre à 15 prises, coefficients en mémoire constante.");
    parser.add_integer("--taille", &size, 1, std::int64_t{1} << 26, "échantillons filtrés");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(cm::fir_constant, "fir_constant");
    const auto n = static_cast<std::size_t>(size);
    const std::vector<float> taps(cm::kTaps, 1.0f / cm::kTaps);  // moyenne glissante
    std::vector<float> in(n + cm::kTaps - 1);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = (i / 10) % 2 ? 1.0f : -1.0f;  // créneaux de 10
    cm::set_filter(taps);

    noyaux::DeviceBuffer<float> in_device{std::span<const float>(in)};
    noyaux::DeviceBuffer<float> taps_device{std::span<const float>(taps)};
    noyaux::DeviceBuffer<float> out(n);
    const auto blocks = static_cast<unsigned>((n + 255) / 256);
    cm::fir_constant<<<blocks, 256>>>(in_device.data(), out.data(), n);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> from_constant = out.download();
    cm::fir_global<<<blocks, 256>>>(taps_device.data(), in_device.data(), out.data(), n);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> from_global = out.download();

    std::printf("GPU : %s (%zu Kio de mémoire constante)\n", device.name, device.totalConstMem / 1024);
    std::printf("%zu échantillons, filtre de %d prises (%zu octets en __constant__)\n", n, cm::kTaps,
                sizeof(cm::filter_taps));
    const bool ok = from_constant == cm::fir_reference(taps, in, n) && from_constant == from_global;
    std::printf("Premières sorties :");
    for (std::size_t i = 0; i < 6 && i < n; ++i) std::printf(" %s", noyaux::decimal_text(from_constant[i], 4).c_str());
    std::printf("\nMême résultat en mémoire constante et en mémoire globale : %s\n", from_constant == from_global ? "oui" : "NON");
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("memoire-constante", [&] { return run(argc, argv); });
}
