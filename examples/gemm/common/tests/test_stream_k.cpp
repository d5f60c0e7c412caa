/**
 * @file
 * @brief Tests de la partition Stream-K hybride de l'étape 19 (common/stream_k.hpp), sans GPU :
 *        couverture exacte, tuiles entières jamais coupées, bornes de l'heuristique, blocs qui
 *        contribuent à une tuile partagée, ordre des morceaux (aucune attente en cascade) et
 *        choix de la partition aux formes du benchmark.
 */
#include "gemm/common/stream_k.hpp"
#include "gemm/echelle/sizes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::gemm {
namespace {

/** @brief Des travaux de tous les régimes : une seule vague, queue nulle, hybride, queue à moitié pleine. */
const std::vector<stream_k::Work> kWorks = {
    {1, 1, 1},     {7, 5, 3},     {1024, 128, 132}, {10, 3, 64},   {132, 64, 132},  {264, 17, 132},
    {35, 3, 8},    {9, 5, 8},     {2, 3, 8},        {19, 4, 8},    {12, 4, 8},      {1, 64, 8},
    {4096, 128, 264}, {1024, 64, 264}, {264 * 5 + 131, 16, 264}, {16, 8, 128}, {64, 16, 264}, {3, 5, 7}};

std::string describe(const stream_k::Work& work) {
    return std::to_string(work.tiles) + " tuiles de " + std::to_string(work.iterations_per_tile) +
           " itérations, " + std::to_string(work.workers) + " blocs";
}

TEST(StreamK, EveryIterationOfEveryTileIsCoveredExactlyOnce) {
    for (const stream_k::Work& work : kWorks) {
        std::vector<int> covered(std::size_t(work.tiles * work.iterations_per_tile), 0);
        std::map<std::int64_t, int> finishers;
        std::int64_t smallest = std::numeric_limits<std::int64_t>::max(), largest = 0;
        for (int worker = 0; worker < work.workers; ++worker) {
            std::int64_t share = 0;
            for (const stream_k::Segment& segment : stream_k::segments(work, worker)) {
                ASSERT_LT(segment.k_begin, segment.k_end) << describe(work);
                ASSERT_LT(segment.tile, work.tiles) << describe(work);
                for (std::int64_t k = segment.k_begin; k < segment.k_end; ++k)
                    ++covered[std::size_t(segment.tile * work.iterations_per_tile + k)];
                if (segment.finishes_tile) ++finishers[segment.tile];
                share += segment.k_end - segment.k_begin;
            }
            smallest = std::min(smallest, share);
            largest = std::max(largest, share);
        }
        for (std::size_t i = 0; i < covered.size(); ++i)
            ASSERT_EQ(covered[i], 1) << "itération " << i << " (" << describe(work) << ")";
        EXPECT_EQ(finishers.size(), std::size_t(work.tiles));  // chaque tuile a un seul bloc qui l'écrit
        for (const auto& [tile, count] : finishers) EXPECT_EQ(count, 1) << "tuile " << tile;
        // Avec une queue partagée, les tuiles entières sont un multiple du nombre de blocs : les
        // parts totales restent égales à une itération près.
        if (stream_k::shared_tiles(work) > 0) {
            EXPECT_LE(largest - smallest, 1) << "parts inégales : " << describe(work);
        }
    }
}

TEST(StreamK, WholeTilesAreNeverSplit) {
    for (const stream_k::Work& work : kWorks) {
        const std::int64_t whole = stream_k::whole_tiles(work);
        std::map<std::int64_t, int> pieces;  // tuile entière -> morceaux qui la calculent
        for (int worker = 0; worker < work.workers; ++worker)
            for (const stream_k::Segment& segment : stream_k::segments(work, worker)) {
                if (segment.tile >= whole) continue;
                ++pieces[segment.tile];
                EXPECT_EQ(segment.k_begin, 0) << "tuile entière " << segment.tile << " coupée : " << describe(work);
                EXPECT_EQ(segment.k_end, work.iterations_per_tile) << describe(work);
                EXPECT_TRUE(segment.finishes_tile);
                EXPECT_EQ(segment.tile % work.workers, worker) << "vague après vague, comme à l'étape 17";
            }
        EXPECT_EQ(std::int64_t(pieces.size()), whole) << describe(work);
        for (const auto& [tile, count] : pieces) EXPECT_EQ(count, 1) << "tuile " << tile << " : " << describe(work);
        if (stream_k::shared_tiles(work) > 0) {
            EXPECT_EQ(whole % work.workers, 0) << describe(work);
        }
    }
}

// --8<-- [start:heuristique]
TEST(StreamK, HeuristicBoundaries) {
    // 8 blocs. Pas de queue : tout en tuiles entières.
    EXPECT_EQ(stream_k::shared_tiles({16, 4, 8}), 0);
    EXPECT_EQ(stream_k::shared_tiles({8, 4, 8}), 0);
    // Dernière vague exactement à moitié pleine (4 sur 8) : tuiles entières ; juste en dessous
    // (3 sur 8) : la queue et la dernière vague pleine sont partagées, 8 + 3 tuiles.
    EXPECT_EQ(stream_k::shared_tiles({20, 4, 8}), 0);
    EXPECT_EQ(stream_k::shared_tiles({19, 4, 8}), 11);
    EXPECT_EQ(stream_k::whole_tiles({19, 4, 8}), 8);
    // Une seule vague pleine et une queue : tout est partagé.
    EXPECT_EQ(stream_k::shared_tiles({11, 4, 8}), 11);
    // Une seule vague, incomplète : la même borne ; en dessous de la moitié, tout est partagé.
    EXPECT_EQ(stream_k::shared_tiles({4, 4, 8}), 0);
    EXPECT_EQ(stream_k::shared_tiles({3, 4, 8}), 3);
    // Nombre de blocs impair : 3 sur 7 est sous la moitié, 4 sur 7 au-dessus.
    EXPECT_EQ(stream_k::shared_tiles({10, 4, 7}), 10);
    EXPECT_EQ(stream_k::shared_tiles({11, 4, 7}), 0);
    // 264 blocs : 132 tuiles en queue, c'est la moitié ; 131, en dessous.
    EXPECT_EQ(stream_k::shared_tiles({3 * 264 + 132, 64, 264}), 0);
    EXPECT_EQ(stream_k::shared_tiles({3 * 264 + 131, 64, 264}), 264 + 131);
}
// --8<-- [end:heuristique]

TEST(StreamK, HybridPartitionOfSevenTilesOnThreeBlocks) {
    // 7 tuiles de 5 itérations sur 3 blocs : 2 vagues pleines et 1 tuile en queue (moins de la
    // moitié de 3). Tuiles 0 à 2 entières ; tuiles 3 à 6 partagées : 20 itérations, 7 + 7 + 6.
    const stream_k::Work work{7, 5, 3};
    ASSERT_EQ(stream_k::whole_tiles(work), 3);
    // Bloc 1 : sa tuile entière (1), puis sa part [7, 14) des itérations partagées, à rebours :
    // le début de la tuile 5, qu'il publie, puis la fin de la tuile 4, que le bloc 0 a commencée.
    const auto second = stream_k::segments(work, 1);
    ASSERT_EQ(second.size(), 3u);
    EXPECT_EQ(second[0].tile, 1);
    EXPECT_EQ(second[1].tile, 5);
    EXPECT_EQ(second[1].k_begin, 0);
    EXPECT_EQ(second[1].k_end, 4);
    EXPECT_FALSE(second[1].finishes_tile);
    EXPECT_EQ(second[2].tile, 4);
    EXPECT_EQ(second[2].k_begin, 2);
    EXPECT_TRUE(second[2].finishes_tile);
    EXPECT_EQ(stream_k::first_contributor(work, second[2], 1), 0);
    // Bloc 2 : la tuile 6 entière dans sa part (sans réduction), puis la fin de la tuile 5.
    const auto third = stream_k::segments(work, 2);
    ASSERT_EQ(third.size(), 3u);
    EXPECT_EQ(third[1].tile, 6);
    EXPECT_EQ(third[1].k_begin, 0);
    EXPECT_EQ(third[1].k_end, 5);
    EXPECT_EQ(third[2].tile, 5);
    EXPECT_EQ(third[2].k_begin, 4);
    EXPECT_EQ(stream_k::first_contributor(work, third[2], 2), 1);
}

TEST(StreamK, FinisherKnowsEveryContributor) {
    // Le bloc qui termine une tuile attend exactement les blocs qui en tiennent une partie :
    // first_contributor et worker_of, le code même du noyau, contre la partition complète.
    for (const stream_k::Work& work : kWorks) {
        std::map<std::int64_t, std::vector<int>> holders;  // tuile -> blocs qui en calculent une part
        for (int worker = 0; worker < work.workers; ++worker)
            for (const stream_k::Segment& segment : stream_k::segments(work, worker)) holders[segment.tile].push_back(worker);
        for (int worker = 0; worker < work.workers; ++worker)
            for (const stream_k::Segment& segment : stream_k::segments(work, worker)) {
                if (!segment.finishes_tile) continue;
                const std::int64_t first = stream_k::first_contributor(work, segment, worker);
                std::vector<int> expected;
                for (std::int64_t w = first; w <= worker; ++w) expected.push_back(int(w));
                EXPECT_EQ(holders[segment.tile], expected) << "tuile " << segment.tile << ", " << describe(work);
                // Deux blocs au plus par tuile partagée dès qu'une vague pleine est partagée.
                if (work.tiles > work.workers) {
                    EXPECT_LE(expected.size(), 2u) << describe(work);
                }
            }
        const stream_k::Work shared = stream_k::shared_work(work);
        for (std::int64_t it = 0; it < shared.tiles * shared.iterations_per_tile; ++it) {
            const std::int64_t w = stream_k::worker_of(shared, it);
            ASSERT_LE(stream_k::first_iteration(shared, w), it);
            ASSERT_LT(it, stream_k::first_iteration(shared, w + 1));
        }
    }
}

/**
 * @brief Durée du noyau selon un modèle où chaque itération coûte 1 et la réduction rien : les
 *        blocs, tous résidents, calculent leurs morceaux dans l'ordre du curseur ; un morceau
 *        qui termine une tuile commencée par d'autres attend leurs publications. Vide en cas
 *        d'interblocage.
 */
std::optional<std::int64_t> simulated_makespan(const stream_k::Work& work) {
    std::vector<std::vector<stream_k::Segment>> plan;
    for (int worker = 0; worker < work.workers; ++worker) plan.push_back(stream_k::segments(work, worker));
    std::vector<std::size_t> done(plan.size(), 0);
    std::vector<std::int64_t> clock(plan.size(), 0);
    std::vector<std::optional<std::int64_t>> published(plan.size());  // une case par bloc
    for (bool progress = true; progress;) {
        progress = false;
        for (std::size_t w = 0; w < plan.size(); ++w)
            while (done[w] < plan[w].size()) {
                const stream_k::Segment& segment = plan[w][done[w]];
                std::int64_t end = clock[w] + (segment.k_end - segment.k_begin);
                if (segment.finishes_tile) {
                    bool ready = true;
                    for (std::int64_t c = stream_k::first_contributor(work, segment, std::int64_t(w)); c < std::int64_t(w); ++c)
                        if (published[std::size_t(c)]) end = std::max(end, *published[std::size_t(c)]);
                        else ready = false;
                    if (!ready) break;
                } else {
                    published[w] = end;
                }
                clock[w] = end;
                ++done[w];
                progress = true;
            }
    }
    for (std::size_t w = 0; w < plan.size(); ++w)
        if (done[w] < plan[w].size()) return std::nullopt;
    return *std::max_element(clock.begin(), clock.end());
}

TEST(StreamK, PartialsArePublishedBeforeTheyAreAwaited) {
    // Chaque bloc publie sa somme partielle avant d'attendre celles des autres, et l'attente du
    // bloc final ne dépasse pas une itération : sans l'ordre à rebours, le bloc b + 1 attendrait
    // la fin du bloc b, qui attendrait celle du bloc b - 1… une cascade sur toute la grille.
    for (const stream_k::Work& work : kWorks) {
        std::int64_t largest = 0;
        for (int worker = 0; worker < work.workers; ++worker) {
            bool waited = false;
            std::int64_t share = 0;
            for (const stream_k::Segment& segment : stream_k::segments(work, worker)) {
                share += segment.k_end - segment.k_begin;
                if (!segment.finishes_tile) {
                    EXPECT_FALSE(waited) << "bloc " << worker << " : " << describe(work);
                }
                if (segment.finishes_tile && stream_k::first_contributor(work, segment, worker) < worker) waited = true;
            }
            largest = std::max(largest, share);
        }
        const std::optional<std::int64_t> makespan = simulated_makespan(work);
        ASSERT_TRUE(makespan.has_value()) << "interblocage : " << describe(work);
        EXPECT_LE(*makespan, largest + 1) << describe(work);
    }
}

TEST(StreamK, BenchmarkShapesOnHopper) {
    // Les côtés du benchmark bf16 (echelle/sizes.hpp), tuiles 128×128×64, sur 132 SM × 2 blocs
    // (la grille : 264 blocs, ou moins s'il y a moins d'itérations). Ce que choisit la partition :
    struct Expected {
        int side;
        std::int64_t whole, shared;
    };
    const Expected expected[] = {
        {512, 0, 16},      // 16 tuiles de 8 itérations, 128 blocs : tout en Stream-K
        {1024, 0, 64},     // 64 tuiles, une vague à 24 % : tout en Stream-K
        {2048, 256, 0},    // 256 tuiles, une vague à 97 % : tuiles entières
        {4096, 1024, 0},   // 1 024 tuiles, dernière vague 232/264 : tuiles entières
        {8192, 4096, 0}};  // 4 096 tuiles, dernière vague 136/264, de peu au-dessus de la moitié
    ASSERT_EQ(std::size(expected), std::size(ladder_bench::kBf16Sizes));
    for (std::size_t i = 0; i < std::size(expected); ++i) {
        const int side = ladder_bench::kBf16Sizes[i];
        ASSERT_EQ(side, expected[i].side);
        const std::int64_t tiles = std::int64_t(side / 128) * (side / 128), per_tile = side / 64;
        const stream_k::Work work{tiles, per_tile, int(std::min<std::int64_t>(264, tiles * per_tile))};
        EXPECT_EQ(stream_k::whole_tiles(work), expected[i].whole) << side;
        EXPECT_EQ(stream_k::shared_tiles(work), expected[i].shared) << side;
    }
}

TEST(StreamK, WaveQuantisation) {
    // 4096² en tuiles 128×128 sur 132 SM : 1024 tuiles, 8 vagues dont la dernière à 100/132.
    EXPECT_NEAR(stream_k::wave_efficiency(1024, 132), 1024.0 / 1056.0, 1e-12);
    EXPECT_DOUBLE_EQ(stream_k::wave_efficiency(264, 132), 1.0);
    // 133 tuiles : une deuxième vague pour une seule tuile, la moitié des SM inoccupés en moyenne.
    EXPECT_NEAR(stream_k::wave_efficiency(133, 132), 133.0 / 264.0, 1e-12);
    EXPECT_THROW(stream_k::wave_efficiency(0, 132), std::invalid_argument);
}

TEST(StreamK, EmptyWorkIsRejectedInFrench) {
    try {
        stream_k::segments({0, 4, 8}, 0);
        ADD_FAILURE() << "travail vide accepté";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("au moins une tuile"), std::string::npos) << error.what();
    }
    EXPECT_THROW(stream_k::segments({4, 4, 0}, 0), std::invalid_argument);
}

}  // namespace
}  // namespace noyaux::gemm
