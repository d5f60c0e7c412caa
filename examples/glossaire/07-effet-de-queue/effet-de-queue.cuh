/**
 * @file
 * @brief Effet de queue : des blocs longs, tous de même durée. Une grille d'exactement une
 *        vague occupe chaque emplacement de bloc une fois ; un bloc de plus fait une seconde
 *        vague presque vide, et la durée double pour 1 bloc de travail en plus.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "vagues.hpp"

#include <stdexcept>

namespace noyaux::glossaire::tail {

/** @brief Threads par bloc : un bloc long, ses threads attendent ensemble. */
constexpr unsigned kThreadsPerBlock = 256;

// --8<-- [start:noyau]
/**
 * @brief Chaque bloc occupe son SM pendant au moins @p cycles cycles d'horloge, puis son thread
 *        0 inscrit la durée qu'il a vue dans @p elapsed[blockIdx.x].
 */
__global__ void long_block(long long cycles, long long* __restrict__ elapsed) {
    const long long start = clock64();
    long long now = start;
    while (now - start < cycles) now = clock64();
    if (threadIdx.x == 0) elapsed[blockIdx.x] = now - start;
}
// --8<-- [end:noyau]

/** @brief Blocs de long_block qui tiennent ensemble sur le GPU courant : une vague. */
inline unsigned blocks_per_wave() {
    int device = 0;
    int sms = 0;
    int per_sm = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    NOYAUX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    NOYAUX_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, long_block, kThreadsPerBlock, 0));
    return static_cast<unsigned>(sms * per_sm);
}

/**
 * @brief Lance @p blocks blocs longs de @p cycles cycles (asynchrone).
 * @throws std::invalid_argument si @p blocks vaut 0 ou @p cycles est négatif
 */
inline void launch_long_blocks(unsigned blocks, long long cycles, long long* elapsed, cudaStream_t stream = nullptr) {
    if (blocks == 0) throw std::invalid_argument("la grille doit compter au moins un bloc");
    if (cycles < 0) throw std::invalid_argument("durée négative");
    long_block<<<blocks, kThreadsPerBlock, 0, stream>>>(cycles, elapsed);
}

}  // namespace noyaux::glossaire::tail
