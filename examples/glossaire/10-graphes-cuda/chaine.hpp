/**
 * @file
 * @brief Logique hôte de l'exemple 10 : coefficients de chaque étape de la chaîne, référence CPU
 *        de la chaîne entière, bornes des paramètres. Sans appel CUDA : testée aussi sur
 *        l'émulateur.
 */
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::glossaire::graphs {

/** @brief Bornes d'une chaîne : assez courte pour un test, assez longue pour le benchmark. */
constexpr int kMaxSteps = 10000;
/** @brief Plus grand tableau traité (les noyaux restent petits : c'est le but). */
constexpr std::size_t kMaxElements = std::size_t{1} << 24;

/** @brief Coefficients (a, b) de l'étape @p step : x ← fma(x, a, b). */
struct Step {
    float a;  ///< facteur
    float b;  ///< terme ajouté
};

// --8<-- [start:etapes]
/**
 * @brief L'étape @p step de la chaîne : des coefficients qui changent d'une étape à l'autre,
 *        pour que l'ordre des noyaux compte (deux étapes échangées donnent un autre résultat).
 */
inline Step step_coefficients(int step) {
    return {1.0f + 0.001f * static_cast<float>(step % 7), 0.01f * static_cast<float>(step % 5) - 0.02f};
}
// --8<-- [end:etapes]

/** @brief Référence CPU : les @p steps étapes appliquées à @p x, même FMA que le noyau. */
inline float chain_reference(float x, int steps) {
    for (int s = 0; s < steps; ++s) {
        const Step c = step_coefficients(s);
        x = std::fma(x, c.a, c.b);
    }
    return x;
}

/** @brief Référence CPU sur tout un tableau. */
inline std::vector<float> chain_reference(const std::vector<float>& values, int steps) {
    std::vector<float> result(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) result[i] = chain_reference(values[i], steps);
    return result;
}

/**
 * @brief Vérifie une chaîne de @p steps noyaux sur @p n éléments.
 * @throws std::invalid_argument hors de [1, kMaxSteps] étapes ou [1, kMaxElements] éléments
 */
inline void validate_chain(int steps, std::size_t n) {
    if (steps < 1 || steps > kMaxSteps)
        throw std::invalid_argument("la chaîne compte de 1 à " + std::to_string(kMaxSteps) + " noyaux (demandé : " +
                                    std::to_string(steps) + ")");
    if (n < 1 || n > kMaxElements)
        throw std::invalid_argument("le tableau compte de 1 à " + std::to_string(kMaxElements) +
                                    " éléments (demandé : " + std::to_string(n) + ")");
}

}  // namespace noyaux::glossaire::graphs
