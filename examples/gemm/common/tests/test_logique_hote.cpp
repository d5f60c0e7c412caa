/**
 * @file
 * @brief Tests de la logique hôte des étapes Tensor Cores (issue 14), sans GPU : ordres des
 *        tuiles, paramètres des tensor maps, conversion bf16 et borne d'erreur bf16 de la
 *        référence, descripteurs de wgmma sur les tuiles que dépose la TMA. La partition
 *        Stream-K a les siens : test_stream_k.cpp.
 */
#include "gemm/common/element.hpp"
#include "gemm/common/gemm_reference.hpp"
#include "gemm/common/tensor_map.hpp"
#include "gemm/common/tile_scheduler.hpp"
#include "gemm/common/wgmma_descriptor.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace noyaux::gemm {
namespace {

using schedule::Order;
using schedule::Tile;

// --- Ordres des tuiles --------------------------------------------------------------------

const std::pair<int, int> kGrids[] = {{1, 1}, {1, 7}, {7, 1}, {8, 8}, {13, 5}, {32, 32}, {33, 17}, {3, 40}};

TEST(TileOrders, EveryTileIsVisitedExactlyOnce) {
    for (const Order order : {Order::row_major, Order::grouped, Order::hilbert})
        for (const auto& [tiles_m, tiles_n] : kGrids) {
            const std::vector<Tile> tiles = schedule::tile_order(order, tiles_m, tiles_n, 8);
            ASSERT_EQ(tiles.size(), std::size_t(tiles_m) * std::size_t(tiles_n));
            std::set<std::pair<int, int>> seen;
            for (const Tile tile : tiles) {
                ASSERT_TRUE(tile.m >= 0 && tile.m < tiles_m && tile.n >= 0 && tile.n < tiles_n)
                    << "ordre " << int(order) << ", grille " << tiles_m << "×" << tiles_n;
                seen.insert({tile.m, tile.n});
            }
            EXPECT_EQ(seen.size(), tiles.size()) << "ordre " << int(order) << ", grille " << tiles_m << "×" << tiles_n;
        }
}

TEST(TileOrders, GroupedOrderDescendsAColumnOfItsBand) {
    // Bandes de 8 lignes : les 8 premières tuiles forment la colonne 0 de la première bande.
    for (int i = 0; i < 8; ++i) EXPECT_EQ(schedule::grouped_tile(i, 32, 32, 8), (Tile{i, 0}));
    EXPECT_EQ(schedule::grouped_tile(8, 32, 32, 8), (Tile{0, 1}));
    EXPECT_EQ(schedule::grouped_tile(8 * 32, 32, 32, 8), (Tile{8, 0}));  // deuxième bande
    // 13 lignes : la dernière bande n'en a que 5, parcourues colonne par colonne.
    EXPECT_EQ(schedule::grouped_tile(8 * 5, 13, 5, 8), (Tile{8, 0}));
    EXPECT_EQ(schedule::grouped_tile(8 * 5 + 5, 13, 5, 8), (Tile{8, 1}));
    EXPECT_EQ(schedule::grouped_tile(13 * 5 - 1, 13, 5, 8), (Tile{12, 4}));
}

TEST(TileOrders, HilbertStepsAreNeighboursOnPowerOfTwoSquares) {
    for (const int side : {2, 4, 16, 64}) {
        const std::vector<Tile> tiles = schedule::hilbert_order(side, side);
        for (std::size_t i = 1; i < tiles.size(); ++i)
            ASSERT_EQ(std::abs(tiles[i].m - tiles[i - 1].m) + std::abs(tiles[i].n - tiles[i - 1].n), 1)
                << "côté " << side << ", pas " << i;
    }
    EXPECT_EQ(schedule::hilbert_point(0, 8), (Tile{0, 0}));
}

TEST(TileOrders, GroupedAndHilbertReadFewerPanelsPerWaveThanRowMajor) {
    // 4096² en tuiles 128×128 (32×32 tuiles), 132 SM : une vague en lignes touche 5 lignes de
    // tuiles de A mais les 32 colonnes de B ; groupé et Hilbert restent près d'un carré.
    const double rows = schedule::operand_panels_per_wave(schedule::tile_order(Order::row_major, 32, 32), 132);
    const double grouped = schedule::operand_panels_per_wave(schedule::tile_order(Order::grouped, 32, 32, 8), 132);
    const double hilbert = schedule::operand_panels_per_wave(schedule::tile_order(Order::hilbert, 32, 32), 132);
    EXPECT_NEAR(rows, 36.0, 1.5);
    EXPECT_LT(grouped, 0.8 * rows);
    EXPECT_LT(hilbert, 0.8 * rows);
}

// Les curseurs des blocs d'un noyau persistant (TileCursor, le code même du noyau) : le bloc b
// prend les tuiles de rang b, b + blocs, b + 2·blocs… de l'ordre complet, et tous les blocs
// ensemble calculent chaque tuile exactement une fois, quel que soit le nombre de blocs.
template <Order order>
void expect_cursors_cover_the_order(int tiles_m, int tiles_n, int blocks) {
    const std::vector<Tile> expected = schedule::tile_order(order, tiles_m, tiles_n, 8);
    std::vector<int> computed(expected.size(), 0);
    for (int block = 0; block < blocks; ++block) {
        schedule::TileCursor<order> cursor(tiles_m, tiles_n, 8, block, blocks, expected.data());
        Tile tile;
        for (std::size_t rank = std::size_t(block); cursor.next(tile); rank += std::size_t(blocks)) {
            ASSERT_LT(rank, expected.size()) << "bloc " << block << " : une tuile de trop";
            ASSERT_EQ(tile, expected[rank]) << "ordre " << int(order) << ", grille " << tiles_m << "×" << tiles_n
                                            << ", bloc " << block << ", rang " << rank;
            ++computed[std::size_t(tile.m * tiles_n + tile.n)];
        }
    }
    for (std::size_t i = 0; i < computed.size(); ++i)
        ASSERT_EQ(computed[i], 1) << "ordre " << int(order) << ", grille " << tiles_m << "×" << tiles_n << ", "
                                  << blocks << " blocs : tuile (" << i / std::size_t(tiles_n) << ", "
                                  << i % std::size_t(tiles_n) << ") calculée " << computed[i] << " fois";
}

TEST(TileOrders, PersistentBlocksComputeEveryTileExactlyOnce) {
    for (const auto& [tiles_m, tiles_n] : kGrids)
        for (const int blocks : {1, 3, 8, 132, 2000}) {
            expect_cursors_cover_the_order<Order::row_major>(tiles_m, tiles_n, blocks);
            expect_cursors_cover_the_order<Order::grouped>(tiles_m, tiles_n, blocks);
            expect_cursors_cover_the_order<Order::hilbert>(tiles_m, tiles_n, blocks);
        }
}

TEST(TileOrders, EmptyGridsAreRejectedInFrench) {
    try {
        schedule::tile_order(Order::row_major, 0, 4);
        ADD_FAILURE() << "grille vide acceptée";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("au moins une tuile"), std::string::npos) << error.what();
    }
    EXPECT_THROW(schedule::tile_order(Order::grouped, 4, 4, 0), std::invalid_argument);
    EXPECT_THROW(schedule::operand_panels_per_wave({}, 0), std::invalid_argument);
}

