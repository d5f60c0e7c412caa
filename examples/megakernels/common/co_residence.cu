/**
 * @file
 * @brief Vérification de co-résidence par l'API d'occupation.
 */
#include "co_residence.cuh"

#include "common/cuda_check.cuh"

#include <string>

namespace noyaux::megakernels {

// --8<-- [start:co-residence]
int max_co_resident_blocks(const void* kernel, int block_threads, std::size_t dynamic_shared_bytes) {
    int device = 0;
    int multiprocessors = 0;
    int per_multiprocessor = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    NOYAUX_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    NOYAUX_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, block_threads,
                                                                    dynamic_shared_bytes));
    return per_multiprocessor * multiprocessors;
}

void require_co_resident(const void* kernel, int grid_blocks, int block_threads, std::size_t dynamic_shared_bytes) {
    if (grid_blocks < 1) throw CoResidencyError("la grille doit compter au moins un bloc");
    const int resident = max_co_resident_blocks(kernel, block_threads, dynamic_shared_bytes);
    if (grid_blocks <= resident) return;
    throw CoResidencyError(
        "grille refusée avant le lancement : " + std::to_string(grid_blocks) + " blocs demandés, mais au plus " +
        std::to_string(resident) + " peuvent être actifs en même temps sur ce GPU (occupation × multiprocesseurs). "
        "Les blocs actifs attendraient des blocs qui ne démarrent qu'après leur fin : interblocage.");
}
// --8<-- [end:co-residence]

}  // namespace noyaux::megakernels
