/**
 * @file
 * @brief Les types d'éléments d'entrée de l'échelle GEMM, côté hôte : fp32 (étapes 1 à 11) et
 *        bf16 (Tensor Cores, à partir de l'étape 12). La sortie et l'accumulation restent en
 *        fp32, comme cuBLAS avec cublasGemmEx (CUDA_R_16BF → CUDA_R_32F, CUBLAS_COMPUTE_32F).
 *
 * Ce fichier n'inclut aucun en-tête CUDA : la logique hôte des tests (référence, comparaisons,
 * formes) se compile une seule fois par le compilateur de l'hôte et sert aux deux backends.
 */
#pragma once

#include <bit>
#include <cstdint>

namespace noyaux::gemm {

/**
 * @brief Un bf16 sur l'hôte : les 16 bits de poids fort d'un float IEEE 754 (1 bit de signe,
 *        8 d'exposant, 7 de mantisse). Même taille et même disposition que `__nv_bfloat16` :
 *        le lanceur d'un noyau convertit le pointeur, sans copie.
 */
struct bf16 {
    std::uint16_t bits = 0;  ///< la représentation binaire
};
static_assert(sizeof(bf16) == 2 && alignof(bf16) == 2, "bf16 doit avoir la disposition de __nv_bfloat16");

/** @brief Le float exact que représente @p value (tout bf16 est un float). */
constexpr float to_float(bf16 value) { return std::bit_cast<float>(std::uint32_t(value.bits) << 16); }
/** @brief Identité, pour écrire le même code pour les deux types d'entrée. */
constexpr float to_float(float value) { return value; }

/**
 * @brief Le bf16 le plus proche de @p value (arrondi au plus proche, à égalité vers le pair,
 *        comme __float2bfloat16) ; un NaN reste un NaN.
 */
constexpr bf16 to_bf16(float value) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0)
        return bf16{std::uint16_t((bits >> 16) | 0x0040u)};  // NaN : bit de mantisse forcé
    const std::uint32_t rounding = 0x7FFFu + ((bits >> 16) & 1u);
    return bf16{std::uint16_t((bits + rounding) >> 16)};
}

/** @brief Ce qui distingue un type d'entrée dans les messages et la borne d'erreur. */
template <typename Input>
struct InputTraits;

/** @brief Entrées fp32, accumulation fp32 sur les cœurs CUDA (FFMA, arrondi au plus proche). */
template <>
struct InputTraits<float> {
    static constexpr const char* name = "fp32";  ///< nom affiché
    /**
     * @brief Arrondi unitaire de l'accumulation : 2⁻²⁴, celui de l'arrondi au plus proche
     *        d'un float (24 bits significatifs).
     */
    static constexpr double accumulation_roundoff = 0x1p-24;
};

/**
 * @brief Entrées bf16, accumulation fp32 sur les Tensor Cores (HMMA, HGMMA). Le produit de
 *        deux bf16 (8 bits significatifs chacun) tient en 16 bits : il est exact en fp32. Les
 *        Tensor Cores additionnent en fp32 mais tronquent au lieu d'arrondir au plus proche
 *        (Fasi, Higham, Mikaitis et Pranesh, « Numerical behavior of NVIDIA tensor cores »,
 *        PeerJ Computer Science, 2021) : l'erreur d'une addition atteint une unité du dernier
 *        rang, d'où un arrondi unitaire de 2⁻²³ au lieu de 2⁻²⁴.
 */
template <>
struct InputTraits<bf16> {
    static constexpr const char* name = "bf16";  ///< nom affiché
    /** @brief Arrondi unitaire de l'accumulation fp32 par troncature : 2⁻²³. */
    static constexpr double accumulation_roundoff = 0x1p-23;
};

}  // namespace noyaux::gemm
