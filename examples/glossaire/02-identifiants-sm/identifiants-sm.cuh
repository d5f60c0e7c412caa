/**
 * @file
 * @brief Registres spéciaux de la PTX lus par assembleur en ligne : %smid (le SM qui exécute
 *        le bloc), %nsmid (borne des numéros de SM), %warpid (l'emplacement du warp dans le SM),
 *        %nwarpid (sa borne) et %laneid (la position du thread dans son warp).
 *
 * Réservé au GPU : l'émulateur simt exécute l'assembleur en ligne, mais pas les registres
 * %smid, %nsmid et %nwarpid, qu'il refuse à la réécriture. La PTX ISA (« Special
 * Registers ») prévient que %smid et %warpid sont volatils (un bloc préempté peut reprendre
 * ailleurs) et que les numéros de SM ne sont pas forcément contigus : %nsmid les borne.
 */
#pragma once

#include <cuda_runtime.h>

#include "repartition.hpp"

#include <stdexcept>
#include <string>

namespace noyaux::glossaire::sm_ids {

// --8<-- [start:registres]
/** @brief %smid : numéro du SM qui exécute ce thread. */
__device__ __forceinline__ unsigned sm_id() {
    unsigned value;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(value));
    return value;
}

/** @brief %nsmid : borne supérieure (exclue) des numéros de SM. */
__device__ __forceinline__ unsigned sm_id_limit() {
    unsigned value;
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(value));
    return value;
}

/** @brief %nwarpid : borne supérieure (exclue) des valeurs de %warpid. */
__device__ __forceinline__ unsigned warp_id_limit() {
    unsigned value;
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(value));
    return value;
}

/** @brief %warpid : emplacement du warp parmi ceux que le SM héberge. */
__device__ __forceinline__ unsigned warp_id() {
    unsigned value;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(value));
    return value;
}

/** @brief %laneid : position du thread dans son warp, de 0 à 31. */
__device__ __forceinline__ unsigned lane_id() {
    unsigned value;
    asm("mov.u32 %0, %%laneid;" : "=r"(value));
    return value;
}
// --8<-- [end:registres]

// --8<-- [start:noyau]
/**
 * @brief Chaque thread écrit sa lane ; la lane 0 de chaque warp écrit où le warp s'exécute.
 *
 * Chaque bloc attend @p spin_cycles cycles avant de relever : les blocs restent ainsi résidents
 * ensemble, et la répartition observée est celle d'une grille qui tient d'un coup sur le GPU.
 *
 * @param warps un relevé par warp, rangé par (bloc, warp du bloc)
 * @param lanes %laneid de chaque thread, rangé par indice global
 * @param limits reçoit %nsmid puis %nwarpid (écrits par le thread 0 du bloc 0)
 * @param spin_cycles attente, en cycles d'horloge du SM
 */
__global__ void record_placement(WarpPlacement* __restrict__ warps, unsigned* __restrict__ lanes,
                                 unsigned* __restrict__ limits, long long spin_cycles) {
    const unsigned global = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned lane = lane_id();
    lanes[global] = lane;
    const long long start = clock64();
    while (clock64() - start < spin_cycles) {
    }
    if (lane == 0) {
        const unsigned warp_in_block = threadIdx.x / 32;
        warps[global / 32] = {blockIdx.x, warp_in_block, sm_id(), warp_id()};
    }
    if (global == 0) {
        limits[0] = sm_id_limit();
        limits[1] = warp_id_limit();
    }
}
// --8<-- [end:noyau]

/**
 * @brief Lance record_placement (asynchrone).
 * @throws std::invalid_argument si @p blocks vaut 0 ou si @p threads n'est pas un multiple de
 *         32 entre 32 et 1024 (des warps complets, pour qu'un warp = 32 threads consécutifs)
 */
inline void launch_record_placement(unsigned blocks, unsigned threads, WarpPlacement* warps,
                                    unsigned* lanes, unsigned* limits, long long spin_cycles,
                                    cudaStream_t stream = nullptr) {
    if (blocks == 0) throw std::invalid_argument("la grille doit compter au moins un bloc");
    if (threads < 32 || threads > 1024 || threads % 32 != 0)
        throw std::invalid_argument("threads par bloc : un multiple de 32 entre 32 et 1024 (demandé : " +
                                    std::to_string(threads) + ")");
    record_placement<<<blocks, threads, 0, stream>>>(warps, lanes, limits, spin_cycles);
}

}  // namespace noyaux::glossaire::sm_ids
