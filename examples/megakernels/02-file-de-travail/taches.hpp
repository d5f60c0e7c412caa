/**
 * @file
 * @brief Logique hôte de l'exemple 2 : des tâches de coût inégal (longueur de chacune, calcul
 *        d'un élément, référence CPU) et les bornes. Sans appel CUDA.
 *
 * La tâche t parcourt task_length(t) éléments ; chaque élément coûte kRounds tours d'un mélange
 * d'entiers, et la tâche rend la somme (modulo 2^32) de ses éléments : un résultat exact quel
 * que soit l'ordre des additions, donc comparable au bit près.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::megakernels::queue {

/** @brief Plus grand nombre de tâches. */
constexpr unsigned kMaxTasks = 1u << 20;
/** @brief Tours de mélange par élément : de quoi rendre un élément coûteux. */
constexpr int kRounds = 8;

// --8<-- [start:taches]
/** @brief Mélange d'entiers (xorshift multiplicatif), le même sur l'hôte et le GPU. */
__host__ __device__ inline std::uint32_t mix(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/** @brief Longueur de la tâche @p task : 64 × 2^k éléments, k de 0 à 5, mêlés au hasard (32 fois d'écart). */
__host__ __device__ inline unsigned task_length(unsigned task) { return 64u << (mix(task * 2654435761u) % 6u); }

/** @brief Valeur de l'élément @p index de la tâche @p task : kRounds tours de mélange. */
__host__ __device__ inline std::uint32_t element_value(unsigned task, unsigned index) {
    std::uint32_t x = task * 0x9e3779b9u + index;
    for (int r = 0; r < kRounds; ++r) x = mix(x + static_cast<std::uint32_t>(r));
    return x;
}
// --8<-- [end:taches]

/** @brief Référence CPU : la somme (modulo 2^32) des éléments de chaque tâche. */
inline std::vector<std::uint32_t> task_reference(unsigned tasks) {
    std::vector<std::uint32_t> sums(tasks, 0);
    for (unsigned t = 0; t < tasks; ++t)
        for (unsigned i = 0; i < task_length(t); ++i) sums[t] += element_value(t, i);
    return sums;
}

/**
 * @brief Vérifie un nombre de tâches.
 * @throws std::invalid_argument hors de [1, kMaxTasks]
 */
inline void validate_tasks(unsigned tasks) {
    if (tasks < 1 || tasks > kMaxTasks)
        throw std::invalid_argument("la file compte de 1 à " + std::to_string(kMaxTasks) + " tâches (demandé : " +
                                    std::to_string(tasks) + ")");
}

}  // namespace noyaux::megakernels::queue
