/**
 * @file
 * @brief Modèle d'occupation de l'émulateur : combien de blocs un multiprocesseur émulé
 *        garde résidents à la fois. Un seul modèle sert au moteur (blocs exécutés en même
 *        temps, taille maximale d'une grille coopérative) et à l'API runtime
 *        (cudaOccupancyMaxActiveBlocksPerMultiprocessor) ; c'est le calculateur d'occupation
 *        que NVIDIA livre avec le toolkit (cuda_occupancy.h), appliqué aux propriétés du
 *        périphérique émulé.
 */
#pragma once

#include <cstddef>

namespace simt {

/**
 * @brief Registres par thread attribués à tout noyau : l'émulateur ne compile pas pour le
 *        GPU et ne connaît pas le vrai nombre. Avec 32, la limite des registres coïncide
 *        avec celle des threads (65 536 registres pour 2 048 threads par multiprocesseur).
 */
inline constexpr int kAssumedRegistersPerThread = 32;

/** @brief Ce qu'un bloc demande à un multiprocesseur. */
struct BlockResources {
    unsigned threads = 0;
    int registers_per_thread = kAssumedRegistersPerThread;
    std::size_t static_shared_bytes = 0;   ///< tableaux __shared__ de taille fixe
    std::size_t dynamic_shared_bytes = 0;  ///< troisième paramètre de <<<…>>>
    /** Plafond de mémoire partagée dynamique du noyau (cudaFuncSetAttribute) ; 0 : défaut du périphérique. */
    std::size_t dynamic_shared_limit = 0;
};

/** @brief Blocs résidents par multiprocesseur, et ce que chaque ressource en permettrait. */
struct Occupancy {
    int blocks_per_multiprocessor = 0;  ///< le minimum des limites ci-dessous
    int limit_by_threads = 0;           ///< warps par multiprocesseur / warps du bloc
    int limit_by_registers = 0;
    int limit_by_shared_memory = 0;     ///< statique + dynamique + réserve par bloc, arrondies
    int limit_by_blocks = 0;            ///< plafond matériel de blocs par multiprocesseur
    std::size_t shared_bytes_per_block = 0;  ///< mémoire partagée réellement comptée par bloc
};

/** @brief Occupation d'un bloc décrit par @p resources sur le périphérique émulé. */
Occupancy occupancy(const BlockResources& resources);

}  // namespace simt
