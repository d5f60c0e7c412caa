/**
 * @file
 * @brief Tests propres de l'étape 11, compilés une fois par le compilateur de l'hôte et liés
 *        aux tests GPU comme à ceux de l'émulateur : ce que l'étape promet de plus que la
 *        suite commune (toute forme, dimensions principales, β = 0 sans lecture de C, refus),
 *        l'ordre des blocs et l'analyse de ses dispositions par le modèle de bancs de
 *        l'étape 7. Le noyau leur arrive par test.cu (sonde.hpp).
 */
#include "gemm/11-au-dela-de-boehm/sonde.hpp"

#include "gemm/common/bank_model.hpp"
#include "gemm/common/gemm_reference.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

namespace noyaux::gemm {
namespace {

/** @brief L'étape, demandée une fois au test.cu. */
const BeyondBoehmProbe& probe() {
    static const BeyondBoehmProbe instance = beyond_boehm_probe();
    return instance;
}

/**
 * @brief Exécute la configuration retenue sur @p problem rangé avec les dimensions principales
 *        @p ld (marges remplies de @p padding), à partir de @p offset flottants du début de
 *        chaque tampon ; renvoie C compacté, après avoir vérifié que les marges de C sont intactes.
 */
std::vector<float> run_strided(const HostProblem& problem, LeadingDimensions ld, int offset = 0,
                               float padding = -7.0f) {
    const auto [m, n, k] = problem.shape;
    auto spread = [&](const std::vector<float>& packed, int rows, int cols, std::int64_t pitch) {
        std::vector<float> wide(std::size_t(offset + rows * pitch), padding);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) wide[offset + r * pitch + c] = packed[std::size_t(r) * cols + c];
        return wide;
    };
    const StridedRun run{problem.shape, problem.alpha, problem.beta, ld, offset,
                         spread(problem.a, m, k, ld.lda), spread(problem.b, k, n, ld.ldb),
                         spread(problem.c, m, n, ld.ldc)};
    const std::vector<float> wide = probe().run_strided(run);
    std::vector<float> packed(std::size_t(m) * n);
    for (int r = 0; r < m; ++r)
        for (std::int64_t col = 0; col < ld.ldc; ++col) {
            const float value = wide[offset + r * ld.ldc + col];
            if (col < n)
                packed[std::size_t(r) * n + col] = value;
            else
                EXPECT_EQ(value, padding) << "marge de C écrite en (" << r << ", " << col << ")";
        }
    for (int i = 0; i < offset; ++i) EXPECT_EQ(wide[i], padding) << "avant C, indice " << i;
    return packed;
}

void expect_exact(const HostProblem& problem, const std::vector<float>& result) {
    const auto mismatch = first_mismatch(result, reference_gemm(problem), problem.shape);
    EXPECT_FALSE(mismatch.has_value()) << to_string(problem.shape) << " : " << mismatch.value_or("");
}

}  // namespace

// --8<-- [start:garanties]
TEST(AuDelaDeBoehm, AnyShapeIsComputed) {
    // Aucune dimension multiple de la tuile 64×128×32, jusqu'à la plus petite.
    for (const Shape shape : {Shape{1, 1, 1}, Shape{37, 129, 65}, Shape{1000, 1000, 1000},
                              Shape{65, 3, 97}, Shape{2, 130, 4}})
        expect_correct_or_rejected(probe().retained, shape, 1.0f, 0.5f, Values::small_integers);
}

TEST(AuDelaDeBoehm, ExactBeyond1024InEveryDimension) {
    // Plus de 1 024 dans chaque dimension, aucune multiple de la tuile 64×128×32 : 33 tranches
    // de K, dont la première partielle, et des tuiles de bord en M et en N. Résultat exact, par
    // les copies de 16 octets (N et K multiples de 4), puis par le chemin de repli (N et K impairs).
    const Shape vector{1025, 1028, 1028}, fallback{1025, 1031, 1027};
    ASSERT_TRUE(probe().vectorizable({vector, 1.0f, nullptr, nullptr, 0.0f, nullptr}, {vector.k, vector.n, vector.n}));
    ASSERT_FALSE(probe().vectorizable({fallback, 1.0f, nullptr, nullptr, 0.0f, nullptr},
                                      {fallback.k, fallback.n, fallback.n}));
    for (const Shape shape : {vector, fallback}) expect_exact_at(probe().retained, shape);
}

