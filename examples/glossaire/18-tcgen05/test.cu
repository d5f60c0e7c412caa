/**
 * @file
 * @brief Tests de l'exemple 18. Partout (émulateur compris) : la forme du produit est celle
 *        d'une instruction d'un CTA seul, et la référence. Les descripteurs et les colonnes de
 *        mémoire tensorielle sont testés avec leur en-tête commun
 *        (examples/common/tests/test_umma_descriptors.cpp). Le noyau lui-même n'est jamais
 *        exécuté : le binaire de tests de la partie n'a pas de code sm_100a, et le projet n'a
 *        pas de GPU Blackwell.
 */
#include "descripteurs.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

namespace tmem = noyaux::glossaire::tensor_memory;
namespace tc = noyaux::tensor_core;
namespace umma = noyaux::umma;

}  // namespace

TEST(TensorMemoryHost, ShapeIsASingleCtaInstruction) {
    // make_instruction_descriptor lève une exception pour une forme qu'un CTA seul ne calcule pas.
    EXPECT_EQ(umma::make_instruction_descriptor(tmem::kM, tmem::kN), umma::encode_instruction_descriptor(tmem::kM, tmem::kN));
    EXPECT_EQ(tmem::kThreads, umma::kTmemLanes);  // un thread par lane, donc par ligne de D
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
