/**
 * @file
 * @brief Tests de l'étape 11 : la suite commune de l'échelle pour chaque configuration
 *        balayée, puis ce que l'étape promet de plus (toute forme, dimensions principales,
 *        β = 0 sans lecture de C, refus) et l'analyse de ses dispositions (sur l'hôte).
 */
#include "au-dela-de-boehm.cuh"

#include "gemm/common/test_suite.cuh"

#include <array>
#include <climits>
#include <cmath>
#include <limits>
#include <set>
#include <span>
#include <utility>
#include <vector>

namespace noyaux::gemm {

/** @brief L'inscription aux tests communs de chaque configuration d'une liste. */
template <typename List>
struct BeyondBoehmLadderTests;
template <typename... Kernels>
struct BeyondBoehmLadderTests<BeyondBoehmList<Kernels...>> {
    using type = LadderTests<Kernels...>;  ///< l'inscription de toutes les configurations
};

#ifdef SIMT_EMULATOR
/** @brief Sur l'émulateur : chaque configuration balayée. */
using TestedConfigurations = BeyondBoehmLadderTests<BeyondBoehmConfigurations>::type;
#else
/**
 * @brief Sur GPU : la configuration retenue seulement (chaque configuration de plus, ce sont
 *        deux noyaux à compiler pour chaque architecture) ; le balayage compare lui-même
 *        chaque configuration à cuBLAS avant de la mesurer.
 */
using TestedConfigurations = LadderTests<BeyondBoehmKernel>;
#endif

// --8<-- [start:garanties]
// La suite commune (common/ladder_tests.cpp) pour chaque configuration balayée (sur
// l'émulateur) : une configuration fausse ne peut pas gagner le balayage.
const TestedConfigurations ladder_tests{"AuDelaDeBoehm"};

namespace {

using Kernel = BeyondBoehmKernel;
// La page docs/gemm/11-au-dela-de-boehm.md donne ce nombre au calcul d'occupation (marqueur
// « dynamique= ») : 3 tranches de (64 + 128) × 32 flottants.
static_assert(Kernel::Geometry::shared_bytes == 73728, "mettre à jour la page de l'étape 11");

/**
 * @brief Exécute le noyau sur @p problem rangé avec les dimensions principales @p ld (marges
 *        remplies de @p padding), à partir de @p offset flottants du début de chaque tampon ;
 *        renvoie C compacté, après avoir vérifié que les marges de C sont intactes.
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
    DeviceBuffer<float> a{std::span<const float>(spread(problem.a, m, k, ld.lda))};
    DeviceBuffer<float> b{std::span<const float>(spread(problem.b, k, n, ld.ldb))};
    DeviceBuffer<float> c{std::span<const float>(spread(problem.c, m, n, ld.ldc))};
    Kernel::launch({problem.shape, problem.alpha, a.data() + offset, b.data() + offset, problem.beta,
                    c.data() + offset},
                   ld, nullptr);
    NOYAUX_CHECK_LAUNCH();
    const std::vector<float> wide = c.download();
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

TEST(AuDelaDeBoehm, AnyShapeIsComputed) {
    // Aucune dimension multiple de la tuile 64×128×32, jusqu'à la plus petite.
    for (const Shape shape : {Shape{1, 1, 1}, Shape{37, 129, 65}, Shape{1000, 1000, 1000},
                              Shape{65, 3, 97}, Shape{2, 130, 4}})
        expect_correct_or_rejected<Kernel>(shape, 1.0f, 0.5f, Values::small_integers);
}

TEST(AuDelaDeBoehm, LeadingDimensionsLargerThanTheShape) {
    // lda > K, ldb > N, ldc > N ; impairs (copies de 4 octets), puis multiples de 4 (16 octets).
    const HostProblem odd = make_problem({37, 45, 29}, 1.0f, 0.5f, Values::small_integers);
    expect_exact(odd, run_strided(odd, {29 + 3, 45 + 5, 45 + 1}));
    const HostProblem aligned = make_problem({70, 132, 68}, 1.0f, -1.0f, Values::small_integers);
    ASSERT_TRUE(Kernel::vectorizable({aligned.shape, 1.0f, nullptr, nullptr, 0.0f, nullptr},
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
        const std::vector<float> result = run_on_device<Kernel>(problem);
        std::fill(problem.c.begin(), problem.c.end(), 0.0f);  // ce que la référence doit ignorer
        expect_exact(problem, result);
    }
}

TEST(AuDelaDeBoehm, InvalidLeadingDimensionsAndOverflowAreRejected) {
    alignas(16) static float storage[16];
    const GemmArgs args{{4, 4, 4}, 1.0f, storage, storage, 0.0f, storage};
    EXPECT_THROW(Kernel::launch(args, {3, 4, 4}, nullptr), std::invalid_argument);   // lda < K
    EXPECT_THROW(Kernel::launch(args, {4, 3, 4}, nullptr), std::invalid_argument);   // ldb < N
    EXPECT_THROW(Kernel::launch(args, {4, 4, -4}, nullptr), std::invalid_argument);  // ldc < N
    GemmArgs null_a = args;
    null_a.a = nullptr;
    EXPECT_THROW(Kernel::launch(null_a, nullptr), std::invalid_argument);
    // 2³¹ − 1 lignes et colonnes : plus de tuiles que de blocs possibles dans une grille.
    const GemmArgs huge{{INT_MAX, INT_MAX, 1}, 1.0f, storage, storage, 0.0f, storage};
    EXPECT_THROW(Kernel::launch(huge, {1, INT_MAX, INT_MAX}, nullptr), UnsupportedShapeError);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // rien n'a été lancé
}
// --8<-- [end:garanties]

TEST(AuDelaDeBoehmRasterisation, EveryTileOnceAndGroupsOfRowsFirst) {
    for (const auto& [tiles_m, tiles_n] : {std::pair{1, 1}, std::pair{64, 32}, std::pair{13, 5},
                                          std::pair{8, 1}, std::pair{3, 40}}) {
        std::set<std::pair<int, int>> seen;
        for (int block = 0; block < tiles_m * tiles_n; ++block) {
            const schedule::Tile tile = block_tile(block, tiles_m, tiles_n);
            ASSERT_TRUE(tile.m >= 0 && tile.m < tiles_m && tile.n >= 0 && tile.n < tiles_n) << block;
            seen.insert({tile.m, tile.n});
            if (block < kRasterGroup * tiles_n) {  // le premier groupe : les 8 premières lignes
                EXPECT_LT(tile.m, kRasterGroup);
            }
        }
        EXPECT_EQ(seen.size(), std::size_t(tiles_m) * tiles_n) << tiles_m << "×" << tiles_n;
    }
    // Dans un groupe, les blocs consécutifs descendent une colonne : 8 blocs, une colonne de B.
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

}  // namespace

template <typename G>
void expect_conflict_free_layouts() {
    for (int warp = 0; warp < G::threads / 32; ++warp) {
        for (int chunk = 0; chunk < G::chunks_k; ++chunk)
            for (int i = 0; i < 8; ++i) {
                // Lecture d'un fragment de A : la ligne i du thread, le morceau chunk.
                const auto a_read = warp_access128(warp, [&](int tid) {
                    const int row = (i / 4) * (G::block_m / 2) + G::thread_y(tid) * 4 + i % 4;
                    return G::a_index(row, chunk);
                });
                EXPECT_EQ(conflict_degree(a_read), 1) << "lecture de A, warp " << warp;
                EXPECT_EQ(warp_wide_degree(a_read), 1) << "lecture de A (warp entier), warp " << warp;
            }
        for (int kk = 0; kk < G::block_k; ++kk)
            for (int h = 0; h < 2; ++h) {
                const auto b_read = warp_access128(warp, [&](int tid) {
                    return G::b_index(kk, h * (G::block_n / 2) + G::thread_x(tid) * 4);
                });
                EXPECT_EQ(conflict_degree(b_read), 1) << "lecture de B, warp " << warp;
                EXPECT_EQ(warp_wide_degree(b_read), 1) << "lecture de B (warp entier), warp " << warp;
            }
        // Écritures des copies asynchrones de 16 octets : un morceau par lane et par passe.
        for (int pass = 0; pass < G::block_m * G::chunks_k / G::threads; ++pass) {
            const auto a_store = warp_access128(warp, [&](int tid) {
                const int q = tid + pass * G::threads;
                return G::a_index(q / G::chunks_k, q % G::chunks_k);
            });
            EXPECT_EQ(conflict_degree(a_store), 1) << "écriture de A, warp " << warp;
        }
        for (int pass = 0; pass < G::block_k * (G::block_n / 4) / G::threads; ++pass) {
            const auto b_store = warp_access128(warp, [&](int tid) {
                const int q = tid + pass * G::threads;
                return G::b_index(q / (G::block_n / 4), 4 * (q % (G::block_n / 4)));
            });
            EXPECT_EQ(conflict_degree(b_store), 1) << "écriture de B, warp " << warp;
        }
    }
}

/** @brief La géométrie d'une configuration, tirée de ses paramètres sans instancier ses noyaux. */
template <typename Kernel>
struct GeometryOf;
template <int BM, int BN, int BK, int STAGES, int BLOCKS>
struct GeometryOf<BeyondBoehm<BM, BN, BK, STAGES, BLOCKS>> {
    using type = BeyondBoehmGeometry<BM, BN, BK, STAGES, BLOCKS>;
};

// Par spécialisation plutôt que par un argument de fonction : la recherche dépendante des
// arguments instancierait chaque BeyondBoehm<…>, donc ses noyaux, pour chaque architecture.
template <typename List>
struct EveryLayout;
template <typename... Kernels>
struct EveryLayout<BeyondBoehmList<Kernels...>> {
    static void expect_conflict_free() {
        (expect_conflict_free_layouts<typename GeometryOf<Kernels>::type>(), ...);
    }
};

TEST(AuDelaDeBoehmBancs, EverySweptLayoutIsConflictFree) {
    EveryLayout<BeyondBoehmConfigurations>::expect_conflict_free();
}

TEST(AuDelaDeBoehmBancs, WithoutThePermutationTheFourRowsOfAWarpShareABankGroup) {
    // Sans le OU exclusif, les lignes ty·4 + i des 4 ty d'un warp sont à 4·BK flottants l'une
    // de l'autre : même groupe de bancs, 4 float4 distincts servis l'un après l'autre.
    using G = BeyondBoehmKernel::Geometry;
    const auto plain = warp_access128(0, [](int tid) { return G::thread_y(tid) * 4 * G::block_k; });
    EXPECT_EQ(warp_wide_degree(plain), 4);
    const auto swizzled = warp_access128(0, [](int tid) { return G::a_index(G::thread_y(tid) * 4, 0); });
    EXPECT_EQ(warp_wide_degree(swizzled), 1);
}
// --8<-- [end:analyse]

}  // namespace noyaux::gemm
