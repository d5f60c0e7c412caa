/**
 * @file
 * @brief Programme : combien de warps chaque condition divise (par un vote), puis le même
 *        travail avec les deux conditions, vérifié sur le CPU.
 *
 * Usage : divergence [--taille N] [--iterations K]
 */
#include "divergence.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

namespace dv = noyaux::glossaire::divergence;
using dv::Split;

int run(int argc, char** argv) {
    std::int64_t size = std::int64_t{1} << 20;
    std::int64_t iterations = 100;
    noyaux::cli::Parser parser("divergence",
                               "Branche sur threadIdx.x % 2 contre branche sur le numéro de warp.");
    parser.add_integer("--taille", &size, 1, std::int64_t{1} << 26, "éléments (un thread chacun)");
    parser.add_integer("--iterations", &iterations, 0, 100000, "FMA de chaque chemin");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(dv::branchy_work, "branchy_work");
    const auto n = static_cast<std::size_t>(size);
    const int k = static_cast<int>(iterations);
    const auto blocks = static_cast<unsigned>((n + 255) / 256);
    std::printf("GPU : %s ; %zu threads en %u blocs de 256 (%u warps)\n", device.name, n, blocks, blocks * 8);

    bool ok = true;
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<float>(i % 97) * 0.01f;
    for (Split split : {Split::by_lane, Split::by_warp}) {
        noyaux::DeviceBuffer<unsigned> count(1);
        NOYAUX_CUDA_CHECK(cudaMemset(count.data(), 0, count.bytes()));
        dv::count_divergent_warps<<<blocks, 256>>>(split, count.data());
        NOYAUX_CHECK_LAUNCH();
        noyaux::DeviceBuffer<float> data{std::span<const float>(values)};
        dv::launch_branchy_work(data.data(), n, k, split);
        NOYAUX_CHECK_LAUNCH();
        const std::vector<float> result = data.download();
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const bool first = dv::takes_first_path(static_cast<unsigned>(i % 256), split);
            wrong += result[i] != (first ? dv::first_path(values[i], k) : dv::second_path(values[i], k));
        }
        std::printf("%-22s : warps divisés %u sur %u, résultat %s\n",
                    split == Split::by_lane ? "threadIdx.x % 2" : "(threadIdx.x / 32) % 2", count.download()[0],
                    blocks * 8, wrong == 0 ? "juste" : "FAUX");
        ok = ok && wrong == 0;
    }
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("divergence", [&] { return run(argc, argv); });
}
