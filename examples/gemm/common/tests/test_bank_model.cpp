/**
 * @file
 * @brief Tests du modèle de bancs de l'étape 7 (common/bank_model.hpp), que les étapes 7 à 11
 *        appliquent à leurs dispositions : des accès dont le degré de conflit et les passes sont
 *        connus. Compilé une fois par le compilateur de l'hôte, sans GPU.
 */
#include "gemm/common/bank_model.hpp"

#include <gtest/gtest.h>

namespace noyaux::gemm::bank_model {
namespace {

/** @brief Accès d'un warp dont la lane l touche le mot first + stride·l. */
WarpAccess strided(int first, int stride, int width) {
    WarpAccess access;
    access.width = width;
    for (int lane = 0; lane < warp_size; ++lane) access.word[lane] = first + stride * lane;
    return access;
}

TEST(BankModel, KnownPatterns) {
    EXPECT_EQ(conflict_degree(strided(0, 1, 1)), 1);    // 32 mots consécutifs
    EXPECT_EQ(conflict_degree(strided(0, 2, 1)), 2);    // pas de 2 : 16 bancs servis deux fois
    EXPECT_EQ(conflict_degree(strided(0, 32, 1)), 32);  // une colonne : tout sur le banc 0
    EXPECT_EQ(conflict_degree(strided(5, 0, 1)), 1);    // un seul mot, diffusé
    EXPECT_EQ(conflict_degree(strided(0, 4, 4)), 1);    // float4 consécutifs : 4 phases sans conflit
    EXPECT_EQ(conflict_degree(strided(0, 8, 4)), 2);    // float4 un sur deux : 256 octets par phase
    EXPECT_EQ(conflict_degree(strided(0, 0, 4)), 1);    // un seul float4, diffusé
    EXPECT_EQ(passes(strided(0, 1, 1)), 1);
    EXPECT_EQ(passes(strided(0, 4, 4)), 4);  // 512 octets : quatre passes, sans conflit
    EXPECT_EQ(passes(strided(0, 8, 4)), 8);
}

}  // namespace
}  // namespace noyaux::gemm::bank_model
