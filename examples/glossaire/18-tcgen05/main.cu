/**
 * @file
 * @brief Programme : un tcgen05.mma m128n16k16 (bf16 vers f32, accumulateur en mémoire
 *        tensorielle) comparé à la référence CPU. Il ne s'exécute que sur un GPU sm_100 ; le
 *        projet n'en a pas, il n'a donc jamais tourné.
 *
 * Usage : tcgen05 [--graine S]
 */
#include "tcgen05.cuh"

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

namespace tmem = noyaux::glossaire::tensor_memory;

int run(int argc, char** argv) {
    std::int64_t seed = 1;
    noyaux::cli::Parser parser("tcgen05", "Un tcgen05.mma m128n16k16 bf16 → f32, accumulé en mémoire tensorielle.");
    parser.add_integer("--graine", &seed, 0, 1000000, "graine des entrées pseudo-aléatoires");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_architecture(tmem::tcgen05_m128n16k16, "tcgen05_m128n16k16", 100, "tcgen05");
    // Petits entiers : produits et sommes exacts en f32, quel que soit l'ordre des additions.
    std::mt19937 generator(static_cast<std::uint32_t>(seed));
    std::uniform_int_distribution<int> value(-4, 4);
    std::vector<std::uint16_t> a(tmem::kM * tmem::kK), bt(tmem::kN * tmem::kK);
    for (auto& x : a) x = noyaux::tensor_core::to_bf16(static_cast<float>(value(generator)));
    for (auto& x : bt) x = noyaux::tensor_core::to_bf16(static_cast<float>(value(generator)));

    noyaux::DeviceBuffer<std::uint16_t> d_a(a), d_bt(bt);
    noyaux::DeviceBuffer<float> d_d(tmem::kM * tmem::kN);
    tmem::launch_tcgen05(d_a.data(), d_bt.data(), d_d.data());
    NOYAUX_CHECK_LAUNCH();
    const bool ok = d_d.download() == tmem::reference(a, bt);
    std::printf("GPU : %s\n", device.name);
    std::printf("D (128 × 16, f32, en mémoire tensorielle) = A (128 × 16, bf16) · B (16 × 16, bf16) : %s\n",
                ok ? "identique à la référence" : "FAUX");
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("tcgen05", [&] { return run(argc, argv); });
}
