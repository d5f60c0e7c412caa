/**
 * @file
 * @brief Tests de l'exemple 17. Partout (émulateur compris) : disposition en matrices
 *        élémentaires, descripteur de mémoire partagée, place des accumulateurs, bf16 et
 *        référence. Sur un GPU sm_90a et sur l'émulateur : le wgmma rend la référence, au bit
 *        près.
 */
#include "disposition.hpp"
#include "wgmma.cuh"

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <vector>

namespace {

namespace wg = noyaux::glossaire::warpgroup_mma;

}  // namespace

TEST(WgmmaHost, CoreMatricesTileTheOperandWithoutOverlap) {
    // A : 64 × 16 bf16 = 2 048 octets, chaque élément à une place distincte, tout est couvert.
    std::set<std::uint32_t> offsets;
    for (unsigned m = 0; m < wg::kM; ++m)
        for (unsigned k = 0; k < wg::kK; ++k)
            offsets.insert(wg::core_matrix_offset(m, k, wg::kLeadingByteOffset, wg::kStrideByteOffset));
    EXPECT_EQ(offsets.size(), wg::kM * wg::kK);
    EXPECT_EQ(*offsets.rbegin(), 2 * (wg::kM * wg::kK - 1));
    // Une ligne de matrice élémentaire : 8 éléments contigus ; la suivante, 16 octets plus loin.
    EXPECT_EQ(wg::core_matrix_offset(0, 7, 128, 256), 14u);
    EXPECT_EQ(wg::core_matrix_offset(1, 0, 128, 256), 16u);
    EXPECT_EQ(wg::core_matrix_offset(0, 8, 128, 256), 128u);  // LBO : matrice suivante le long de K
    EXPECT_EQ(wg::core_matrix_offset(8, 0, 128, 256), 256u);  // SBO : groupe de 8 lignes suivant
}

TEST(WgmmaHost, DescriptorFieldsAreInUnitsOf16Bytes) {
    const std::uint64_t desc = wg::make_smem_descriptor(0x400, 128, 256);
    EXPECT_EQ(desc & 0x3FFF, 0x40u);
    EXPECT_EQ((desc >> 16) & 0x3FFF, 8u);
    EXPECT_EQ((desc >> 32) & 0x3FFF, 16u);
    EXPECT_EQ(desc >> 62, 0u);  // pas de permutation
    EXPECT_THROW(wg::make_smem_descriptor(0x408, 128, 256), std::invalid_argument);
    EXPECT_THROW(wg::make_smem_descriptor(0x400, 128, 1u << 18), std::invalid_argument);
}

TEST(WgmmaHost, EachAccumulatorHasItsOwnPlace) {
    std::set<unsigned> places;
    for (unsigned t = 0; t < wg::kThreads; ++t)
        for (unsigned r = 0; r < 4; ++r) {
            const wg::AccumulatorPosition c = wg::wgmma_accumulator_position(int(t), int(r));
            ASSERT_GE(c.row, 0);
            ASSERT_GE(c.col, 0);
            ASSERT_LT(unsigned(c.row), wg::kM);
            ASSERT_LT(unsigned(c.col), wg::kN);
            places.insert(unsigned(c.row) * wg::kN + unsigned(c.col));
        }
    EXPECT_EQ(places.size(), wg::kM * wg::kN);
    EXPECT_EQ(wg::wgmma_accumulator_position(37, 3).row, 16 + 1 + 8);  // warp 1, lane 5
    EXPECT_EQ(wg::wgmma_accumulator_position(37, 3).col, 3);
}

TEST(WgmmaHost, ReferenceMultipliesBf16Values) {
    EXPECT_EQ(wg::from_bf16(wg::to_bf16(-3.0f)), -3.0f);
    std::vector<std::uint16_t> a(wg::kM * wg::kK, wg::to_bf16(0.0f)), bt(wg::kN * wg::kK, wg::to_bf16(0.0f));
    a[5 * wg::kK + 2] = wg::to_bf16(3.0f);   // A[5][2]
    bt[7 * wg::kK + 2] = wg::to_bf16(-2.0f);  // B[2][7]
    const std::vector<float> d = wg::reference(a, bt);
    EXPECT_EQ(d[5 * wg::kN + 7], -6.0f);
    EXPECT_EQ(d[5 * wg::kN + 6], 0.0f);
    EXPECT_THROW(wg::reference({}, bt), std::invalid_argument);
}

TEST(WgmmaDevice, OneWarpgroupMatchesTheReference) {
    if (noyaux::kernel_ptx_version(wg::wgmma_m64n8k16, "wgmma_m64n8k16") < 90)
        GTEST_SKIP() << "wgmma : sm_90a";
    std::vector<std::uint16_t> a(wg::kM * wg::kK), bt(wg::kN * wg::kK);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = wg::to_bf16(static_cast<float>(static_cast<int>(i * 7 % 9) - 4));
    for (std::size_t i = 0; i < bt.size(); ++i) bt[i] = wg::to_bf16(static_cast<float>(static_cast<int>(i * 5 % 7) - 3));
    noyaux::DeviceBuffer<std::uint16_t> d_a(a), d_bt(bt);
    noyaux::DeviceBuffer<float> d_d(wg::kM * wg::kN);
    wg::launch_wgmma(d_a.data(), d_bt.data(), d_d.data());
    NOYAUX_CHECK_LAUNCH();
    EXPECT_EQ(d_d.download(), wg::reference(a, bt));
}
