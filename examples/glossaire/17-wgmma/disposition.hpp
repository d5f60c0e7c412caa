/**
 * @file
 * @brief Logique hôte de l'exemple 17 : forme de l'instruction, place de chaque accumulateur
 *        dans la sortie et référence CPU ; la disposition des opérandes en mémoire partagée et
 *        leur descripteur viennent de common/tensor_core_layout.hpp. Sans appel CUDA : testée
 *        aussi sur l'émulateur.
 */
#pragma once

#include "common/tensor_core_layout.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::glossaire::warpgroup_mma {

// Forme de l'instruction : D (64 × 8, f32) = A (64 × 16, bf16) · B (16 × 8, bf16).
constexpr unsigned kM = 64;  ///< lignes de A et de D
constexpr unsigned kN = 8;   ///< colonnes de B et de D
constexpr unsigned kK = 16;  ///< colonnes de A, lignes de B
/** @brief Un warpgroup : quatre warps consécutifs, 128 threads. */
constexpr unsigned kThreads = 128;

// La disposition « K-major » sans permutation et le descripteur de mémoire partagée, partagés
// avec l'exemple 18 (Blackwell).
using tensor_core::core_matrix_offset;
using tensor_core::encode_smem_descriptor;
using tensor_core::from_bf16;
using tensor_core::kLeadingByteOffset;
using tensor_core::kStrideByteOffset;
using tensor_core::make_smem_descriptor;
using tensor_core::to_bf16;

/** @brief Place d'un accumulateur dans D. */
struct Coordinates {
    unsigned row;  ///< ligne de D
    unsigned col;  ///< colonne de D
};

// --8<-- [start:fragment]
/**
 * @brief L'accumulateur @p reg (0 à 3) du thread @p thread (0 à 127) : le warp w tient les lignes
 *        16w à 16w + 15 ; dans le warp, la lane l tient les colonnes 2(l mod 4) et suivante, aux
 *        lignes l / 4 (registres 0 et 1) et l / 4 + 8 (registres 2 et 3).
 */
__host__ __device__ constexpr Coordinates accumulator_coordinates(unsigned thread, unsigned reg) {
    const unsigned warp = thread / 32;
    const unsigned lane = thread % 32;
    return {16 * warp + lane / 4 + 8 * (reg / 2), 2 * (lane % 4) + reg % 2};
}
// --8<-- [end:fragment]

/**
 * @brief Référence CPU : D = A · B, avec A de kM × kK rangée par lignes et B donnée transposée
 *        (@p bt : kN × kK, rangée par lignes, « K-major » comme A).
 */
inline std::vector<float> reference(const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& bt) {
    if (a.size() != kM * kK || bt.size() != kN * kK)
        throw std::invalid_argument("A doit compter 64 × 16 éléments et Bᵀ 8 × 16");
    std::vector<float> d(kM * kN, 0.0f);
    for (unsigned m = 0; m < kM; ++m)
        for (unsigned n = 0; n < kN; ++n) {
            float sum = 0.0f;
            for (unsigned k = 0; k < kK; ++k) sum += from_bf16(a[m * kK + k]) * from_bf16(bt[n * kK + k]);
            d[m * kN + n] = sum;
        }
    return d;
}

}  // namespace noyaux::glossaire::warpgroup_mma
