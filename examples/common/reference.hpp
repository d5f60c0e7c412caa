/**
 * @file
 * @brief Implémentations de référence sur le CPU, contre lesquelles les noyaux sont vérifiés.
 */
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace noyaux::reference {

/** @brief y ← a·x + y, élément par élément, en simple précision et avec la même FMA que le GPU. */
std::vector<float> saxpy(float a, std::span<const float> x, std::span<const float> y);

}  // namespace noyaux::reference
