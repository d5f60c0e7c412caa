/**
 * @file
 * @brief Les formes des tests de l'étape 19, déduites du nombre de blocs résidents du GPU, et ce
 *        que la partition de l'hôte (common/stream_k.hpp) en fait. Une forme fixe ne met pas la
 *        partition dans le même régime sur l'émulateur (8 blocs) et sur un H100 (264 blocs) :
 *        27 tuiles y sont trois vagues et une queue sur l'un, moins d'une vague sur l'autre. Les
 *        tests du GPU et de l'émulateur vérifient ce régime avec le nombre de blocs réel ; un
 *        test de l'hôte (tests/test_formes.cpp) le vérifie pour des GPU qu'on n'a pas.
 */
#pragma once

#include "gemm/common/gemm.hpp"
#include "gemm/common/stream_k.hpp"

#include <algorithm>
#include <cstdint>

namespace noyaux::gemm::stream_k_shapes {

/** @brief La tuile de l'étape 19 (celle de l'étape 14) : test.cu vérifie qu'elle n'a pas changé. */
struct Tile {
    static constexpr int m = 128;  ///< lignes de C par tuile
    static constexpr int n = 128;  ///< colonnes de C par tuile
    static constexpr int k = 64;   ///< profondeur d'une itération de K
};

/**
 * @brief Une vague pleine et une queue de 3 tuiles (moins d'une demi-vague) : toutes sont
 *        partagées, chacune entre deux blocs au plus. Une ligne de tuiles, 3 itérations de K.
 */
constexpr Shape split_tiles_shape(int resident) { return {Tile::m, (resident + 3) * Tile::n, 3 * Tile::k}; }

/**
 * @brief 3 tuiles, moins que la moitié des blocs, et assez d'itérations de K pour que la grille
 *        compte tous les blocs résidents : chaque tuile est coupée entre plusieurs blocs, dont
 *        un seul doit appliquer β.
 */
constexpr Shape few_tiles_shape(int resident) { return {3 * Tile::m, Tile::n, (resident / 3 + 2) * Tile::k}; }

/**
 * @brief Deux vagues pleines et une queue de 3 tuiles : la première vague reste entière, la
 *        seconde et la queue sont partagées. Une ligne de tuiles, 3 itérations de K.
 */
constexpr Shape hybrid_shape(int resident) { return {Tile::m, (2 * resident + 3) * Tile::n, 3 * Tile::k}; }

/** @brief Les blocs de la grille pour @p shape : min(itérations, blocs résidents), comme StreamKKernel::geometry. */
constexpr int grid_blocks(const Shape& shape, int resident) {
    const std::int64_t iterations = std::int64_t(shape.m / Tile::m) * (shape.n / Tile::n) * (shape.k / Tile::k);
    return int(std::min<std::int64_t>(iterations, resident));
}

/** @brief Le travail que le noyau partitionne pour @p shape sur @p blocks blocs. */
constexpr stream_k::Work work_of(const Shape& shape, int blocks) {
    return {std::int64_t(shape.m / Tile::m) * (shape.n / Tile::n), shape.k / Tile::k, blocks};
}

/** @brief Ce que la partition fait d'une forme : ce que chaque test doit exercer. */
struct Partition {
    int blocks = 0;                ///< blocs de la grille
    std::int64_t tiles = 0;        ///< tuiles de C
    std::int64_t whole = 0;        ///< tuiles entières
    std::int64_t shared = 0;       ///< tuiles partagées
    int split = 0;                 ///< tuiles partagées coupées entre plusieurs blocs
    std::int64_t most_blocks = 0;  ///< le plus de blocs qui se partagent une tuile
};

/** @brief La partition de @p shape par une grille sur @p resident blocs résidents. */
inline Partition partition_of(const Shape& shape, int resident) {
    Partition p;
    p.blocks = grid_blocks(shape, resident);
    const stream_k::Work work = work_of(shape, p.blocks);
    p.tiles = work.tiles;
    p.whole = stream_k::whole_tiles(work);
    p.shared = stream_k::shared_tiles(work);
    for (int worker = 0; worker < p.blocks; ++worker)
        for (const stream_k::Segment& segment : stream_k::segments(work, worker)) {
            if (!segment.finishes_tile) continue;
            p.split += segment.k_begin > 0;
            p.most_blocks = std::max(p.most_blocks, worker - stream_k::first_contributor(work, segment, worker) + 1);
        }
    return p;
}

}  // namespace noyaux::gemm::stream_k_shapes
