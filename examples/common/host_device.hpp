/**
 * @file
 * @brief NOYAUX_HOST_DEVICE : une fonction de la logique hôte (ordonnanceurs, partitions) que
 *        les noyaux appellent aussi ; `__host__ __device__` sous nvcc, rien pour le compilateur
 *        de l'hôte (tests cpu) ni pour l'émulateur, où le code du GPU est du code hôte.
 */
#pragma once

#if defined(__CUDACC__)
/** @brief Sous nvcc : la fonction existe pour l'hôte et pour le GPU. */
#define NOYAUX_HOST_DEVICE __host__ __device__
#else
/** @brief Hors de nvcc : une fonction ordinaire de l'hôte. */
#define NOYAUX_HOST_DEVICE
#endif
