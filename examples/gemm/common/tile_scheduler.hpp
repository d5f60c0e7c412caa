/**
 * @file
 * @brief Ordres de parcours des tuiles de C pour un noyau persistant (issue 14, étape 17) :
 *        en lignes, groupé (bandes de G lignes de tuiles parcourues colonne par colonne) et
 *        selon une courbe de Hilbert. L'ordre décide quelles tuiles de A et de B les SM
 *        demandent en même temps, donc ce que le cache L2 peut partager.
 *
 * Les fonctions d'indice et le curseur d'un bloc persistant (TileCursor) servent à l'hôte et
 * au GPU ; hilbert_order et tile_order donnent l'ordre entier : pour les tests et les figures,
 * et, pour Hilbert, la table que lit le noyau.
 */
#pragma once

#include "common/host_device.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::gemm::schedule {

/** @brief Une tuile de C : sa ligne et sa colonne dans la grille des tuiles. */
struct Tile {
    int m = 0;  ///< ligne de tuiles (dans M)
    int n = 0;  ///< colonne de tuiles (dans N)
};

/** @brief Deux tuiles égales. */
NOYAUX_HOST_DEVICE constexpr bool operator==(Tile x, Tile y) { return x.m == y.m && x.n == y.n; }

// --8<-- [start:ordres]
/** @brief La tuile de rang @p index en lignes : toute une ligne de tuiles, puis la suivante. */
NOYAUX_HOST_DEVICE constexpr Tile row_major_tile(int index, int /*tiles_m*/, int tiles_n) {
    return {index / tiles_n, index % tiles_n};
}

// --8<-- [start:groupe]
/**
 * @brief La tuile de rang @p index en ordre groupé : les lignes de tuiles vont par bandes de
 *        @p group ; dans une bande, on descend une colonne (group tuiles qui partagent la même
 *        tuile de B) avant de passer à la suivante. La dernière bande peut être plus étroite.
 */
NOYAUX_HOST_DEVICE constexpr Tile grouped_tile(int index, int tiles_m, int tiles_n, int group) {
    const int per_band = group * tiles_n;
    const int band = index / per_band;
    const int first_row = band * group;
    const int rows = tiles_m - first_row < group ? tiles_m - first_row : group;
    const int within = index - band * per_band;
    return {first_row + within % rows, within / rows};
}
// --8<-- [end:groupe]

/**
 * @brief Le point de rang @p d sur la courbe de Hilbert d'un carré de côté @p side (puissance
 *        de deux) : l'algorithme classique qui, de l'échelle 1 à side, ajoute un quadrant et
 *        le tourne au besoin. Deux rangs consécutifs sont deux cases voisines.
 */
NOYAUX_HOST_DEVICE constexpr Tile hilbert_point(std::uint32_t d, std::uint32_t side) {
    std::uint32_t x = 0, y = 0;
    for (std::uint32_t s = 1; s < side; s *= 2) {
        const std::uint32_t rx = 1u & (d / 2), ry = 1u & (d ^ rx);
        if (ry == 0) {
            if (rx == 1) {
                x = s - 1 - x;
                y = s - 1 - y;
            }
            const std::uint32_t t = x;
            x = y;
            y = t;
        }
        x += s * rx;
        y += s * ry;
        d /= 4;
    }
    return {int(y), int(x)};
}
// --8<-- [end:ordres]

/** @brief Les ordres comparés. */
enum class Order {
    row_major,  ///< en lignes
    grouped,    ///< par bandes de lignes (grouped_tile)
    hilbert,    ///< courbe de Hilbert (hilbert_order)
};

// --8<-- [start:curseur]
/**
 * @brief Les tuiles d'un bloc persistant : celles de rang @p first, first + stride, first +
 *        2·stride… dans l'ordre @p order. Chaque bloc a le sien, de first = son indice et
 *        stride = la taille de la grille : les blocs se partagent ainsi toutes les tuiles,
 *        chacune une fois, et une vague de blocs prend des tuiles consécutives de l'ordre.
 *
 * En lignes et groupé, la tuile se calcule depuis son rang en quelques divisions. Hilbert lit
 * la table de l'ordre complet (hilbert_order, calculée sur l'hôte une fois par forme) : le
 * rang d'une case parmi celles de la grille ne se calcule pas sans parcourir la courbe, et ce
 * parcours (environ stride cases par tuile) coûterait plus de temps que le calcul de la tuile.
 */
