/**
 * @file
 * @brief Tests hôtes de common/umma_descriptors.hpp (compilateur de l'hôte, sans GPU) :
 *        champs du descripteur d'instruction, formes refusées, version du descripteur de
 *        mémoire partagée, disposition « MN-major », colonnes et adresses de mémoire tensorielle.
 */
#include "common/umma_descriptors.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <stdexcept>

namespace {

namespace tc = noyaux::tensor_core;
namespace umma = noyaux::umma;

}  // namespace

TEST(UmmaDescriptors, InstructionDescriptorFields) {
    const std::uint32_t idesc = umma::make_instruction_descriptor(128, 16);
    EXPECT_EQ((idesc >> 4) & 0x3, 1u);    // D en f32
    EXPECT_EQ((idesc >> 7) & 0x7, 1u);    // A en bf16
    EXPECT_EQ((idesc >> 10) & 0x7, 1u);   // B en bf16
    EXPECT_EQ((idesc >> 13) & 0x3, 0u);   // sans négation
    EXPECT_EQ((idesc >> 15) & 0x3, 0u);   // ni A ni B transposées
    EXPECT_EQ((idesc >> 17) & 0x3F, 2u);  // N / 8
    EXPECT_EQ((idesc >> 23) & 0x1, 0u);   // bit réservé
    EXPECT_EQ((idesc >> 24) & 0x1F, 8u);  // M / 16
    EXPECT_EQ(idesc & 0xF, 0u);           // dense, sans saturation
}

TEST(UmmaDescriptors, MajorBitsSelectTheOperand) {
    const std::uint32_t k_major = umma::make_instruction_descriptor(128, 128);
    EXPECT_EQ(umma::make_instruction_descriptor(128, 128, umma::Major::k, umma::Major::mn) ^ k_major, 1u << 16);
    EXPECT_EQ(umma::make_instruction_descriptor(128, 128, umma::Major::mn, umma::Major::k) ^ k_major, 1u << 15);
    EXPECT_EQ((k_major >> 17) & 0x3F, 16u);  // N = 128
}

TEST(UmmaDescriptors, RejectsShapesOfAnotherInstruction) {
    EXPECT_NO_THROW(umma::make_instruction_descriptor(64, 8));
    EXPECT_NO_THROW(umma::make_instruction_descriptor(128, 256));
    EXPECT_THROW(umma::make_instruction_descriptor(128, 8), std::invalid_argument);   // N multiple de 16
    EXPECT_THROW(umma::make_instruction_descriptor(256, 16), std::invalid_argument);  // deux CTA
    EXPECT_THROW(umma::make_instruction_descriptor(64, 264), std::invalid_argument);
    EXPECT_THROW(umma::make_instruction_descriptor(64, 0), std::invalid_argument);
}

TEST(UmmaDescriptors, BlackwellDescriptorAddsTheVersion) {
    const std::uint64_t hopper = tc::make_smem_descriptor(0x800, tc::kLeadingByteOffset, tc::kStrideByteOffset);
    const std::uint64_t blackwell = umma::encode_smem_descriptor(0x800, tc::kLeadingByteOffset, tc::kStrideByteOffset);
    EXPECT_EQ(blackwell ^ hopper, std::uint64_t{1} << 46);
    EXPECT_EQ(blackwell >> 61, 0u);  // pas de permutation
    EXPECT_EQ((blackwell >> 16) & 0x3FFF, tc::kLeadingByteOffset / 16);
    EXPECT_EQ((blackwell >> 32) & 0x3FFF, tc::kStrideByteOffset / 16);
}

TEST(UmmaDescriptors, MnMajorCoreMatricesAreEightRowsOfK) {
    constexpr std::uint32_t lbo = 2048, sbo = 128;
    // Huit éléments consécutifs le long de N forment une ligne de 16 octets…
    for (unsigned n = 0; n < 8; ++n) EXPECT_EQ(umma::mn_major_offset(n, 0, lbo, sbo), 2 * n);
    // …les huit lignes suivantes sont les huit valeurs de K, à 16 octets l'une de l'autre…
    for (unsigned k = 0; k < 8; ++k) EXPECT_EQ(umma::mn_major_offset(0, k, lbo, sbo), 16 * k);
    // …puis SBO mène à la matrice élémentaire voisine le long de N, LBO à la voisine le long de K.
    EXPECT_EQ(umma::mn_major_offset(8, 0, lbo, sbo), sbo);
    EXPECT_EQ(umma::mn_major_offset(0, 8, lbo, sbo), lbo);
}

TEST(UmmaDescriptors, MnMajorTileIsABijection) {
    // Une tuile de 16 (K) × 128 (N) : chaque élément a sa place, et la tuile est dense.
    constexpr std::uint32_t lbo = 16 * 128, sbo = 128;
    std::set<std::uint32_t> offsets;
    for (unsigned k = 0; k < 16; ++k)
        for (unsigned n = 0; n < 128; ++n) offsets.insert(umma::mn_major_offset(n, k, lbo, sbo));
    EXPECT_EQ(offsets.size(), 16u * 128u);
    EXPECT_EQ(*offsets.rbegin(), 2u * 16u * 128u - 2u);
}

TEST(UmmaDescriptors, AllocationIsAPowerOfTwoColumns) {
    EXPECT_NO_THROW(umma::validate_tmem_columns(32));
    EXPECT_NO_THROW(umma::validate_tmem_columns(512));
    EXPECT_THROW(umma::validate_tmem_columns(16), std::invalid_argument);
    EXPECT_THROW(umma::validate_tmem_columns(96), std::invalid_argument);
    EXPECT_THROW(umma::validate_tmem_columns(1024), std::invalid_argument);
}

TEST(UmmaDescriptors, TensorMemoryAddressPutsTheLaneHigh) {
    EXPECT_EQ(umma::tmem_address(0x40, 0, 0), 0x40u);
    EXPECT_EQ(umma::tmem_address(0x40, 96, 16), (96u << 16) + 0x40u + 16u);
}
