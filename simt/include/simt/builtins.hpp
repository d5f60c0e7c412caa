/**
 * @file
 * @brief Variables intégrées de CUDA (threadIdx, blockIdx, blockDim, gridDim, warpSize).
 *
 * Ce sont des variables par thread du système : l'ordonnanceur y écrit les coordonnées du
 * thread CUDA (fibre) qu'il reprend, juste avant de le reprendre.
 */
#pragma once

#include <vector_types.h>

extern thread_local constinit uint3 threadIdx;
extern thread_local constinit uint3 blockIdx;
extern thread_local constinit dim3 blockDim;
extern thread_local constinit dim3 gridDim;
inline constexpr int warpSize = 32;
