/**
 * @file
 * @brief Programme : affiche ce que le runtime CUDA dit d'un GPU et du logiciel installé.
 *
 * Usage : requete-peripherique [--peripherique N]
 */
#include "requete-peripherique.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <string>

namespace {

namespace dq = noyaux::glossaire::device_query;

int run(int argc, char** argv) {
    std::int64_t device = 0;
    noyaux::cli::Parser parser("requete-peripherique",
                               "Propriétés d'un GPU et versions du pilote et du runtime CUDA.");
    parser.add_integer("--peripherique", &device, 0, 63, "numéro du GPU interrogé");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const noyaux::DeviceProbe probe = noyaux::probe_devices();
    if (!probe.usable) throw noyaux::NoDeviceError(probe.reason);
    if (device >= probe.count)
        throw noyaux::cli::UsageError("--peripherique : « " + std::to_string(device) +
                                      " » n'existe pas ; le runtime voit " +
                                      std::to_string(probe.count) + " GPU, numérotés à partir de 0");
    const int index = static_cast<int>(device);
    NOYAUX_CUDA_CHECK(cudaSetDevice(index));
    noyaux::require_kernel_image(dq::probe_kernel, "probe_kernel");
    const dq::DeviceSummary s = dq::query_device(index);

    std::printf("GPU %d sur %d : %s\n", index, probe.count, s.name.c_str());
    std::printf("Architecture : %s, capacité de calcul %d.%d (sm_%d%d)\n",
                dq::architecture_name(s.major, s.minor).c_str(), s.major, s.minor, s.major, s.minor);
    std::printf("Multiprocesseurs (SM) : %d\n", s.multiprocessors);
    std::printf("Par SM : %d threads résidents au plus, %d registres de 32 bits, %s de mémoire partagée\n",
                s.max_threads_per_multiprocessor, s.registers_per_multiprocessor,
                dq::format_bytes(s.shared_per_multiprocessor).c_str());
    std::printf("Cache L2 : %s\n", dq::format_bytes(s.l2_bytes).c_str());
    std::printf("Mémoire du GPU : %s\n", dq::format_bytes(s.global_memory_bytes).c_str());
    std::printf("Moteurs de copie : %d\n", s.copy_engines);
    std::printf("Pilote : CUDA %s ; runtime du programme : CUDA %s\n",
                noyaux::cuda_version_text(s.driver_version).c_str(),
                noyaux::cuda_version_text(s.runtime_version).c_str());
    std::printf("Code machine retenu pour cette carte : sm_%d (PTX compute_%d) ; binaire compilé pour %s\n",
                s.binary_version, s.ptx_version, noyaux::compiled_architectures());
    return noyaux::kExitSuccess;
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("requete-peripherique", [&] { return run(argc, argv); });
}
