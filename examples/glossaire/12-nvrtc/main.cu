/**
 * @file
 * @brief Programme : compile `saxpy<U>` par NVRTC pour le GPU présent, le charge par
 *        cudaLibraryLoadData, le lance et vérifie le résultat ; avec « --faute 1 », compile une
 *        variante fautive pour montrer le rapport d'erreur.
 *
 * Usage : nvrtc [--deroulement U] [--taille N] [--faute 0|1]
 */
#include "nvrtc.cuh"

#include "common/cli.hpp"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

namespace rc = noyaux::glossaire::runtime_compilation;

int run(int argc, char** argv) {
    std::int64_t unroll = 4;
    std::int64_t size = 1 << 20;
    std::int64_t fault = 0;
    noyaux::cli::Parser parser("nvrtc", "Un noyau compilé à l'exécution par NVRTC, chargé et lancé par l'API runtime.");
    parser.add_integer("--deroulement", &unroll, 1, 8, "éléments par thread : 1, 2, 4 ou 8");
    parser.add_integer("--taille", &size, 1, std::int64_t{1} << 28, "éléments du tableau");
    parser.add_integer("--faute", &fault, 0, 1, "1 : compiler une variante fautive (rapport d'erreur)");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;
    if (unroll != 1 && unroll != 2 && unroll != 4 && unroll != 8)
        throw noyaux::cli::UsageError("--deroulement : « " + std::to_string(unroll) + " » n'est pas 1, 2, 4 ou 8");

    if (fault != 0) {
        // Une faute de frappe dans la source : NVRTC la signale avec fichier et ligne.
        std::string faulty = rc::kSaxpySource;
        faulty.replace(faulty.find("fmaf("), 5, "fmaff(");
        rc::compile_kernel(faulty, "saxpy-fautif.cu", rc::saxpy_expression(static_cast<int>(unroll)),
                           "--gpu-architecture=compute_80");
        return noyaux::kExitFailure;  // inatteignable : la compilation lève CompilationError
    }

    const cudaDeviceProp device = noyaux::require_device();
    std::printf("GPU : %s (sm_%d%d) ; NVRTC %s\n", device.name, device.major, device.minor,
                rc::nvrtc_version().c_str());
    const std::string expression = rc::saxpy_expression(static_cast<int>(unroll));
    const rc::CompiledKernel compiled = rc::compile_kernel(
        rc::kSaxpySource, "saxpy.cu", expression, rc::architecture_option(device.major, device.minor, true));
    std::printf("%s compilé en cubin (%zu octets) ; nom décoré : %s\n", expression.c_str(), compiled.image.size(),
                compiled.lowered_name.c_str());
    const rc::LoadedKernel kernel(compiled);

    const auto n = static_cast<std::size_t>(size);
    std::vector<float> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 1000) * 0.001f;
        y[i] = 1.0f - static_cast<float>(i % 7) * 0.25f;
    }
    noyaux::DeviceBuffer<float> dx(x), dy(y);
    const float a = 2.5f;
    rc::run_saxpy(kernel, static_cast<int>(unroll), a, dx.data(), dy.data(), static_cast<int>(n));
    const bool ok = dy.download() == rc::saxpy_reference(a, x, y);
    std::printf("saxpy sur %zu éléments : %s\n", n, ok ? "identique à la référence" : "FAUX");
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("nvrtc", [&] { return run(argc, argv); });
}
