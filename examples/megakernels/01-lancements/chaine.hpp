/**
 * @file
 * @brief Logique hôte de l'exemple 1 : la chaîne d'étapes dépendantes (coefficients, voisin lu,
 *        référence CPU) et ses bornes. Sans appel CUDA.
 *
 * Étape s : out[i] = fma(in[(i + kNeighbour) mod n], a_s, b_s), entre deux tampons alternés.
 * Chaque élément lit un élément écrit à l'étape précédente par un AUTRE bloc : une étape ne peut
 * commencer nulle part avant que la précédente soit finie partout.
 */
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::megakernels::chain {

/** @brief Plus longue chaîne acceptée. */
constexpr int kMaxSteps = 10000;
/** @brief Plus grand tableau (les étapes restent petites : c'est le sujet). */
constexpr std::size_t kMaxElements = std::size_t{1} << 20;
/** @brief Décalage du voisin lu : plus grand qu'un bloc, pour que la dépendance traverse les blocs. */
constexpr std::size_t kNeighbour = 129;

/** @brief Coefficients (a, b) d'une étape : out = fma(in, a, b). */
struct Step {
    float a;  ///< facteur
    float b;  ///< terme ajouté
};

// --8<-- [start:etape]
/**
 * @brief Coefficients de l'étape @p step : des valeurs exactes en float (k / 1024, k / 64), pour
 *        que l'hôte et le GPU les calculent au bit près, contraction en FMA ou non ; elles
 *        changent d'une étape à l'autre, pour que l'ordre des étapes se voie dans le résultat.
 */
__host__ __device__ inline Step step_coefficients(int step) {
    return {1.0f + static_cast<float>(step % 7) * 0.0009765625f, static_cast<float>(step % 5 - 2) * 0.015625f};
}

/** @brief Indice de l'élément que lit l'élément @p i d'un tableau de @p n éléments. */
__host__ __device__ inline std::size_t neighbour(std::size_t i, std::size_t n) { return (i + kNeighbour) % n; }
// --8<-- [end:etape]

/** @brief Référence CPU : les @p steps étapes appliquées à @p values, même FMA que le GPU. */
inline std::vector<float> chain_reference(std::vector<float> values, int steps) {
    std::vector<float> next(values.size());
    for (int s = 0; s < steps; ++s) {
        const Step c = step_coefficients(s);
        for (std::size_t i = 0; i < values.size(); ++i) next[i] = std::fma(values[neighbour(i, values.size())], c.a, c.b);
        values.swap(next);
    }
    return values;
}

/** @brief Entrée reproductible de @p n éléments, entre -4 et 4. */
inline std::vector<float> chain_input(std::size_t n) {
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<float>(static_cast<int>(i * 37 % 257) - 128) / 32.0f;
    return values;
}

/**
 * @brief Vérifie une chaîne de @p steps étapes sur @p n éléments.
 * @throws std::invalid_argument hors de [1, kMaxSteps] étapes ou [1, kMaxElements] éléments
 */
inline void validate_chain(int steps, std::size_t n) {
    if (steps < 1 || steps > kMaxSteps)
        throw std::invalid_argument("la chaîne compte de 1 à " + std::to_string(kMaxSteps) + " étapes (demandé : " +
                                    std::to_string(steps) + ")");
    if (n < 1 || n > kMaxElements)
        throw std::invalid_argument("le tableau compte de 1 à " + std::to_string(kMaxElements) +
                                    " éléments (demandé : " + std::to_string(n) + ")");
}

}  // namespace noyaux::megakernels::chain
