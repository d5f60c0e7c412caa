/**
 * @file
 * @brief Vérification de co-résidence, côté hôte : une grille dont les blocs s'attendent les uns
 *        les autres (compteurs, drapeaux, barrière de grille) n'est lancée que si tous ses blocs
 *        peuvent être actifs en même temps sur le GPU ; sinon, refus avant le lancement.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>

namespace noyaux::megakernels {

/**
 * @brief La grille ne tient pas entière sur le GPU : ses blocs qui attendent d'autres blocs
 *        pourraient attendre pour toujours (interblocage). Le message donne les deux nombres.
 */
class CoResidencyError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/**
 * @brief Nombre de blocs de @p kernel qui peuvent être actifs en même temps sur le GPU courant :
 *        cudaOccupancyMaxActiveBlocksPerMultiprocessor × nombre de multiprocesseurs.
 * @param kernel               le noyau (pointeur de fonction __global__)
 * @param block_threads        threads par bloc
 * @param dynamic_shared_bytes mémoire partagée dynamique par bloc
 * @throws noyaux::CudaError si l'API d'occupation échoue
 */
int max_co_resident_blocks(const void* kernel, int block_threads, std::size_t dynamic_shared_bytes);

/**
 * @brief Refuse, avant tout lancement, une grille de @p grid_blocks blocs qui ne tiendrait pas
 *        entière sur le GPU courant.
 * @param kernel               le noyau persistant
 * @param grid_blocks          blocs de la grille (au moins 1)
 * @param block_threads        threads par bloc
 * @param dynamic_shared_bytes mémoire partagée dynamique par bloc
 * @throws CoResidencyError si @p grid_blocks dépasse max_co_resident_blocks (ou vaut moins de 1)
 * @throws noyaux::CudaError si l'API d'occupation échoue
 */
void require_co_resident(const void* kernel, int grid_blocks, int block_threads,
                         std::size_t dynamic_shared_bytes);

/** @brief Surcharge pour un pointeur de noyau typé. */
template <typename... Args>
int max_co_resident_blocks(void (*kernel)(Args...), int block_threads, std::size_t dynamic_shared_bytes) {
    return max_co_resident_blocks(reinterpret_cast<const void*>(kernel), block_threads, dynamic_shared_bytes);
}

/** @brief Surcharge pour un pointeur de noyau typé. */
template <typename... Args>
void require_co_resident(void (*kernel)(Args...), int grid_blocks, int block_threads,
                         std::size_t dynamic_shared_bytes) {
    require_co_resident(reinterpret_cast<const void*>(kernel), grid_blocks, block_threads, dynamic_shared_bytes);
}

}  // namespace noyaux::megakernels
