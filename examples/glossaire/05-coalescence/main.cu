/**
 * @file
 * @brief Programme : secteurs par requête et part utile des octets transférés selon le pas de
 *        lecture, puis lecture à ce pas vérifiée sur le CPU.
 *
 * Usage : coalescence [--taille N] [--pas S]
 */
#include "coalescence.cuh"

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

namespace co = noyaux::glossaire::coalescing;

int run(int argc, char** argv) {
    std::int64_t size = std::int64_t{1} << 20;
    std::int64_t stride = 32;
    noyaux::cli::Parser parser("coalescence", "Lecture à pas 1 contre lecture à pas S : secteurs par requête.");
    parser.add_integer("--taille", &size, 1, std::int64_t{1} << 24, "éléments lus");
    parser.add_integer("--pas", &stride, 1, 64, "distance, en flottants, entre les lectures de deux threads voisins");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(co::gather_strided, "gather_strided");
    std::printf("GPU : %s\n", device.name);
    std::printf("Un warp lit 32 flottants (128 octets utiles) :\n");
    for (unsigned s : {1u, 2u, 4u, 8u, static_cast<unsigned>(stride)}) {
        std::printf("  pas %2u : %2zu secteurs de 32 octets, %s des octets transférés utiles\n", s,
                    co::sectors_per_request(0, s, sizeof(float)),
                    noyaux::percent_text(100.0 * co::useful_fraction(0, s, sizeof(float))).c_str());
        if (s == 8 && stride <= 8) break;
    }

    const auto n = static_cast<std::size_t>(size);
    const auto s = static_cast<unsigned>(stride);
    std::vector<float> in((n - 1) * s + 1);
    for (std::size_t j = 0; j < in.size(); ++j) in[j] = static_cast<float>(j % 10007);
    noyaux::DeviceBuffer<float> in_device{std::span<const float>(in)};
    noyaux::DeviceBuffer<float> out(n);
    co::launch_gather_strided(in_device.data(), out.data(), n, s);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> result = out.download();
    bool ok = true;
    for (std::size_t i = 0; i < n && ok; ++i) ok = result[i] == in[i * s];
    std::printf("Lecture de %zu éléments au pas %u : %s\n", n, s, ok ? "juste" : "FAUSSE");
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("coalescence", [&] { return run(argc, argv); });
}
