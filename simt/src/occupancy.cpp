/**
 * @file
 * @brief Le modèle d'occupation (voir simt/occupancy.hpp) : les propriétés du périphérique
 *        émulé et les ressources d'un bloc, passées au calculateur de cuda_occupancy.h.
 */
#include "simt/occupancy.hpp"

#include "internal.hpp"

#include <cuda_occupancy.h>

#include <algorithm>
#include <climits>

namespace simt {

Occupancy occupancy(const BlockResources& resources) {
    const cudaDeviceProp& device = detail::emulated_properties();
    const cudaOccDeviceProp properties(device);
    cudaOccFuncAttributes attributes;
    attributes.maxThreadsPerBlock = device.maxThreadsPerBlock;
    attributes.numRegs = resources.registers_per_thread;
    attributes.sharedSizeBytes = resources.static_shared_bytes;
    attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    attributes.maxDynamicSharedSizeBytes =
        resources.dynamic_shared_limit ? resources.dynamic_shared_limit : device.sharedMemPerBlock;
    attributes.numBlockBarriers = 1;
    const cudaOccDeviceState state;  // répartition L1 / mémoire partagée par défaut

    cudaOccResult result{};
    Occupancy occupancy;
    if (resources.threads == 0 || resources.threads > unsigned(INT_MAX) ||
        cudaOccMaxActiveBlocksPerMultiprocessor(&result, &properties, &attributes, &state,
                                                int(resources.threads),
                                                resources.dynamic_shared_bytes) != CUDA_OCC_SUCCESS)
        return occupancy;  // configuration que le calculateur refuse : aucun bloc résident
    occupancy.blocks_per_multiprocessor = std::max(result.activeBlocksPerMultiprocessor, 0);
    occupancy.limit_by_threads = result.blockLimitWarps;
    occupancy.limit_by_registers = result.blockLimitRegs;
    occupancy.limit_by_shared_memory = result.blockLimitSharedMem;
    occupancy.limit_by_blocks = result.blockLimitBlocks;
    occupancy.shared_bytes_per_block = result.allocatedSharedMemPerBlock;
    return occupancy;
}

}  // namespace simt

namespace simt::detail {

Occupancy kernel_occupancy(const void* kernel, unsigned threads, std::size_t dynamic_shared_bytes) {
    BlockResources resources;
    resources.threads = threads;
    // Les tableaux __shared__ de taille fixe deviennent des variables thread_local (voir
    // simt.hpp) : l'émulateur n'en connaît pas la taille, comptée pour 0.
    resources.static_shared_bytes = 0;
    resources.dynamic_shared_bytes = dynamic_shared_bytes;
    resources.dynamic_shared_limit = dynamic_shared_limit(kernel);
    return occupancy(resources);
}

}  // namespace simt::detail
