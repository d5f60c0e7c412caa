/**
 * @file
 * @brief Implémentations de référence sur le CPU.
 */
#include "reference.hpp"

#include <cmath>
#include <stdexcept>

namespace noyaux::reference {

std::vector<float> saxpy(float a, std::span<const float> x, std::span<const float> y) {
    if (x.size() != y.size()) throw std::invalid_argument("saxpy : x et y de tailles différentes");
    std::vector<float> result(y.size());
    // std::fma arrondit une seule fois, comme l'instruction FFMA : résultats identiques au bit près.
    for (std::size_t i = 0; i < y.size(); ++i) result[i] = std::fma(a, x[i], y[i]);
    return result;
}

}  // namespace noyaux::reference
