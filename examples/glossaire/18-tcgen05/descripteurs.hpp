/**
 * @file
 * @brief Logique hôte de l'exemple 18 (Blackwell, sm_100a) : la forme de l'unique produit, les
 *        colonnes de mémoire tensorielle allouées, la référence CPU. Sans appel CUDA : testée
 *        aussi sur l'émulateur.
 *
 * Les descripteurs (d'instruction, de mémoire partagée) sont ceux de l'étape 20 de la GEMM :
 * common/umma_descriptors.hpp ; la disposition des opérandes (matrices élémentaires de 8 lignes
 * × 16 octets, sans permutation) est celle de l'exemple 17 : common/tensor_core_layout.hpp.
 */
#pragma once

#include "common/tensor_core_layout.hpp"
#include "common/umma_descriptors.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::glossaire::tensor_memory {

// Forme de l'instruction : D (128 × 16, f32, en mémoire tensorielle) = A (128 × 16, bf16) · B (16 × 16, bf16).
constexpr unsigned kM = 128;       ///< lignes de A et de D : une par lane de la mémoire tensorielle
constexpr unsigned kN = 16;        ///< colonnes de B et de D : une colonne de mémoire tensorielle chacune
constexpr unsigned kK = 16;        ///< colonnes de A, lignes de B
constexpr unsigned kThreads = 128; ///< quatre warps : chacun lit son quart des lanes
/** @brief Colonnes allouées : la plus petite allocation (32), assez pour les 16 de D. */
constexpr std::uint32_t kTmemColumns = 32;
static_assert(umma::valid_tmem_columns(kTmemColumns) && kTmemColumns >= kN, "D tient dans l'allocation");

/** @brief Référence CPU : D = A · B, A de kM × kK et Bᵀ de kN × kK rangées par lignes. */
inline std::vector<float> reference(const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& bt) {
    if (a.size() != kM * kK || bt.size() != kN * kK)
        throw std::invalid_argument("A doit compter 128 × 16 éléments et Bᵀ 16 × 16");
    std::vector<float> d(kM * kN, 0.0f);
    for (unsigned m = 0; m < kM; ++m)
        for (unsigned n = 0; n < kN; ++n) {
            float sum = 0.0f;
            for (unsigned k = 0; k < kK; ++k)
                sum += tensor_core::from_bf16(a[m * kK + k]) * tensor_core::from_bf16(bt[n * kK + k]);
            d[m * kN + n] = sum;
        }
    return d;
}

}  // namespace noyaux::glossaire::tensor_memory