// --- Tensor maps --------------------------------------------------------------------------

/** @brief A de 4096×4096 en bf16, tuiles 128×64 (128 octets par ligne, permutation de 128 octets). */
tma::OperandMap valid_map() { return tma::operand_map(4096, 4096, 4096, 2, 128, 64, tma::Swizzle::bytes128, 0x10000); }

/** @brief Le message de l'erreur que lève validate, ou vide si @p map passe. */
std::string rejection(const tma::OperandMap& map) {
    try {
        tma::validate(map);
    } catch (const tma::TensorMapError& error) {
        return error.what();
    }
    return "";
}

TEST(TensorMap, ValidOperandPasses) {
    EXPECT_EQ(rejection(valid_map()), "");
    tma::OperandMap odd_rows = valid_map();
    odd_rows.rows = 1000;  // M quelconque : la TMA remplit de zéros hors de la matrice
    EXPECT_EQ(rejection(odd_rows), "");
}

TEST(TensorMap, StrideNotMultipleOf16BytesIsRejected) {
    // K = 1001 en bf16 : 2002 octets par ligne.
    const tma::OperandMap map = tma::operand_map(4096, 1001, 1001, 2, 128, 64, tma::Swizzle::bytes128, 0x10000);
    const std::string message = rejection(map);
    EXPECT_NE(message.find("multiple de 16 octets"), std::string::npos) << message;
    EXPECT_NE(message.find("multiple de 8 éléments"), std::string::npos) << message;
}

