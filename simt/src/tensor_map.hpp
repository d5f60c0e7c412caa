/**
 * @file
 * @brief Codage propre à simt des 128 octets opaques d'un CUtensorMap, partagé par l'encodeur
 *        (tensor_map.cpp, côté hôte) et les copies du TMA (tma.cpp, côté noyau).
 */
#pragma once

#include <cstdint>

namespace simt::detail {

/** @brief Une carte de tenseur décodée (mode tuilé, sans entrelacement). */
struct TensorMapInfo {
    unsigned rank = 0;                  ///< 1 à 5
    unsigned data_type = 0;             ///< CUtensorMapDataType
    unsigned element_size = 0;          ///< octets par élément
    unsigned swizzle = 0;               ///< CUtensorMapSwizzle : 0 aucun, 1 32B, 2 64B, 3 128B
    bool nan_fill = false;              ///< hors limites rempli de NaN (sinon de zéros)
    bool floating = false;              ///< type d'élément flottant
    std::uint64_t address = 0;          ///< adresse globale du tenseur
    std::uint64_t dims[5]{};            ///< éléments par dimension, la plus intérieure d'abord
    std::uint64_t strides[5]{};         ///< octets entre deux éléments voisins de chaque dimension
    unsigned box[5]{};                  ///< éléments parcourus par la boîte, par dimension
    unsigned element_strides[5]{};      ///< pas de parcours par dimension (1 pour la première)
};

/** @brief Écrit @p info dans les 16 mots opaques @p opaque. */
void encode_tensor_map(const TensorMapInfo& info, std::uint64_t* opaque);

/** @brief Relit une carte ; false si les 16 mots ne viennent pas de l'encodeur de simt. */
bool decode_tensor_map(const std::uint64_t* opaque, TensorMapInfo& info);

/** @brief Octets d'un élément de type @p data_type (0 pour un type que simt ne prend pas en charge). */
unsigned tensor_element_size(unsigned data_type);

/** @brief Le type @p data_type est-il flottant (remplissage par NaN permis) ? */
bool tensor_element_is_floating(unsigned data_type);

}  // namespace simt::detail
