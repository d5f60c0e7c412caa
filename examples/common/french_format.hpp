/**
 * @file
 * @brief Nombres écrits à la française dans la sortie des programmes : virgule décimale,
 *        espace insécable avant « % ».
 */
#pragma once

#include <cstdio>
#include <string>

namespace noyaux {

/** @brief @p value avec @p decimals décimales et une virgule (ex. 12.5 → « 12,5 »). */
inline std::string decimal_text(double value, int decimals = 1) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    std::string result = text;
    if (const auto dot = result.find('.'); dot != std::string::npos) result[dot] = ',';
    return result;
}

/** @brief Pourcentage : « 12,5 % », avec une espace insécable (U+00A0) avant le signe. */
inline std::string percent_text(double value, int decimals = 1) {
    return decimal_text(value, decimals) + "\u00a0%";
}

}  // namespace noyaux