TEST(TensorMap, UnsupportedShapesAreRejected) {
    tma::OperandMap wide = valid_map();
    wide.box_cols = 128;  // 256 octets par ligne de tuile : plus que la permutation de 128 octets
    EXPECT_NE(rejection(wide).find("forme non prise en charge"), std::string::npos) << rejection(wide);
    tma::OperandMap tall = valid_map();
    tall.box_rows = 512;
    EXPECT_NE(rejection(tall).find("entre 1 et 256"), std::string::npos) << rejection(tall);
    tma::OperandMap narrow = valid_map();
    narrow.box_cols = 4;  // 8 octets
    EXPECT_NE(rejection(narrow).find("ligne de tuile de 8 octets"), std::string::npos) << rejection(narrow);
    tma::OperandMap empty = valid_map();
    empty.rows = 0;
    EXPECT_NE(rejection(empty).find("entre 1 et 2^32"), std::string::npos) << rejection(empty);
    tma::OperandMap misaligned = valid_map();
    misaligned.address += 8;
    EXPECT_NE(rejection(misaligned).find("alignée sur 16 octets"), std::string::npos) << rejection(misaligned);
    tma::OperandMap element = valid_map();
    element.element_bytes = 3;
    EXPECT_NE(rejection(element).find("1, 2, 4 ou 8 octets"), std::string::npos) << rejection(element);
    tma::OperandMap short_stride = valid_map();
    short_stride.row_stride_bytes = 4096;  // moins que 4096 × 2 octets
    EXPECT_NE(rejection(short_stride).find("plus court"), std::string::npos) << rejection(short_stride);
}

// --- Descripteurs de wgmma ----------------------------------------------------------------

/**
 * @brief Ce que lit le matériel : l'adresse de l'élément (@p mn, @p k) d'un opérande décrit par
 *        @p descriptor, permutation de 128 octets (PTX ISA, « Shared Memory Matrix Layout ») ;
 *        un modèle écrit à partir des champs du descripteur, indépendant des fonctions testées.
 */
std::uint32_t read_address(std::uint64_t descriptor, bool mn_major, unsigned mn, unsigned k) {
    const auto field = [&](int shift) { return std::uint32_t((descriptor >> shift) & 0x3FFF) << 4; };
    const std::uint32_t start = field(0), lbo = field(16), sbo = field(32);
    const std::uint32_t address = mn_major ? start + mn / 64 * lbo + mn % 64 * 2 + k / 8 * sbo + k % 8 * 128
                                           : start + mn / 8 * sbo + mn % 8 * 128 + k * 2;
    return address ^ (((address >> 7) & 7) << 4);  // bloc de 16 octets ⊕ ligne mod 8
}

TEST(WgmmaDescriptor, FieldsOfThe128ByteSwizzle) {
    const std::uint64_t a = wgmma::k_major_128b(0x2400);
    EXPECT_EQ(a & 0x3FFF, 0x240u);               // adresse / 16
    EXPECT_EQ((a >> 32) & 0x3FFF, 1024u / 16);   // SBO : 8 lignes de 128 octets
    EXPECT_EQ(a >> 62, 1u);                      // type 1 : permutation de 128 octets
    EXPECT_EQ((a >> 49) & 7, 0u);                // décalage de base nul : atomes alignés
    const std::uint64_t b = wgmma::mn_major_128b(0x2400, 8192);
    EXPECT_EQ((b >> 16) & 0x3FFF, 8192u / 16);   // LBO : la boîte de 64 colonnes suivante
    EXPECT_EQ((b >> 32) & 0x3FFF, 1024u / 16);
    EXPECT_EQ(b >> 62, 1u);
}

