/**
 * @file
 * @brief Programme : des clusters de quatre blocs où chaque bloc lit la mémoire partagée de son
 *        voisin de cluster ; rangs et échanges vérifiés sur le CPU.
 *
 * Usage : cluster-dsmem [--clusters G]
 */
#include "cluster-dsmem.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

namespace cl = noyaux::glossaire::clusters;

int run(int argc, char** argv) {
    std::int64_t clusters = 0;  // 0 : autant que le GPU en héberge à la fois
    noyaux::cli::Parser parser("cluster-dsmem",
                               "Clusters de blocs : chaque bloc lit la mémoire partagée de son voisin de cluster.");
    parser.add_integer("--clusters", &clusters, 0, 16384, "clusters de 4 blocs (0 : autant que de résidents)");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_architecture(cl::neighbour_exchange, "neighbour_exchange", 90, "un cluster de blocs");
    const int resident = cl::max_active_clusters();
    const unsigned count = clusters > 0 ? static_cast<unsigned>(clusters) : static_cast<unsigned>(resident);
    const unsigned blocks = count * cl::kClusterSize;
    std::printf("GPU : %s (%d SM) ; au plus %d clusters de %u blocs résidents à la fois\n", device.name,
                device.multiProcessorCount, resident, cl::kClusterSize);
    std::printf("%u clusters, %u blocs de %u threads\n", count, blocks, cl::kThreads);

    std::vector<float> input(std::size_t{blocks} * cl::kThreads);
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);
    noyaux::DeviceBuffer<float> in(input);
    noyaux::DeviceBuffer<float> out(input.size());
    noyaux::DeviceBuffer<unsigned> ranks(blocks);
    cl::launch_neighbour_exchange(blocks, in.data(), out.data(), ranks.data());
    NOYAUX_CHECK_LAUNCH();

    const std::vector<unsigned> rank_values = ranks.download();
    std::size_t wrong_ranks = 0;
    for (unsigned b = 0; b < blocks; ++b) wrong_ranks += rank_values[b] != cl::cluster_rank(b, cl::kClusterSize);
    const bool exchange_ok = out.download() == cl::exchange_reference(input, blocks, cl::kThreads, cl::kClusterSize);
    std::printf("Rangs dans le cluster (blockIdx.x %% %u) : %s\n", cl::kClusterSize, wrong_ranks == 0 ? "vrais" : "FAUX");
    std::printf("Lecture de la mémoire partagée du voisin : %s\n", exchange_ok ? "valeurs attendues" : "FAUX");
    return noyaux::conclude(wrong_ranks == 0 && exchange_ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("cluster-dsmem", [&] { return run(argc, argv); });
}