template <Order order>
class TileCursor {
public:
    /**
     * @brief Le curseur d'un bloc, avant son premier next() ; @p hilbert_table est l'ordre
     *        complet (tiles_m × tiles_n tuiles) pour Order::hilbert, ignoré pour les autres.
     */
    NOYAUX_HOST_DEVICE constexpr TileCursor(int tiles_m, int tiles_n, int group, int first, int stride,
                                            const Tile* hilbert_table = nullptr)
        : tiles_m_(tiles_m), tiles_n_(tiles_n), group_(group), rank_(first), stride_(stride),
          table_(hilbert_table) {}
    /** @brief La tuile suivante du bloc dans @p tile ; faux quand il n'y en a plus. */
    NOYAUX_HOST_DEVICE constexpr bool next(Tile& tile) {
        if (rank_ >= tiles_m_ * tiles_n_) return false;
        if constexpr (order == Order::row_major)
            tile = row_major_tile(rank_, tiles_m_, tiles_n_);
        else if constexpr (order == Order::grouped)
            tile = grouped_tile(rank_, tiles_m_, tiles_n_, group_);
        else
            tile = table_[rank_];
        rank_ += stride_;
        return true;
    }

private:
    int tiles_m_, tiles_n_, group_;
    int rank_;            // rang, dans l'ordre, de la prochaine tuile du bloc
    int stride_;          // nombre de blocs (ou de clusters) de la grille
    const Tile* table_;   // Hilbert : l'ordre complet
};
// --8<-- [end:curseur]

/**
 * @brief Refuse une grille vide ou un groupe non positif, avec un message en français.
 * @throws std::invalid_argument
 */
inline void check_grid(int tiles_m, int tiles_n, int group = 1) {
    if (tiles_m <= 0 || tiles_n <= 0)
        throw std::invalid_argument("grille de " + std::to_string(tiles_m) + " × " + std::to_string(tiles_n) +
                                    " tuiles : il faut au moins une tuile dans chaque dimension");
    if (group <= 0)
        throw std::invalid_argument("groupe de " + std::to_string(group) + " lignes : il faut au moins une ligne");
}

/**
 * @brief L'ordre de Hilbert d'une grille quelconque : la courbe du plus petit carré de côté
 *        puissance de deux qui la contient, sans les cases qui en sortent. Table calculée sur
 *        l'hôte, une fois par forme ; le noyau persistant la lit.
 */
inline std::vector<Tile> hilbert_order(int tiles_m, int tiles_n) {
    check_grid(tiles_m, tiles_n);
    std::uint32_t side = 1;
    while (side < std::uint32_t(std::max(tiles_m, tiles_n))) side *= 2;
    std::vector<Tile> order;
    order.reserve(std::size_t(tiles_m) * std::size_t(tiles_n));
    for (std::uint64_t d = 0; d < std::uint64_t(side) * side; ++d) {
        const Tile tile = hilbert_point(std::uint32_t(d), side);
        if (tile.m < tiles_m && tile.n < tiles_n) order.push_back(tile);
    }
    return order;
}

/** @brief Toutes les tuiles de la grille dans l'ordre @p order (@p group : pour l'ordre groupé). */
inline std::vector<Tile> tile_order(Order order, int tiles_m, int tiles_n, int group = 8) {
    check_grid(tiles_m, tiles_n, group);
    if (order == Order::hilbert) return hilbert_order(tiles_m, tiles_n);
    std::vector<Tile> tiles(std::size_t(tiles_m) * std::size_t(tiles_n));
    for (int i = 0; i < int(tiles.size()); ++i)
        tiles[std::size_t(i)] = order == Order::row_major ? row_major_tile(i, tiles_m, tiles_n)
                                                           : grouped_tile(i, tiles_m, tiles_n, group);
    return tiles;
}

/**
 * @brief Localité d'un ordre : en moyenne, pour chaque vague de @p wave tuiles consécutives
 *        (celles que @p wave SM calculent ensemble), le nombre de bandes de A (lignes de
 *        tuiles) et de B (colonnes de tuiles) distinctes qu'elles lisent. Moins il y en a,
 *        plus le L2 sert de fois chaque octet lu en mémoire.
 */
inline double operand_panels_per_wave(const std::vector<Tile>& order, int wave) {
    if (wave <= 0) throw std::invalid_argument("vague de " + std::to_string(wave) + " tuiles : il en faut au moins une");
    double total = 0.0;
    int waves = 0;
    for (std::size_t first = 0; first < order.size(); first += std::size_t(wave), ++waves) {
        std::set<int> rows, cols;
        for (std::size_t i = first; i < std::min(order.size(), first + std::size_t(wave)); ++i) {
            rows.insert(order[i].m);
            cols.insert(order[i].n);
        }
        total += double(rows.size() + cols.size());
    }
    return waves ? total / waves : 0.0;
}

}  // namespace noyaux::gemm::schedule