TEST(WgmmaDescriptor, TmaBoxIsAPermutationOfItsRows) {
    std::set<std::uint32_t> offsets;
    for (unsigned row = 0; row < 64; ++row)
        for (unsigned col = 0; col < 64; ++col) {
            const std::uint32_t offset = wgmma::tma_box_offset_128b(row, col);
            EXPECT_EQ(offset / 128, row) << "la permutation reste dans la ligne";
            offsets.insert(offset);
        }
    EXPECT_EQ(offsets.size(), 64u * 64u);
    EXPECT_EQ(wgmma::tma_box_offset_128b(1, 0), 128u + 16u);  // ligne 1 : bloc 0 → bloc 1
}

// L'étape 14 : A (128 × 64, K contigu) en une boîte TMA ; chaque wgmma lit une moitié de 64
// lignes et un pas de 16 éléments de K, par un descripteur avancé de 32 octets par pas.
TEST(WgmmaDescriptor, KMajorStepsReadWhatTheTmaWrote) {
    constexpr std::uint32_t base = 0x3000;  // multiple de 1 024
    for (unsigned half = 0; half < 2; ++half)
        for (unsigned step = 0; step < 4; ++step) {
            const std::uint64_t d = wgmma::k_major_128b(base + half * 64 * 128 + wgmma::k_major_step_offset(step));
            for (unsigned mn = 0; mn < 64; ++mn)
                for (unsigned k = 0; k < 16; ++k)
                    ASSERT_EQ(read_address(d, false, mn, k),
                              base + wgmma::tma_box_offset_128b(half * 64 + mn, step * 16 + k))
                        << "moitié " << half << ", pas " << step << ", élément (" << mn << ", " << k << ")";
        }
}

// B (64 × 128, N contigu) en deux boîtes de 64 colonnes, 8 192 octets l'une après l'autre ;
// chaque wgmma lit 16 lignes de K (2 048 octets plus loin à chaque pas) sur les 128 colonnes.
TEST(WgmmaDescriptor, MnMajorStepsReadWhatTheTmaWrote) {
    constexpr std::uint32_t base = 0x8000, box_bytes = 64 * 128;
    for (unsigned step = 0; step < 4; ++step) {
        const std::uint64_t d = wgmma::mn_major_128b(base + wgmma::mn_major_step_offset(step), box_bytes);
        for (unsigned n = 0; n < 128; ++n)
            for (unsigned k = 0; k < 16; ++k)
                ASSERT_EQ(read_address(d, true, n, k),
                          base + n / 64 * box_bytes + wgmma::tma_box_offset_128b(step * 16 + k, n % 64))
                    << "pas " << step << ", élément (" << n << ", " << k << ")";
    }
}

// Sans l'alignement de 1 024 octets, le motif lu n'est plus celui qu'a écrit la TMA.
TEST(WgmmaDescriptor, MisalignedAtomReadsTheWrongElements) {
    constexpr std::uint32_t base = 0x3000 + 128;  // une ligne de décalage
    const std::uint64_t d = wgmma::k_major_128b(base);
    int wrong = 0;
    for (unsigned mn = 0; mn < 8; ++mn)
        for (unsigned k = 0; k < 16; ++k)
            wrong += read_address(d, false, mn, k) != base + wgmma::tma_box_offset_128b(mn, k);
    EXPECT_GT(wrong, 0);
}

// --- bf16 ---------------------------------------------------------------------------------

// L'épilogue des étapes 14 à 19 (common/fragment_epilogue.cuh) : la sortie 64 × 128 d'un wgmma
// m64n128k16 répartie sur les 64 accumulateurs des 128 threads du warpgroup.
TEST(WgmmaFragment, EveryElementOfA64x128OutputHasOneOwner) {
    std::set<std::pair<int, int>> seen;
    for (int thread = 0; thread < 128; ++thread)
        for (int reg = 0; reg < 64; ++reg) {
            const auto [row, col] = tensor_core::wgmma_accumulator_position(thread, reg);
            ASSERT_TRUE(row >= 0 && row < 64 && col >= 0 && col < 128) << thread << ", " << reg;
            EXPECT_TRUE(seen.insert({row, col}).second) << "(" << row << ", " << col << ") écrit deux fois";
        }
    EXPECT_EQ(seen.size(), 64u * 128u);
}

