/**
 * @file
 * @brief Point d'entrée des benchmarks : refuse de tourner sans GPU (code 77), inscrit le
 *        GPU, le pilote et la version de CUDA dans le contexte des résultats JSON, et se
 *        termine en échec (code 1) si un contrôle a échoué pendant les mesures.
 */
#include "bench_failures.hpp"
#include "cuda_check.cuh"
#include "device.cuh"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

/** @brief Détecte le GPU, décrit la machine dans le contexte, puis lance les benchmarks. */
int main(int argc, char** argv) {
    const noyaux::DeviceProbe probe = noyaux::probe_devices();
    if (!probe.usable) {
        std::printf("IGNORÉ : %s\n", probe.reason.c_str());
        return NOYAUX_SKIP_RETURN_CODE;
    }
    const cudaDeviceProp properties = noyaux::require_device();
    int driver = 0;
    int runtime = 0;
    NOYAUX_CUDA_CHECK(cudaDriverGetVersion(&driver));
    NOYAUX_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    benchmark::AddCustomContext("gpu", properties.name);
    benchmark::AddCustomContext("architecture", "sm_" + std::to_string(properties.major) +
                                                    std::to_string(properties.minor));
    benchmark::AddCustomContext("multiprocesseurs", std::to_string(properties.multiProcessorCount));
    benchmark::AddCustomContext("pilote_cuda", noyaux::cuda_version_text(driver));
    benchmark::AddCustomContext("runtime_cuda", noyaux::cuda_version_text(runtime));

    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (const auto& failures = noyaux::bench_failures(); !failures.empty()) {
        std::fprintf(stderr, "ÉCHEC : %zu contrôle(s) en échec pendant les mesures (voir plus haut)\n",
                     failures.size());
        return 1;
    }
    return 0;
}
