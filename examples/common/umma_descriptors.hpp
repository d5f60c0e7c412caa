/**
 * @file
 * @brief Logique hôte des Tensor Cores de Blackwell (sm_100a), partagée par l'exemple 18 du
 *        glossaire et l'étape 20 de la GEMM : descripteur d'instruction de `tcgen05.mma`
 *        (kind::f16), descripteur de mémoire partagée de Blackwell, disposition des opérandes
 *        « MN-major » sans permutation, adresses et allocations de mémoire tensorielle. Sans
 *        appel CUDA : testée par le compilateur de l'hôte (tests/test_umma_descriptors.cpp).
 *
 * La disposition « K-major » et les champs communs avec Hopper sont dans tensor_core_layout.hpp.
 */
#pragma once

#include "host_device.hpp"
#include "tensor_core_layout.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace noyaux::umma {

/**
 * @brief Sens dans lequel un opérande est rangé en mémoire partagée : le long de K (ses lignes
 *        de 8 éléments consécutifs suivent K, « K-major ») ou le long de M ou N (« MN-major »).
 */
enum class Major : std::uint32_t {
    k = 0,   ///< A rangée par lignes (M × K), ou B rangée par colonnes
    mn = 1,  ///< B rangée par lignes (K × N), ou A rangée par colonnes
};

// --8<-- [start:descripteurs]
/**
 * @brief Descripteur d'instruction de `tcgen05.mma` pour kind::f16 (32 bits, PTX ISA,
 *        « Instruction descriptor ») : D en f32 (bits 4–5 = 1), A et B en bf16 (bits 7–9 et
 *        10–12 = 1), sans négation, sens de rangement de A et de B aux bits 15 et 16
 *        (1 : « MN-major », dit transposé), N / 8 aux bits 17–22, M / 16 aux bits 24–28.
 *        Sans vérification (voir make_instruction_descriptor).
 */
NOYAUX_HOST_DEVICE constexpr std::uint32_t encode_instruction_descriptor(unsigned m, unsigned n, Major a = Major::k,
                                                                         Major b = Major::k) {
    return (1u << 4) | (1u << 7) | (1u << 10) | (static_cast<std::uint32_t>(a) << 15) |
           (static_cast<std::uint32_t>(b) << 16) | ((n >> 3) << 17) | ((m >> 4) << 24);
}

/**
 * @brief Descripteur de mémoire partagée de Blackwell : les champs de celui de Hopper
 *        (adresse, LBO, SBO) et la version du format, 1, aux bits 46–47 ; permutation
 *        (bits 61–63) à zéro.
 */
NOYAUX_HOST_DEVICE constexpr std::uint64_t encode_smem_descriptor(std::uint32_t address, std::uint32_t lbo,
                                                                  std::uint32_t sbo) {
    return tensor_core::encode_smem_descriptor(address, lbo, sbo) | (std::uint64_t{1} << 46);
}
// --8<-- [end:descripteurs]

// --8<-- [start:mn-major]
/**
 * @brief Disposition « MN-major » sans permutation (PTX ISA, « Canonical layouts » :
 *        ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))) : une matrice élémentaire est faite de 8 lignes de
 *        K, chacune de 8 éléments bf16 consécutifs le long de M ou N (16 octets). @p sbo sépare
 *        deux matrices élémentaires voisines le long de M ou N, @p lbo deux voisines le long
 *        de K : les rôles sont ceux de la disposition « K-major », sens échangés.
 * @return la position, en octets depuis le début de l'opérande, de l'élément (@p mn, @p k)
 */
NOYAUX_HOST_DEVICE constexpr std::uint32_t mn_major_offset(unsigned mn, unsigned k, std::uint32_t lbo,
                                                           std::uint32_t sbo) {
    return (mn / 8) * sbo + (k / 8) * lbo + (k % 8) * 16 + (mn % 8) * 2;
}
// --8<-- [end:mn-major]

/**
 * @brief encode_instruction_descriptor, après vérification de la forme pour un CTA seul
 *        (cta_group::1) : M vaut 64 ou 128 ; N est un multiple de 8 (M = 64) ou de 16
 *        (M = 128), de 8 ou 16 à 256.
 * @throws std::invalid_argument sinon
 */
inline std::uint32_t make_instruction_descriptor(unsigned m, unsigned n, Major a = Major::k, Major b = Major::k) {
    if (m != 64 && m != 128)
        throw std::invalid_argument("M = " + std::to_string(m) + " : un CTA seul calcule M = 64 ou M = 128");
    const unsigned step = m == 64 ? 8 : 16;
    if (n < step || n > 256 || n % step != 0)
        throw std::invalid_argument("N = " + std::to_string(n) + " : pour M = " + std::to_string(m) +
                                    ", N est un multiple de " + std::to_string(step) + " entre " +
                                    std::to_string(step) + " et 256");
    return encode_instruction_descriptor(m, n, a, b);
}

/** @brief Lanes de la mémoire tensorielle (une par ligne de D) ; 512 colonnes de 32 bits chacune. */
constexpr unsigned kTmemLanes = 128;
/** @brief Colonnes de 32 bits de la mémoire tensorielle d'un SM. */
constexpr std::uint32_t kTmemMaxColumns = 512;

/** @brief Vrai si @p columns peut être alloué : une puissance de 2 entre 32 et 512. */
NOYAUX_HOST_DEVICE constexpr bool valid_tmem_columns(std::uint32_t columns) {
    return columns >= 32 && columns <= kTmemMaxColumns && (columns & (columns - 1)) == 0;
}

/**
 * @brief Vérifie un nombre de colonnes de mémoire tensorielle à allouer.
 * @throws std::invalid_argument si @p columns n'est pas une puissance de 2 entre 32 et 512
 */
inline void validate_tmem_columns(std::uint32_t columns) {
    if (!valid_tmem_columns(columns))
        throw std::invalid_argument("allocation de " + std::to_string(columns) +
                                    " colonnes de mémoire tensorielle : une puissance de 2 entre 32 et 512");
}

/**
 * @brief Adresse de mémoire tensorielle : la lane dans les 16 bits de poids fort, la colonne
 *        dans les 16 bits de poids faible, à partir de l'adresse @p base rendue par l'allocation.
 */
NOYAUX_HOST_DEVICE constexpr std::uint32_t tmem_address(std::uint32_t base, unsigned lane, unsigned column) {
    return base + (std::uint32_t{lane} << 16) + column;
}

}  // namespace noyaux::umma
