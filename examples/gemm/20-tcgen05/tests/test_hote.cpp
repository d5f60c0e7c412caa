/**
 * @file
 * @brief Tests hôtes de l'étape 20 (compilateur de l'hôte, sans GPU) : les copies de 16 octets
 *        réalisent exactement la disposition que décrivent les descripteurs, chaque produit lit
 *        la bonne part de la tranche, et la forme de l'instruction est valide pour un CTA seul.
 *        Le noyau, lui, n'est jamais exécuté dans le projet.
 */
#include "gemm/20-tcgen05/disposition.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>

namespace {

using noyaux::gemm::Tcgen05Config;
using noyaux::gemm::Tcgen05Layout;
namespace tc = noyaux::tensor_core;
namespace umma = noyaux::umma;

/** @brief Le champ de 14 bits d'un descripteur de mémoire partagée, en octets. */
std::uint32_t field(std::uint64_t descriptor, int shift) {
    return std::uint32_t((descriptor >> shift) & 0x3FFF) << 4;
}

}  // namespace

TEST(Tcgen05Layout, ACopiesLandWhereTheKMajorLayoutPutsThem) {
    std::set<int> rows_and_k;
    for (int q = 0; q < Tcgen05Config::chunks; ++q) {
        const int row = Tcgen05Layout::a_row(q), k = Tcgen05Layout::a_k(q);
        EXPECT_EQ(tc::core_matrix_offset(row, k, Tcgen05Layout::a_lbo, Tcgen05Layout::a_sbo), 16u * q) << "copie " << q;
        rows_and_k.insert(row * Tcgen05Config::block_k + k);
    }
    EXPECT_EQ(rows_and_k.size(), std::size_t(Tcgen05Config::chunks));  // chaque morceau de A copié une fois
}

TEST(Tcgen05Layout, BCopiesLandWhereTheMnMajorLayoutPutsThem) {
    std::set<int> k_and_columns;
    for (int q = 0; q < Tcgen05Config::chunks; ++q) {
        const int k = Tcgen05Layout::b_k(q), column = Tcgen05Layout::b_n(q);
        EXPECT_EQ(umma::mn_major_offset(column, k, Tcgen05Layout::b_lbo, Tcgen05Layout::b_sbo), 16u * q)
            << "copie " << q;
        k_and_columns.insert(k * Tcgen05Config::block_n + column);
    }
    EXPECT_EQ(k_and_columns.size(), std::size_t(Tcgen05Config::chunks));
}

TEST(Tcgen05Layout, CopiesOfAWarpReadWholeSectors) {
    // Les 32 copies d'un warp lisent 4 morceaux consécutifs de 8 lignes : 64 octets d'un tenant.
    for (int q = 0; q < 32; ++q) {
        EXPECT_EQ(Tcgen05Layout::a_row(q), q % 8);
        EXPECT_EQ(Tcgen05Layout::a_k(q), q / 8 * 8);
        EXPECT_EQ(Tcgen05Layout::b_k(q), q % 8);
        EXPECT_EQ(Tcgen05Layout::b_n(q), q / 8 * 8);
    }
}

TEST(Tcgen05Layout, EachProductReadsItsSixteenValuesOfK) {
    constexpr std::uint32_t base = 0x400;
    for (int step = 0; step < Tcgen05Config::block_k / Tcgen05Config::mma_k; ++step) {
        const std::uint64_t a = Tcgen05Layout::a_descriptor(base, step), b = Tcgen05Layout::b_descriptor(base, step);
        // Le début de la part lue est l'élément (0, 16·step) de la tranche.
        EXPECT_EQ(field(a, 0), base + tc::core_matrix_offset(0, 16 * step, Tcgen05Layout::a_lbo, Tcgen05Layout::a_sbo));
        EXPECT_EQ(field(b, 0), base + umma::mn_major_offset(0, 16 * step, Tcgen05Layout::b_lbo, Tcgen05Layout::b_sbo));
        EXPECT_EQ(field(a, 16), Tcgen05Layout::a_lbo);
        EXPECT_EQ(field(a, 32), Tcgen05Layout::a_sbo);
        EXPECT_EQ(field(b, 16), Tcgen05Layout::b_lbo);
        EXPECT_EQ(field(b, 32), Tcgen05Layout::b_sbo);
        EXPECT_EQ((a >> 46) & 0x3, 1u);  // format de Blackwell
    }
}

TEST(Tcgen05Layout, InstructionIsOneCta128x128WithBTransposed) {
    EXPECT_EQ(Tcgen05Layout::instruction,
              umma::make_instruction_descriptor(Tcgen05Config::block_m, Tcgen05Config::block_n, umma::Major::k,
                                                umma::Major::mn));
    EXPECT_EQ((Tcgen05Layout::instruction >> 16) & 1, 1u);  // B « MN-major »
    EXPECT_EQ((Tcgen05Layout::instruction >> 15) & 1, 0u);  // A « K-major »
    EXPECT_GE(umma::kTmemMaxColumns, Tcgen05Config::tmem_columns);
    EXPECT_EQ(unsigned(Tcgen05Config::block_m), umma::kTmemLanes);  // une lane par ligne de la tuile
}

TEST(Tcgen05Layout, SharedMemoryFitsAnSm100) {
    // 227 Kio de mémoire partagée par CTA au plus sur sm_100 ; descripteurs : adresses < 2^18.
    EXPECT_LE(Tcgen05Config::shared_bytes, 227u * 1024u);
    EXPECT_LT(Tcgen05Config::shared_bytes, 1u << 18);
}
