/**
 * @file
 * @brief Logique hôte de l'exemple 02 : ce que l'on déduit des numéros de SM relevés par les
 *        warps (blocs par SM, cohérence d'un bloc). Sans noyau : testée aussi sur l'émulateur.
 */
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::glossaire::sm_ids {

/** @brief Où un warp s'est exécuté, relevé par sa lane 0. */
struct WarpPlacement {
    unsigned block;          ///< blockIdx.x
    unsigned warp_in_block;  ///< threadIdx.x / 32
    unsigned sm;             ///< %smid : le SM qui exécute le bloc
    unsigned hardware_warp;  ///< %warpid : l'emplacement du warp dans ce SM
};

// --8<-- [start:repartition]
/**
 * @brief Nombre de blocs posés sur chaque SM (compté par le warp 0 de chaque bloc).
 * @param warps relevés du noyau
 * @param sm_limit %nsmid : les numéros de SM sont dans [0, sm_limit)
 * @throws std::invalid_argument si un numéro de SM sort de cet intervalle
 */
inline std::vector<unsigned> blocks_per_sm(const std::vector<WarpPlacement>& warps, unsigned sm_limit) {
    std::vector<unsigned> histogram(sm_limit, 0);
    for (const WarpPlacement& w : warps) {
        if (w.sm >= sm_limit)
            throw std::invalid_argument("SM " + std::to_string(w.sm) + " hors de [0, " +
                                        std::to_string(sm_limit) + ")");
        if (w.warp_in_block == 0) ++histogram[w.sm];
    }
    return histogram;
}
// --8<-- [end:repartition]

/** @brief Étendue d'une répartition : SM qui ont reçu au moins un bloc, et leurs extrêmes. */
struct Spread {
    unsigned used = 0;    ///< SM qui ont reçu au moins un bloc
    unsigned fewest = 0;  ///< le moins de blocs sur un SM utilisé
    unsigned most = 0;    ///< le plus de blocs sur un SM
};

/** @brief Étendue de @p histogram (résultat de blocks_per_sm). */
inline Spread spread(const std::vector<unsigned>& histogram) {
    Spread s;
    for (unsigned count : histogram) {
        if (count == 0) continue;
        s.fewest = s.used == 0 ? count : std::min(s.fewest, count);
        s.most = std::max(s.most, count);
        ++s.used;
    }
    return s;
}

/**
 * @brief Premier défaut des relevés, ou chaîne vide : chaque warp de chaque bloc doit avoir
 *        été relevé une fois, et tous les warps d'un bloc sur le même SM (un bloc ne se partage
 *        jamais entre SM).
 */
inline std::string first_inconsistency(const std::vector<WarpPlacement>& warps, unsigned blocks,
                                       unsigned warps_per_block) {
    if (warps.size() != std::size_t{blocks} * warps_per_block)
        return std::to_string(warps.size()) + " relevés pour " + std::to_string(blocks) + " blocs de " +
               std::to_string(warps_per_block) + " warps";
    for (std::size_t i = 0; i < warps.size(); ++i) {
        const WarpPlacement& w = warps[i];
        if (w.block != i / warps_per_block || w.warp_in_block != i % warps_per_block)
            return "relevé " + std::to_string(i) + " mal placé";
        const WarpPlacement& first = warps[i - w.warp_in_block];
        if (w.sm != first.sm)
            return "bloc " + std::to_string(w.block) + " : warp 0 sur le SM " + std::to_string(first.sm) +
                   ", warp " + std::to_string(w.warp_in_block) + " sur le SM " + std::to_string(w.sm);
    }
    return {};
}

}  // namespace noyaux::glossaire::sm_ids