TEST(AuDelaDeBoehm, LeadingDimensionsLargerThanTheShape) {
    // lda > K, ldb > N, ldc > N ; impairs (copies de 4 octets), puis multiples de 4 (16 octets).
    const HostProblem odd = make_problem({37, 45, 29}, 1.0f, 0.5f, Values::small_integers);
    expect_exact(odd, run_strided(odd, {29 + 3, 45 + 5, 45 + 1}));
    const HostProblem aligned = make_problem({70, 132, 68}, 1.0f, -1.0f, Values::small_integers);
    ASSERT_TRUE(probe().vectorizable({aligned.shape, 1.0f, nullptr, nullptr, 0.0f, nullptr},
                                     {68 + 4, 132 + 8, 132 + 12}));
    expect_exact(aligned, run_strided(aligned, {68 + 4, 132 + 8, 132 + 12}));
}

TEST(AuDelaDeBoehm, MisalignedSubMatricesFallBackToFourByteCopies) {
    // Un sous-tableau qui commence un flottant plus loin : pas de copie de 16 octets possible.
    const HostProblem problem = make_problem({70, 132, 68}, 1.0f, 0.5f, Values::small_integers);
    expect_exact(problem, run_strided(problem, {68, 132, 132}, 1));
}

TEST(AuDelaDeBoehm, BetaZeroDoesNotReadC) {
    // C plein de NaN : avec β = 0, BLAS ne le lit pas, et le résultat vaut α·A·B exactement.
    for (const Shape shape : {Shape{64, 128, 32}, Shape{37, 129, 65}}) {
        HostProblem problem = make_problem(shape, 2.0f, 0.0f, Values::small_integers);
        std::fill(problem.c.begin(), problem.c.end(), std::numeric_limits<float>::quiet_NaN());
        const std::vector<float> result = probe().retained.run(problem);
        std::fill(problem.c.begin(), problem.c.end(), 0.0f);  // ce que la référence doit ignorer
        expect_exact(problem, result);
    }
}

TEST(AuDelaDeBoehm, InvalidLeadingDimensionsAndOverflowAreRejected) {
    alignas(16) static float storage[16];
    const auto launch = probe().launch_strided;
    const GemmArgs args{{4, 4, 4}, 1.0f, storage, storage, 0.0f, storage};
    EXPECT_THROW(launch(args, {3, 4, 4}), std::invalid_argument);   // lda < K
    EXPECT_THROW(launch(args, {4, 3, 4}), std::invalid_argument);   // ldb < N
    EXPECT_THROW(launch(args, {4, 4, -4}), std::invalid_argument);  // ldc < N
    GemmArgs null_a = args;
    null_a.a = nullptr;
    EXPECT_THROW(probe().retained.launch(null_a), std::invalid_argument);
    // 2³¹ − 1 lignes et colonnes : plus de tuiles que de blocs possibles dans une grille.
    const GemmArgs huge{{INT_MAX, INT_MAX, 1}, 1.0f, storage, storage, 0.0f, storage};
    EXPECT_THROW(launch(huge, {1, INT_MAX, INT_MAX}), UnsupportedShapeError);
    EXPECT_TRUE(probe().retained.nothing_launched());  // rien n'a été lancé
}
// --8<-- [end:garanties]

TEST(AuDelaDeBoehmRasterisation, EveryTileOnceAndGroupsOfRowsFirst) {
    const auto block_tile = probe().block_tile;
    const int group = probe().raster_group;
    for (const auto& [tiles_m, tiles_n] : {std::pair{1, 1}, std::pair{64, 32}, std::pair{13, 5},
                                          std::pair{8, 1}, std::pair{3, 40}}) {
        std::set<std::pair<int, int>> seen;
        for (int block = 0; block < tiles_m * tiles_n; ++block) {
            const schedule::Tile tile = block_tile(block, tiles_m, tiles_n);
            ASSERT_TRUE(tile.m >= 0 && tile.m < tiles_m && tile.n >= 0 && tile.n < tiles_n) << block;
            seen.insert({tile.m, tile.n});
            if (block < group * tiles_n) {  // le premier groupe : les 8 premières lignes
                EXPECT_LT(tile.m, group);
            }
        }
        EXPECT_EQ(seen.size(), std::size_t(tiles_m) * tiles_n) << tiles_m << "×" << tiles_n;
    }
    // Dans un groupe, les blocs consécutifs descendent une colonne : 8 blocs, une colonne de B.
    EXPECT_EQ(group, 8);
    EXPECT_EQ(block_tile(0, 32, 32).n, 0);
    EXPECT_EQ(block_tile(7, 32, 32).n, 0);
    EXPECT_EQ(block_tile(7, 32, 32).m, 7);
    EXPECT_EQ(block_tile(8, 32, 32).n, 1);
}