TEST(WgmmaFragment, EvenAndOddRegistersAreNeighbourColumnsOnEvenBoundaries) {
    for (int thread = 0; thread < 128; ++thread)
        for (int reg = 0; reg < 64; reg += 2) {
            const auto even = tensor_core::wgmma_accumulator_position(thread, reg);
            const auto odd = tensor_core::wgmma_accumulator_position(thread, reg + 1);
            EXPECT_EQ(odd.row, even.row);
            EXPECT_EQ(odd.col, even.col + 1);
            EXPECT_EQ(even.col % 2, 0) << "l'écriture de 8 octets exige une colonne paire";
        }
    // Le warp 2, lane 9 : lignes 32 + 2 et 32 + 2 + 8, colonnes 2 et 3 de chaque bande de 8.
    EXPECT_EQ(tensor_core::wgmma_accumulator_position(64 + 9, 0).row, 34);
    EXPECT_EQ(tensor_core::wgmma_accumulator_position(64 + 9, 2).row, 42);
    EXPECT_EQ(tensor_core::wgmma_accumulator_position(64 + 9, 5).col, 8 + 3);
}

TEST(Bf16, RoundsToNearestEvenAndKeepsNaN) {
    EXPECT_EQ(to_float(to_bf16(1.0f)), 1.0f);
    EXPECT_EQ(to_float(to_bf16(-2.0f)), -2.0f);
    // 1 + 2⁻⁸ est à mi-chemin entre 1 et 1 + 2⁻⁷ : arrondi vers le pair, 1.
    EXPECT_EQ(to_float(to_bf16(1.0f + 0x1p-8f)), 1.0f);
    // 1 + 3·2⁻⁸ est à mi-chemin entre 1 + 2⁻⁷ et 1 + 2·2⁻⁷ : vers le pair, 1 + 2·2⁻⁷.
    EXPECT_EQ(to_float(to_bf16(1.0f + 3 * 0x1p-8f)), 1.0f + 2 * 0x1p-7f);
    EXPECT_EQ(to_float(to_bf16(1.0f + 0x1p-8f + 0x1p-20f)), 1.0f + 0x1p-7f);  // au-delà du milieu
    EXPECT_TRUE(std::isnan(to_float(to_bf16(std::numeric_limits<float>::quiet_NaN()))));
    EXPECT_TRUE(std::isinf(to_float(to_bf16(std::numeric_limits<float>::infinity()))));
}

TEST(Bf16, ReferenceUsesTheRoundedInputsAndTheTruncationBound) {
    const HostProblemOf<bf16> problem = make_problem<bf16>({3, 5, 64}, 1.0f, 0.0f, Values::uniform);
    const HostProblemOf<float> drawn = make_problem<float>({3, 5, 64}, 1.0f, 0.0f, Values::uniform);
    for (std::size_t i = 0; i < problem.a.size(); ++i)  // même tirage, arrondi au bf16
        ASSERT_EQ(problem.a[i].bits, to_bf16(drawn.a[i]).bits);
    const Reference bf16_reference = reference_gemm(problem);
    HostProblemOf<float> widened{problem.shape, 1.0f, 0.0f, {}, {}, problem.c};
    for (const bf16 value : problem.a) widened.a.push_back(to_float(value));
    for (const bf16 value : problem.b) widened.b.push_back(to_float(value));
    const Reference float_reference = reference_gemm(widened);
    for (std::size_t i = 0; i < bf16_reference.c.size(); ++i) {
        EXPECT_EQ(bf16_reference.c[i], float_reference.c[i]);  // mêmes valeurs exactes
        EXPECT_FLOAT_EQ(bf16_reference.bound[i], 2.0f * float_reference.bound[i]);  // u = 2⁻²³ au lieu de 2⁻²⁴
    }
}

}  // namespace
}  // namespace noyaux::gemm
