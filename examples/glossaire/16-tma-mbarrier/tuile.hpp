/**
 * @file
 * @brief Logique hôte de l'exemple 16 : les règles qu'une tensor map doit respecter (vérifiées
 *        avant cuTensorMapEncodeTiled, pour une erreur en français plutôt qu'un code du
 *        pilote) et la tuile attendue, zéros hors de la matrice. Sans appel CUDA : testée aussi
 *        sur l'émulateur.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
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
/**
 * @brief Vérifie @p spec selon les règles de cuTensorMapEncodeTiled pour des flottants sans
 *        entrelacement : dimensions de 1 à 2^32, pas entre lignes multiple de 16 octets (et
 *        au moins une ligne), boîte de 1 à 256 éléments par dimension, ligne de boîte multiple
 *        de 16 octets.
 * @throws std::invalid_argument avec la règle enfreinte, en français
 */
inline void validate_tile_map(const TileMapSpec& spec) {
    constexpr std::size_t kElement = sizeof(float);
    constexpr std::size_t kMaxDim = std::size_t{1} << 32;
    if (spec.rows == 0 || spec.cols == 0 || spec.rows > kMaxDim || spec.cols > kMaxDim)
        throw std::invalid_argument("matrice de " + std::to_string(spec.rows) + " × " + std::to_string(spec.cols) +
                                    " : chaque dimension doit être comprise entre 1 et 2^32");
    if (spec.row_pitch_bytes % 16 != 0)
        throw std::invalid_argument("pas entre lignes de " + std::to_string(spec.row_pitch_bytes) +
                                    " octets : la TMA exige un multiple de 16 octets");
    if (spec.row_pitch_bytes < spec.cols * kElement)
        throw std::invalid_argument("pas entre lignes de " + std::to_string(spec.row_pitch_bytes) +
                                    " octets : plus court qu'une ligne de " + std::to_string(spec.cols * kElement) +
                                    " octets");
    if (spec.row_pitch_bytes >= (std::size_t{1} << 40))
        throw std::invalid_argument("pas entre lignes de " + std::to_string(spec.row_pitch_bytes) +
                                    " octets : la TMA exige moins de 2^40 octets");
    if (spec.tile_rows == 0 || spec.tile_cols == 0 || spec.tile_rows > 256 || spec.tile_cols > 256)
        throw std::invalid_argument("tuile de " + std::to_string(spec.tile_rows) + " × " +
                                    std::to_string(spec.tile_cols) +
                                    " : chaque dimension doit être comprise entre 1 et 256 éléments");
    if (spec.tile_cols * kElement % 16 != 0)
        throw std::invalid_argument("ligne de tuile de " + std::to_string(spec.tile_cols * kElement) +
                                    " octets : la TMA exige un multiple de 16 octets");
}
// --8<-- [end:validation]

/**
 * @brief Vérifie l'adresse de la matrice.
 * @throws std::invalid_argument si @p address n'est pas alignée sur 16 octets
 */
inline void validate_address(std::uintptr_t address) {
    if (address % 16 != 0)
        throw std::invalid_argument("adresse de la matrice non alignée sur 16 octets, comme l'exige la TMA");
}

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
