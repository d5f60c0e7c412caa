/**
 * @file
 * @brief Tests de l'exemple 18. Partout (émulateur compris) : descripteur d'instruction (champs
 *        et formes refusées), descripteur de mémoire partagée de Blackwell, colonnes de mémoire
 *        tensorielle, référence. Le noyau lui-même n'est jamais exécuté : le binaire de tests
 *        de la partie n'a pas de code sm_100a, et le projet n'a pas de GPU Blackwell.
 */
#include "descripteurs.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

namespace tmem = noyaux::glossaire::tensor_memory;
namespace tc = noyaux::tensor_core;

}  // namespace

TEST(TensorMemoryHost, InstructionDescriptorFields) {
    const std::uint32_t idesc = tmem::make_instruction_descriptor(128, 16);
    EXPECT_EQ((idesc >> 4) & 0x3, 1u);    // D en f32
    EXPECT_EQ((idesc >> 7) & 0x7, 1u);    // A en bf16
    EXPECT_EQ((idesc >> 10) & 0x7, 1u);   // B en bf16
    EXPECT_EQ((idesc >> 15) & 0x3, 0u);   // ni A ni B transposées
    EXPECT_EQ((idesc >> 17) & 0x3F, 2u);  // N / 8
    EXPECT_EQ((idesc >> 24) & 0x1F, 8u);  // M / 16
    EXPECT_EQ(idesc & 0xF, 0u);           // dense, sans saturation
}

TEST(TensorMemoryHost, RejectsShapesOfAnotherInstruction) {
    EXPECT_NO_THROW(tmem::make_instruction_descriptor(64, 8));
    EXPECT_NO_THROW(tmem::make_instruction_descriptor(128, 256));
    EXPECT_THROW(tmem::make_instruction_descriptor(128, 8), std::invalid_argument);   // N multiple de 16
    EXPECT_THROW(tmem::make_instruction_descriptor(256, 16), std::invalid_argument);  // deux CTA
    EXPECT_THROW(tmem::make_instruction_descriptor(64, 264), std::invalid_argument);
}

TEST(TensorMemoryHost, BlackwellDescriptorAddsTheVersion) {
    const std::uint64_t hopper = tc::make_smem_descriptor(0x800, tc::kLeadingByteOffset, tc::kStrideByteOffset);
    const std::uint64_t blackwell =
        tmem::encode_smem_descriptor(0x800, tc::kLeadingByteOffset, tc::kStrideByteOffset);
    EXPECT_EQ(blackwell ^ hopper, std::uint64_t{1} << 46);
    EXPECT_EQ(blackwell >> 61, 0u);  // pas de permutation
}

TEST(TensorMemoryHost, AllocationIsAPowerOfTwoColumns) {
    EXPECT_NO_THROW(tmem::validate_tmem_columns(tmem::kTmemColumns));
    EXPECT_NO_THROW(tmem::validate_tmem_columns(512));
    EXPECT_THROW(tmem::validate_tmem_columns(16), std::invalid_argument);
    EXPECT_THROW(tmem::validate_tmem_columns(96), std::invalid_argument);
    EXPECT_THROW(tmem::validate_tmem_columns(1024), std::invalid_argument);
    EXPECT_GE(tmem::kTmemColumns, tmem::kN);  // D tient dans l'allocation
}

TEST(TensorMemoryHost, ReferenceMultipliesBf16Values) {
    std::vector<std::uint16_t> a(tmem::kM * tmem::kK, tc::to_bf16(0.0f)), bt(tmem::kN * tmem::kK, tc::to_bf16(0.0f));
    a[100 * tmem::kK + 9] = tc::to_bf16(-2.0f);   // A[100][9]
    bt[15 * tmem::kK + 9] = tc::to_bf16(4.0f);    // B[9][15]
    const std::vector<float> d = tmem::reference(a, bt);
    EXPECT_EQ(d[100 * tmem::kN + 15], -8.0f);
    EXPECT_EQ(d[100 * tmem::kN + 14], 0.0f);
    EXPECT_THROW(tmem::reference(a, {}), std::invalid_argument);
}
