/**
 * @file
 * @brief Logique hôte de l'exemple 17 : forme de l'instruction et référence CPU ; la
 *        disposition des opérandes en mémoire partagée, leur descripteur et la place de chaque
 *        accumulateur dans la sortie viennent de common/tensor_core_layout.hpp. Sans appel CUDA :
 *        testée aussi sur l'émulateur.
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

// La place de chaque accumulateur dans D : celle de tout wgmma m64nNk16 (ici N = 8, quatre
// registres par thread), partagée avec l'épilogue des étapes GEMM 14 à 19.
using tensor_core::AccumulatorPosition;
using tensor_core::wgmma_accumulator_position;

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
