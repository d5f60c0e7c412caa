/**
 * @file
 * @brief SAXPY (y ← a·x + y) écrit avec une boucle grid-stride : un noyau correct
 *        pour n'importe quelle taille de données et n'importe quelle taille de grille.
 *
 * Idée reprise du billet de Mark Harris, « CUDA Pro Tip: Write Flexible Kernels with
 * Grid-Stride Loops » (NVIDIA Technical Blog, 2013).
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace noyaux::ressources {

// --8<-- [start:noyau]
/**
 * @brief y[i] ← a·x[i] + y[i] pour tout i < n.
 *
 * Chaque thread commence à son indice global puis avance d'un pas égal au nombre
 * total de threads de la grille : la grille peut être plus petite que les données
 * (chaque thread traite plusieurs éléments) ou plus grande (les threads en trop ne
 * font rien). Les indices sont sur 64 bits pour que i + pas ne déborde jamais.
 *
 * @param n nombre d'éléments
 * @param a coefficient scalaire
 * @param x vecteur lu, n éléments en mémoire globale
 * @param y vecteur lu puis écrit, n éléments en mémoire globale
 */
__global__ void saxpy_grid_stride(std::size_t n, float a, const float* __restrict__ x,
                                  float* __restrict__ y) {
    const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        y[i] = a * x[i] + y[i];  // nvcc contracte a·x + y en une seule FFMA
    }
}
// --8<-- [end:noyau]

/** @brief Forme de la grille : nombre de blocs et threads par bloc. */
struct LaunchConfig {
    unsigned blocks;             ///< blocs de la grille, au moins 1
    unsigned threads_per_block;  ///< threads par bloc, de 1 à 1024
};

// --8<-- [start:configuration]
/**
 * @brief Grille par défaut : 32 blocs de 256 threads par multiprocesseur (SM).
 *
 * Avec une boucle grid-stride, la grille n'a plus à suivre la taille des données :
 * on la dimensionne sur la machine (un multiple du nombre de SM), ce qui remplit
 * tous les SM sans créer des millions de blocs éphémères.
 */
inline LaunchConfig default_launch_config(int multiprocessor_count) {
    constexpr unsigned kBlocksPerMultiprocessor = 32;
    constexpr unsigned kThreadsPerBlock = 256;
    const unsigned multiprocessors = multiprocessor_count > 0 ? unsigned(multiprocessor_count) : 1u;
    return {kBlocksPerMultiprocessor * multiprocessors, kThreadsPerBlock};
}
// --8<-- [end:configuration]

/**
 * @brief Lance saxpy_grid_stride sur @p stream (asynchrone : l'appelant synchronise).
 * @throws std::invalid_argument si la configuration est impossible (0 bloc, 0 ou plus
 *         de 1024 threads par bloc), avant tout lancement.
 */
// --8<-- [start:lancement]
inline void launch_saxpy_grid_stride(std::size_t n, float a, const float* x, float* y,
                                     LaunchConfig config, cudaStream_t stream = nullptr) {
    // Refuser avant le lancement : une configuration impossible ne produirait qu'une
    // erreur différée (cudaErrorInvalidConfiguration) au prochain appel vérifié.
    if (config.blocks == 0)
        throw std::invalid_argument("la grille doit compter au moins un bloc");
    if (config.threads_per_block == 0 || config.threads_per_block > 1024)
        throw std::invalid_argument("un bloc compte de 1 à 1024 threads (demandé : " +
                                    std::to_string(config.threads_per_block) + ")");
    saxpy_grid_stride<<<config.blocks, config.threads_per_block, 0, stream>>>(n, a, x, y);
}
// --8<-- [end:lancement]

}  // namespace noyaux::ressources
