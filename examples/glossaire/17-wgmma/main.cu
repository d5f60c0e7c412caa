/**
 * @file
 * @brief Programme : un wgmma m64n8k16 (bf16 vers f32) exécuté par un warpgroup, comparé à la
 *        référence CPU ; entrées entières pseudo-aléatoires, donc résultat exact.
 *
 * Usage : wgmma [--graine S]
 */
#include "wgmma.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

namespace wg = noyaux::glossaire::warpgroup_mma;

int run(int argc, char** argv) {
    std::int64_t seed = 1;
    noyaux::cli::Parser parser("wgmma", "Un wgmma m64n8k16 bf16 → f32, exécuté par un warpgroup et vérifié.");
    parser.add_integer("--graine", &seed, 0, 1000000, "graine des entrées pseudo-aléatoires");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_architecture(wg::wgmma_m64n8k16, "wgmma_m64n8k16", 90, "wgmma");
    // Petits entiers : produits et sommes exacts en f32, quel que soit l'ordre des additions.
    std::mt19937 generator(static_cast<std::uint32_t>(seed));
    std::uniform_int_distribution<int> value(-4, 4);
    std::vector<std::uint16_t> a(wg::kM * wg::kK), bt(wg::kN * wg::kK);
    for (auto& x : a) x = wg::to_bf16(static_cast<float>(value(generator)));
    for (auto& x : bt) x = wg::to_bf16(static_cast<float>(value(generator)));

    noyaux::DeviceBuffer<std::uint16_t> d_a(a), d_bt(bt);
    noyaux::DeviceBuffer<float> d_d(wg::kM * wg::kN);
    wg::launch_wgmma(d_a.data(), d_bt.data(), d_d.data());
    NOYAUX_CHECK_LAUNCH();
    const bool ok = d_d.download() == wg::reference(a, bt);
    std::printf("GPU : %s\n", device.name);
    std::printf("D (64 × 8, f32) = A (64 × 16, bf16) · B (16 × 8, bf16), un wgmma pour 128 threads : %s\n",
                ok ? "identique à la référence" : "FAUX");
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("wgmma", [&] { return run(argc, argv); });
}
