/**
 * @file
 * @brief Descripteurs de mémoire partagée de wgmma pour des tuiles bf16 permutées sur 128
 *        octets (swizzle 128B), telles que la TMA les dépose : opérande K-majeur (A, ou Bᵀ
 *        rangée par lignes) et M/N-majeur (B rangée par lignes, N contigu). Sans appel CUDA :
 *        testé sur l'hôte (gemm.commun.logique-hote.cpu).
 *
 * Une tuile permutée est faite d'atomes de 8 lignes de 128 octets (1 024 octets) ; dans chaque
 * ligne, les 8 blocs de 16 octets sont permutés : le bloc j de la ligne r va à la place
 * j ⊕ (r mod 8). Le motif se lit sur les bits de l'adresse : l'atome doit commencer sur
 * 1 024 octets, et le décalage de base du descripteur (bits 49–51) reste nul.
 * Source : PTX ISA, « Shared Memory Matrix Layout » et « Matrix Descriptor Format ».
 */
#pragma once

#include "common/host_device.hpp"
#include "common/tensor_core_layout.hpp"

#include <cstdint>

namespace noyaux::gemm::wgmma {

/** @brief Octets d'une ligne de l'atome permuté : 64 bf16. */
constexpr std::uint32_t kSwizzleRowBytes = 128;
/** @brief Octets d'un atome : 8 lignes de 128 octets ; le motif se répète ensuite. */
constexpr std::uint32_t kSwizzleAtomBytes = 8 * kSwizzleRowBytes;
/** @brief Éléments bf16 par ligne de l'atome. */
constexpr std::uint32_t kRowElements = kSwizzleRowBytes / 2;
/** @brief Profondeur (K) d'une instruction wgmma bf16. */
constexpr std::uint32_t kInstructionK = 16;

// --8<-- [start:descripteurs]
/** @brief Champ « type de disposition » (bits 62–63) : 1 pour la permutation de 128 octets. */
constexpr std::uint64_t kSwizzle128Bits = std::uint64_t{1} << 62;

/**
 * @brief Opérande K-majeur permuté sur 128 octets : chaque ligne (de M ou de N) tient 64
 *        éléments de K sur 128 octets ; le groupe de 8 lignes suivant est 1 024 octets plus
 *        loin (SBO). LBO ne sert pas (une instruction ne lit que 16 éléments de K, dans la
 *        ligne) : on y met 16, la valeur conventionnelle.
 */
NOYAUX_HOST_DEVICE constexpr std::uint64_t k_major_128b(std::uint32_t address) {
    return tensor_core::encode_smem_descriptor(address, 16, kSwizzleAtomBytes) | kSwizzle128Bits;
}

/**
 * @brief Opérande M/N-majeur permuté sur 128 octets : chaque ligne de K tient 64 éléments de
 *        M ou de N sur 128 octets ; le groupe de 8 lignes de K suivant est 1 024 octets plus
 *        loin (SBO), les 64 éléments suivants de M ou de N à @p mn_stride octets (LBO) : la
 *        taille d'une boîte TMA de 64 colonnes.
 */
NOYAUX_HOST_DEVICE constexpr std::uint64_t mn_major_128b(std::uint32_t address, std::uint32_t mn_stride) {
    return tensor_core::encode_smem_descriptor(address, mn_stride, kSwizzleAtomBytes) | kSwizzle128Bits;
}

/** @brief Octets du départ de l'instruction @p step (16 éléments de K chacune) dans un opérande K-majeur. */
NOYAUX_HOST_DEVICE constexpr std::uint32_t k_major_step_offset(unsigned step) {
    return step * kInstructionK * 2;  // dans la ligne : la permutation s'applique ensuite à l'adresse
}

/** @brief Octets du départ de l'instruction @p step dans un opérande M/N-majeur : 16 lignes de K. */
NOYAUX_HOST_DEVICE constexpr std::uint32_t mn_major_step_offset(unsigned step) {
    return step * kInstructionK * kSwizzleRowBytes;
}
// --8<-- [end:descripteurs]

/** @brief Applique la permutation de 128 octets à un décalage depuis un début d'atome. */
constexpr std::uint32_t swizzle_128b(std::uint32_t offset) { return offset ^ (((offset >> 7) & 7) << 4); }

/**
 * @brief Où la TMA (CU_TENSOR_MAP_SWIZZLE_128B) dépose l'élément bf16 (@p row, @p col) d'une
 *        boîte de 64 colonnes (lignes de 128 octets), en octets depuis son début.
 */
constexpr std::uint32_t tma_box_offset_128b(unsigned row, unsigned col) {
    return swizzle_128b(row * kSwizzleRowBytes + col * 2);
}

}  // namespace noyaux::gemm::wgmma