// --8<-- [start:analyse]
namespace {

using bank_model::conflict_degree;  // le modèle de l'étape 7 (common/bank_model.hpp)
using bank_model::WarpAccess;

/** @brief Accès de 128 bits du warp @p warp : la lane l lit ou écrit le float4 word(tid). */
template <typename Word>
WarpAccess warp_access128(int warp, Word word) {
    WarpAccess access;
    access.width = 4;
    for (int lane = 0; lane < bank_model::warp_size; ++lane) access.word[lane] = word(warp * 32 + lane);
    return access;
}

/**
 * @brief Plus grand nombre de float4 distincts d'un accès qui tombent dans un même groupe de
 *        4 bancs : 1 si le warp entier est servi d'une passe par groupe, quel que soit le
 *        découpage du warp en phases que retient le matériel.
 */
int warp_wide_degree(const WarpAccess& access) {
    std::set<int> distinct(access.word.begin(), access.word.end());
    std::vector<int> per_group(8, 0);
    int worst = 0;
    for (const int word : distinct) worst = std::max(worst, ++per_group[(word / 4) % 8]);
    return worst;
}

/** @brief Aucun accès de la configuration @p g à la mémoire partagée n'est en conflit. */
void expect_conflict_free_layouts(const LayoutProbe& g) {
    for (int warp = 0; warp < g.threads / 32; ++warp) {
        for (int chunk = 0; chunk < g.chunks_k; ++chunk)
            for (int i = 0; i < 8; ++i) {
                // Lecture d'un fragment de A : la ligne i du thread, le morceau chunk.
                const auto a_read = warp_access128(warp, [&](int tid) {
                    const int row = (i / 4) * (g.block_m / 2) + g.thread_y(tid) * 4 + i % 4;
                    return g.a_index(row, chunk);
                });
                EXPECT_EQ(conflict_degree(a_read), 1) << g.parameters << ", lecture de A, warp " << warp;
                EXPECT_EQ(warp_wide_degree(a_read), 1) << g.parameters << ", lecture de A (warp entier), warp " << warp;
            }
        for (int kk = 0; kk < g.block_k; ++kk)
            for (int h = 0; h < 2; ++h) {
                const auto b_read = warp_access128(warp, [&](int tid) {
                    return g.b_index(kk, h * (g.block_n / 2) + g.thread_x(tid) * 4);
                });
                EXPECT_EQ(conflict_degree(b_read), 1) << g.parameters << ", lecture de B, warp " << warp;
                EXPECT_EQ(warp_wide_degree(b_read), 1) << g.parameters << ", lecture de B (warp entier), warp " << warp;
            }
        // Écritures des copies asynchrones de 16 octets : un morceau par lane et par passe.
        for (int pass = 0; pass < g.block_m * g.chunks_k / g.threads; ++pass) {
            const auto a_store = warp_access128(warp, [&](int tid) {
                const int q = tid + pass * g.threads;
                return g.a_index(q / g.chunks_k, q % g.chunks_k);
            });
            EXPECT_EQ(conflict_degree(a_store), 1) << g.parameters << ", écriture de A, warp " << warp;
        }
        for (int pass = 0; pass < g.block_k * (g.block_n / 4) / g.threads; ++pass) {
            const auto b_store = warp_access128(warp, [&](int tid) {
                const int q = tid + pass * g.threads;
                return g.b_index(q / (g.block_n / 4), 4 * (q % (g.block_n / 4)));
            });
            EXPECT_EQ(conflict_degree(b_store), 1) << g.parameters << ", écriture de B, warp " << warp;
        }
    }
}

}  // namespace

TEST(AuDelaDeBoehmBancs, EverySweptLayoutIsConflictFree) {
    ASSERT_FALSE(probe().swept_layouts.empty());
    for (const LayoutProbe& layout : probe().swept_layouts) expect_conflict_free_layouts(layout);
}

TEST(AuDelaDeBoehmBancs, WithoutThePermutationTheFourRowsOfAWarpShareABankGroup) {
    // Sans le OU exclusif, les lignes ty·4 + i des 4 ty d'un warp sont à 4·BK flottants l'une
    // de l'autre : même groupe de bancs, 4 float4 distincts servis l'un après l'autre.
    const LayoutProbe& g = probe().retained_layout;
    const auto plain = warp_access128(0, [&](int tid) { return g.thread_y(tid) * 4 * g.block_k; });
    EXPECT_EQ(warp_wide_degree(plain), 4);
    const auto swizzled = warp_access128(0, [&](int tid) { return g.a_index(g.thread_y(tid) * 4, 0); });
    EXPECT_EQ(warp_wide_degree(swizzled), 1);
}
// --8<-- [end:analyse]

}  // namespace noyaux::gemm
