/**
 * @file
 * @brief Ce que partagent les exemples de Tensor Cores de Hopper et de Blackwell qui lisent
 *        leurs opérandes en mémoire partagée par descripteur : la disposition « K-major » sans
 *        permutation (matrices élémentaires de 8 lignes × 16 octets), les champs communs du
 *        descripteur de mémoire partagée, la place des accumulateurs de wgmma dans D, et la
 *        conversion bf16 sur l'hôte.
 */
#pragma once

#include "host_device.hpp"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace noyaux::tensor_core {

// --8<-- [start:disposition]
/**
 * @brief Sans permutation (swizzle), un opérande « K-major » est fait de matrices élémentaires
 *        de 8 lignes × 8 éléments bf16 (16 octets par ligne, 128 octets d'un seul tenant).
 *        @p lbo (leading byte offset) sépare deux matrices élémentaires voisines le long de K,
 *        @p sbo (stride byte offset) deux groupes de 8 lignes voisins.
 * @return la position, en octets depuis le début de l'opérande, de l'élément (@p row, @p k)
 */
NOYAUX_HOST_DEVICE constexpr std::uint32_t core_matrix_offset(unsigned row, unsigned k, std::uint32_t lbo,
                                                               std::uint32_t sbo) {
    return (row / 8) * sbo + (k / 8) * lbo + (row % 8) * 16 + (k % 8) * 2;
}

/** @brief Octets entre deux matrices élémentaires le long de K (elles se suivent). */
constexpr std::uint32_t kLeadingByteOffset = 128;
/** @brief Octets entre deux groupes de 8 lignes : les deux matrices élémentaires de K = 16. */
constexpr std::uint32_t kStrideByteOffset = 256;

/**
 * @brief Champs communs aux descripteurs de mémoire partagée de Hopper et de Blackwell
 *        (64 bits) : adresse de départ, LBO et SBO, chacun divisé par 16 sur 14 bits (bits
 *        0–13, 16–29 et 32–45) ; le reste à zéro : pas de permutation. Sans vérification : les
 *        noyaux l'appellent avec des constantes (voir make_smem_descriptor).
 */
NOYAUX_HOST_DEVICE constexpr std::uint64_t encode_smem_descriptor(std::uint32_t address, std::uint32_t lbo,
                                                                   std::uint32_t sbo) {
    return std::uint64_t{(address >> 4) & 0x3FFF} | (std::uint64_t{(lbo >> 4) & 0x3FFF} << 16) |
           (std::uint64_t{(sbo >> 4) & 0x3FFF} << 32);
}

/**
 * @brief encode_smem_descriptor, après vérification des valeurs.
 * @throws std::invalid_argument si une valeur n'est pas un multiple de 16 ou atteint 2^18
 */
inline std::uint64_t make_smem_descriptor(std::uint32_t address, std::uint32_t lbo, std::uint32_t sbo) {
    for (const std::uint32_t value : {address, lbo, sbo})
        if (value % 16 != 0 || value >= (1u << 18))
            throw std::invalid_argument("descripteur de mémoire partagée : " + std::to_string(value) +
                                        " n'est pas un multiple de 16 inférieur à 2^18");
    return encode_smem_descriptor(address, lbo, sbo);
}
// --8<-- [end:disposition]

/** @brief Place d'un accumulateur dans la sortie D d'une instruction. */
struct AccumulatorPosition {
    int row;  ///< ligne de D
    int col;  ///< colonne de D
};

// --8<-- [start:fragment-wgmma]
/**
 * @brief Place de l'accumulateur @p reg du thread @p thread (0 à 127) d'un warpgroup dans la
 *        sortie D (64 × N, f32) d'un wgmma m64nNk16, qui laisse N / 2 accumulateurs par thread.
 *        Le warp w tient les lignes 16w à 16w + 15 ; la lane l, dans chaque bande de 8
 *        colonnes (reg / 4), les colonnes 2(l mod 4) et suivante (reg pair, puis impair), à la
 *        ligne l / 4 (reg mod 4 < 2) puis l / 4 + 8. Deux registres voisins (2i, 2i + 1) sont
 *        donc deux colonnes voisines : l'épilogue les écrit ensemble.
 *        Source : PTX ISA, « Asynchronous Warpgroup Level Matrix Multiply-Accumulate
 *        Instructions », « Register Fragments » (fragment de D en m64nNk16).
 */
NOYAUX_HOST_DEVICE constexpr AccumulatorPosition wgmma_accumulator_position(int thread, int reg) {
    const int warp = thread / 32;
    const int lane = thread % 32;
    return {16 * warp + lane / 4 + 8 * ((reg / 2) % 2), 8 * (reg / 4) + 2 * (lane % 4) + reg % 2};
}
// --8<-- [end:fragment-wgmma]

/** @brief bf16 : les 16 bits de poids fort d'un float (troncature, exacte pour les petits entiers). */
inline std::uint16_t to_bf16(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return static_cast<std::uint16_t>(bits >> 16);
}

/** @brief Le float que représente le bf16 @p bits. */
inline float from_bf16(std::uint16_t bits) {
    const std::uint32_t wide = std::uint32_t{bits} << 16;
    float value = 0.0f;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

}  // namespace noyaux::tensor_core
