/**
 * @file
 * @brief État partagé entre le moteur d'exécution et l'API runtime émulée.
 */
#pragma once

#include "simt/occupancy.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace simt::detail {

/** @brief Consigne l'erreur que renverra cudaGetLastError. */
void record_error(cudaError_t error);

/** @brief Erreur collante d'un noyau fautif (cudaSuccess sinon), effacée par cudaDeviceReset. */
cudaError_t sticky_error();
void set_sticky_error(cudaError_t error);
void clear_errors();

/** @brief Émet un diagnostic en français (sortie d'erreur et last_diagnostic()). */
void report(const std::string& message);

/** @brief Propriétés du périphérique émulé. */
const cudaDeviceProp& emulated_properties();

/** @brief Mémoire partagée dynamique autorisée pour @p kernel (cudaFuncSetAttribute). */
std::size_t dynamic_shared_limit(const void* kernel);

/**
 * @brief Occupation de @p kernel lancé en blocs de @p threads threads avec
 *        @p dynamic_shared_bytes octets de mémoire partagée dynamique (occupancy.cpp) : ce
 *        que rend cudaOccupancyMaxActiveBlocksPerMultiprocessor et ce qu'applique le moteur.
 */
Occupancy kernel_occupancy(const void* kernel, unsigned threads, std::size_t dynamic_shared_bytes);

/** @brief Nombre d'ordres de threads du mode « courses de données ». */
int thread_orders();

/** @brief Copie de toutes les allocations du périphérique, pour rejouer un lancement. */
using MemorySnapshot = std::vector<std::pair<void*, std::vector<std::byte>>>;
MemorySnapshot snapshot_device_memory();
void restore_device_memory(const MemorySnapshot& snapshot);

}  // namespace simt::detail
