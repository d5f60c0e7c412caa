/**
 * @file
 * @brief Les paramètres d'une tensor map (TMA) pour un opérande de GEMM en ligne, vérifiés sur
 *        l'hôte avant cuTensorMapEncodeTiled : une erreur en français qui nomme la règle, plutôt
 *        qu'un CUDA_ERROR_INVALID_VALUE du pilote. Sans appel CUDA : testé partout.
 *
 * Règles de cuTensorMapEncodeTiled (documentation de l'API du pilote CUDA), pour une matrice de
 * rang 2 sans entrelacement : chaque dimension de 1 à 2³² éléments ; le pas entre lignes
 * multiple de 16 octets et inférieur à 2⁴⁰ ; chaque côté de la boîte (la tuile copiée) de 1 à
 * 256 éléments ; la ligne de la boîte multiple de 16 octets et, avec une permutation (swizzle),
 * au plus la largeur de la permutation ; l'adresse de la matrice alignée sur 16 octets.
 */
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace noyaux::gemm::tma {

/** @brief Permutation des octets en mémoire partagée (CU_TENSOR_MAP_SWIZZLE_*), en octets. */
enum class Swizzle : std::uint32_t {
    none = 0,        ///< sans permutation
    bytes32 = 32,    ///< 32 octets
    bytes64 = 64,    ///< 64 octets
    bytes128 = 128,  ///< 128 octets : la largeur d'une ligne de bancs
};

/** @brief Un opérande en ligne (A ou B) et la tuile qu'une copie TMA en apporte. */
struct OperandMap {
    std::uint64_t rows = 0;              ///< lignes de la matrice
    std::uint64_t cols = 0;              ///< colonnes (dimension contiguë)
    std::uint64_t row_stride_bytes = 0;  ///< octets d'une ligne à la suivante
    std::uint32_t element_bytes = 2;     ///< octets par élément : 2 pour le bf16
    std::uint32_t box_rows = 0;          ///< lignes de la tuile copiée
    std::uint32_t box_cols = 0;          ///< colonnes de la tuile copiée
    Swizzle swizzle = Swizzle::bytes128;  ///< permutation en mémoire partagée
    std::uintptr_t address = 0;          ///< adresse de la matrice en mémoire globale

    /** @brief Mêmes paramètres : la tensor map encodée serait la même. */
    bool operator==(const OperandMap&) const = default;
};

/** @brief Paramètres refusés : la règle enfreinte, en français. */
class TensorMapError : public std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

/**
 * @brief L'opérande M×K (A) ou K×N (B) d'une GEMM en ligne, de dimension principale @p ld
 *        éléments, et sa tuile @p box_rows × @p box_cols.
 */
inline OperandMap operand_map(std::uint64_t rows, std::uint64_t cols, std::uint64_t ld, std::uint32_t element_bytes,
                              std::uint32_t box_rows, std::uint32_t box_cols, Swizzle swizzle, std::uintptr_t address) {
    return {rows, cols, ld * element_bytes, element_bytes, box_rows, box_cols, swizzle, address};
}

// --8<-- [start:validation]
/**
 * @brief Vérifie @p map selon les règles de cuTensorMapEncodeTiled (voir le fichier).
 * @throws TensorMapError avec la règle enfreinte
 */
inline void validate(const OperandMap& map) {
    const auto text = [](std::uint64_t value) { return std::to_string(value); };
    if (map.element_bytes != 1 && map.element_bytes != 2 && map.element_bytes != 4 && map.element_bytes != 8)
        throw TensorMapError("élément de " + text(map.element_bytes) +
                             " octets : la TMA ne copie que des éléments de 1, 2, 4 ou 8 octets");
    constexpr std::uint64_t max_dim = std::uint64_t{1} << 32;
    if (map.rows == 0 || map.cols == 0 || map.rows > max_dim || map.cols > max_dim)
        throw TensorMapError("matrice de " + text(map.rows) + " × " + text(map.cols) +
                             " : chaque dimension doit être comprise entre 1 et 2^32");
    if (map.address % 16 != 0)
        throw TensorMapError("adresse de la matrice non alignée sur 16 octets, comme l'exige la TMA");
    if (map.row_stride_bytes % 16 != 0)
        throw TensorMapError("pas entre lignes de " + text(map.row_stride_bytes) +
                             " octets : la TMA exige un multiple de 16 octets (dimension principale multiple de " +
                             text(16 / map.element_bytes) + " éléments)");
    if (map.row_stride_bytes < map.cols * map.element_bytes)
        throw TensorMapError("pas entre lignes de " + text(map.row_stride_bytes) +
                             " octets : plus court qu'une ligne de " + text(map.cols * map.element_bytes) + " octets");
    if (map.row_stride_bytes >= (std::uint64_t{1} << 40))
        throw TensorMapError("pas entre lignes de " + text(map.row_stride_bytes) +
                             " octets : la TMA exige moins de 2^40 octets");
    if (map.box_rows == 0 || map.box_cols == 0 || map.box_rows > 256 || map.box_cols > 256)
        throw TensorMapError("tuile de " + text(map.box_rows) + " × " + text(map.box_cols) +
                             " : chaque côté doit être compris entre 1 et 256 éléments");
    const std::uint64_t box_row_bytes = std::uint64_t{map.box_cols} * map.element_bytes;
    if (box_row_bytes % 16 != 0)
        throw TensorMapError("ligne de tuile de " + text(box_row_bytes) +
                             " octets : la TMA exige un multiple de 16 octets");
    const auto span = static_cast<std::uint32_t>(map.swizzle);
    if (span != 0 && box_row_bytes > span)
        throw TensorMapError("ligne de tuile de " + text(box_row_bytes) + " octets : plus large que la permutation de " +
                             text(span) + " octets ; forme non prise en charge");
}
// --8<-- [end:validation]

}  // namespace noyaux::gemm::tma
