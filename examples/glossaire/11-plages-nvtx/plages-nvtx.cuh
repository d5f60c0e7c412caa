/**
 * @file
 * @brief Les phases d'un petit programme (préparation, calcul, vérification) entourées de
 *        plages NVTX, pour qu'elles apparaissent nommées sur la frise de Nsight Systems,
 *        au-dessus des copies et des noyaux qu'elles contiennent.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "journal.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::glossaire::nvtx_ranges {

/** @brief Multiplie chaque élément par @p factor. */
__global__ void scale(float* __restrict__ data, std::size_t n, float factor) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

// --8<-- [start:phases]
/**
 * @brief Le programme annoté : une plage par phase, une plage par itération dans « calcul »,
 *        un marqueur ponctuel quand le résultat est revenu. Rend le tableau calculé.
 * @throws std::invalid_argument si @p n vaut 0 ou si @p iterations sort de [1, 100]
 */
inline std::vector<float> run_phases(RangeJournal& journal, std::size_t n, int iterations, float factor) {
    if (n == 0) throw std::invalid_argument("le tableau doit compter au moins un élément");
    if (iterations < 1 || iterations > 100)
        throw std::invalid_argument("de 1 à 100 itérations (demandé : " + std::to_string(iterations) + ")");
    const Phase program(journal, "programme", nvtx3::rgb{40, 40, 40});
    std::vector<float> host(n);
    DeviceBuffer<float> device(n);
    {
        const Phase phase(journal, "préparation", nvtx3::rgb{0, 114, 178});
        for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i % 100) * 0.01f;
        device.upload(host);
    }
    {
        const Phase phase(journal, "calcul", nvtx3::rgb{213, 94, 0});
        const auto blocks = static_cast<unsigned>((n + 255) / 256);
        for (int k = 0; k < iterations; ++k) {
            const Phase step(journal, "itération " + std::to_string(k), nvtx3::rgb{230, 159, 0});
            scale<<<blocks, 256>>>(device.data(), n, factor);
            NOYAUX_CHECK_LAUNCH();  // la plage couvre le noyau jusqu'à sa fin
        }
    }
    {
        const Phase phase(journal, "vérification", nvtx3::rgb{0, 158, 115});
        host = device.download();
        nvtx3::mark_in<NoyauxDomain>("résultat revenu sur l'hôte");
    }
    return host;
}
// --8<-- [end:phases]

}  // namespace noyaux::glossaire::nvtx_ranges
