/**
 * @file
 * @brief Tests de la coalescence : secteurs par requête selon le pas, l'alignement et la taille
 *        des éléments ; le noyau lit bien un élément sur @c stride.
 */
#include "coalescence.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

namespace co = noyaux::glossaire::coalescing;

}  // namespace

TEST(CoalescingSectors, UnitStrideTouchesFourSectors) {
    // 32 flottants consécutifs alignés = 128 octets = 4 secteurs, tous utiles.
    EXPECT_EQ(co::sectors_per_request(0, 1, 4), 4u);
    EXPECT_DOUBLE_EQ(co::useful_fraction(0, 1, 4), 1.0);
}

TEST(CoalescingSectors, SectorsGrowWithTheStrideUpToOnePerLane) {
    EXPECT_EQ(co::sectors_per_request(0, 2, 4), 8u);
    EXPECT_EQ(co::sectors_per_request(0, 4, 4), 16u);
    EXPECT_EQ(co::sectors_per_request(0, 8, 4), 32u);
    EXPECT_EQ(co::sectors_per_request(0, 32, 4), 32u);
    // À partir du pas 8, chaque secteur de 32 octets n'apporte que 4 octets utiles : 7 sur 8 perdus.
    EXPECT_DOUBLE_EQ(co::useful_fraction(0, 32, 4), 0.125);
}

TEST(CoalescingSectors, MisalignmentCostsOneMoreSector) {
    EXPECT_EQ(co::sectors_per_request(4, 1, 4), 5u);
    EXPECT_EQ(co::sectors_per_request(8, 1, 8), 9u);  // doubles : 256 octets décalés de 8
}

TEST(CoalescingKernel, GathersEveryStrideElement) {
    for (unsigned stride : {1u, 2u, 7u, 32u}) {
        for (std::size_t n : {1, 255, 1000, 70000}) {
            std::vector<float> in((n - 1) * stride + 1);
            for (std::size_t j = 0; j < in.size(); ++j) in[j] = static_cast<float>(j % 4099) - 2000.0f;
            noyaux::DeviceBuffer<float> in_device{std::span<const float>(in)};
            noyaux::DeviceBuffer<float> out(n + 1);
            NOYAUX_CUDA_CHECK(cudaMemset(out.data(), 0xff, out.bytes()));  // sentinelle après n
            co::launch_gather_strided(in_device.data(), out.data(), n, stride);
            NOYAUX_CHECK_LAUNCH();
            const std::vector<float> result = out.download();
            for (std::size_t i = 0; i < n; ++i)
                ASSERT_EQ(result[i], in[i * stride]) << "pas " << stride << ", n " << n << ", i " << i;
            EXPECT_TRUE(std::isnan(result[n])) << "écriture hors limites, pas " << stride;
        }
    }
}

TEST(CoalescingKernel, RejectsZeroStride) {
    noyaux::DeviceBuffer<float> buffer(4);
    EXPECT_THROW(co::launch_gather_strided(buffer.data(), buffer.data(), 4, 0), std::invalid_argument);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
