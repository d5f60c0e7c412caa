/**
 * @file
 * @brief Logique hôte de l'exemple 16 : la tensor map de la tuile, vérifiée avant
 *        cuTensorMapEncodeTiled par les règles de la partie GEMM (une erreur en français plutôt
 *        qu'un code du pilote), et la tuile attendue, zéros hors de la matrice. Sans appel
 *        CUDA : testée aussi sur l'émulateur.
 */
#pragma once

#include "gemm/common/tensor_map.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace noyaux::glossaire::tma {

/** @brief Lignes d'une tuile : la « boîte » de la tensor map. */
constexpr unsigned kTileRows = 16;
/** @brief Colonnes d'une tuile : 32 flottants, 128 octets par ligne. */
constexpr unsigned kTileCols = 32;
/** @brief Octets qu'une copie TMA apporte en mémoire partagée : ce qu'attend le mbarrier. */
constexpr unsigned kTileBytes = kTileRows * kTileCols * sizeof(float);

/** @brief Une matrice de flottants en mémoire globale, rangée par lignes, et sa tuile. */
struct TileMapSpec {
    std::size_t rows;             ///< lignes de la matrice
    std::size_t cols;             ///< colonnes de la matrice
    std::size_t row_pitch_bytes;  ///< octets d'une ligne à la suivante
    unsigned tile_rows;           ///< lignes de la tuile
    unsigned tile_cols;           ///< colonnes de la tuile
};

// --8<-- [start:validation]
/** @brief La description de @p spec (matrice d'adresse @p address) qu'attend la TMA : des flottants, sans permutation. */
inline ::noyaux::gemm::tma::OperandMap operand_map(const TileMapSpec& spec, std::uintptr_t address) {
    return {spec.rows,      spec.cols,      spec.row_pitch_bytes, sizeof(float),
            spec.tile_rows, spec.tile_cols, ::noyaux::gemm::tma::Swizzle::none, address};
}

/**
 * @brief Vérifie @p spec et l'adresse @p address selon les règles de cuTensorMapEncodeTiled :
 *        celles de la partie GEMM (gemm/common/tensor_map.hpp), qui les énoncent en français.
 * @throws std::invalid_argument (TensorMapError) avec la règle enfreinte
 */
inline void validate_tile_map(const TileMapSpec& spec, std::uintptr_t address = 0) {
    ::noyaux::gemm::tma::validate(operand_map(spec, address));
}
// --8<-- [end:validation]

/**
 * @brief La tuile que la TMA doit apporter pour l'origine (@p row0, @p col0) : les éléments
 *        de la matrice, et des zéros pour ceux qui tombent hors de ses bornes.
 * @param matrix la matrice, @p spec.rows lignes de @p spec.row_pitch_bytes octets
 * @param spec ses dimensions et celles de la tuile
 * @param row0 première ligne de la tuile (négative : au-dessus de la matrice)
 * @param col0 première colonne de la tuile (négative : à sa gauche)
 */
inline std::vector<float> expected_tile(const std::vector<float>& matrix, const TileMapSpec& spec, long long row0,
                                        long long col0) {
    const std::size_t pitch = spec.row_pitch_bytes / sizeof(float);
    std::vector<float> tile(std::size_t{spec.tile_rows} * spec.tile_cols, 0.0f);
    for (unsigned r = 0; r < spec.tile_rows; ++r)
        for (unsigned c = 0; c < spec.tile_cols; ++c) {
            const long long row = row0 + r;
            const long long col = col0 + c;
            if (row >= 0 && col >= 0 && row < static_cast<long long>(spec.rows) && col < static_cast<long long>(spec.cols))
                tile[std::size_t{r} * spec.tile_cols + c] =
                    matrix[static_cast<std::size_t>(row) * pitch + static_cast<std::size_t>(col)];
        }
    return tile;
}

}  // namespace noyaux::glossaire::tma
