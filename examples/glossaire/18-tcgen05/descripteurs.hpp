/**
 * @file
 * @brief Logique hôte de l'exemple 18 (Blackwell, sm_100a) : descripteur d'instruction de
 *        tcgen05.mma (kind::f16), descripteur de mémoire partagée de Blackwell, nombre de
 *        colonnes de mémoire tensorielle à allouer, référence CPU. Sans appel CUDA : testée
 *        aussi sur l'émulateur.
 *
 * La disposition des opérandes en mémoire partagée (matrices élémentaires de 8 lignes × 16
 * octets, sans permutation) est celle de l'exemple 17 : common/tensor_core_layout.hpp.
 */
#pragma once

#include "common/tensor_core_layout.hpp"

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

// --8<-- [start:descripteurs]
/**
 * @brief Descripteur d'instruction de tcgen05.mma pour kind::f16 (32 bits, PTX ISA,
 *        « Instruction descriptor ») : D en f32 (bits 4–5 = 1), A et B en bf16 (bits 7–9 et
 *        10–12 = 1), ni négation ni transposition (A et B « K-major »), N / 8 aux bits 17–22,
 *        M / 16 aux bits 24–28. Sans vérification (voir make_instruction_descriptor).
 */
__host__ __device__ constexpr std::uint32_t encode_instruction_descriptor(unsigned m, unsigned n) {
    return (1u << 4) | (1u << 7) | (1u << 10) | ((n >> 3) << 17) | ((m >> 4) << 24);
}

/**
 * @brief encode_instruction_descriptor, après vérification de la forme pour un CTA seul
 *        (cta_group::1) : M vaut 64 ou 128 ; N est un multiple de 8 (M = 64) ou de 16
 *        (M = 128), de 8 ou 16 à 256.
 * @throws std::invalid_argument sinon
 */
inline std::uint32_t make_instruction_descriptor(unsigned m, unsigned n) {
    if (m != 64 && m != 128)
        throw std::invalid_argument("M = " + std::to_string(m) + " : un CTA seul calcule M = 64 ou M = 128");
    const unsigned step = m == 64 ? 8 : 16;
    if (n < step || n > 256 || n % step != 0)
        throw std::invalid_argument("N = " + std::to_string(n) + " : pour M = " + std::to_string(m) +
                                    ", N est un multiple de " + std::to_string(step) + " entre " +
                                    std::to_string(step) + " et 256");
    return encode_instruction_descriptor(m, n);
}

/**
 * @brief Descripteur de mémoire partagée de Blackwell : les champs de celui de Hopper
 *        (adresse, LBO, SBO) et la version du format, 1, aux bits 46–47 ; permutation
 *        (bits 61–63) à zéro.
 */
__host__ __device__ constexpr std::uint64_t encode_smem_descriptor(std::uint32_t address, std::uint32_t lbo,
                                                                   std::uint32_t sbo) {
    return tensor_core::encode_smem_descriptor(address, lbo, sbo) | (std::uint64_t{1} << 46);
}
// --8<-- [end:descripteurs]

/**
 * @brief Vérifie un nombre de colonnes de mémoire tensorielle à allouer.
 * @throws std::invalid_argument si @p columns n'est pas une puissance de 2 entre 32 et 512
 */
inline void validate_tmem_columns(std::uint32_t columns) {
    if (columns < 32 || columns > 512 || (columns & (columns - 1)) != 0)
        throw std::invalid_argument("allocation de " + std::to_string(columns) +
                                    " colonnes de mémoire tensorielle : une puissance de 2 entre 32 et 512");
}

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
