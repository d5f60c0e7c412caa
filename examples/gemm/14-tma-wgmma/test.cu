/**
 * @file
 * @brief Tests de l'étape 14 : la suite commune de l'échelle (examples/gemm/common/ladder_tests.cpp),
 *        en bf16, contre la référence CPU et, sur GPU, contre cuBLAS (cublasGemmEx, bf16 → fp32) ;
 *        sur l'émulateur simt, qui exécute la TMA, les mbarrier et wgmma. Sur un GPU antérieur à
 *        Hopper, ces tests sont ignorés (GTEST_SKIP), avec la raison. S'y ajoute la mémoire des
 *        tensor maps du lanceur, seul test propre d'une étape écrit en GoogleTest sous nvcc : il
 *        encode des tensor maps par le pilote, ce qui ne peut se faire qu'une fois le programme
 *        lancé, et pas à l'initialisation statique où les autres étapes calculent leurs faits.
 */
#include "tma-wgmma.cuh"

#include "gemm/common/ladder_registration.cuh"

#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <tuple>

namespace noyaux::gemm {
// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, appliquée à TmaWgmmaKernel.
const LadderTests<TmaWgmmaKernel> ladder_tests{"TmaWgmma"};
// La page de l'étape donne l'occupation pour cette mémoire partagée dynamique.
static_assert(TmaWgmmaKernel::shared_bytes == 99328, "mettre à jour la page de l'étape 14 (occupation)");
// --8<-- [end:garanties]

namespace {

bool same_bytes(const CUtensorMap& x, const CUtensorMap& y) { return std::memcmp(&x, &y, sizeof x) == 0; }

// Le lanceur garde les tensor maps encodées (le benchmark relance sur les mêmes matrices) :
// la copie gardée doit être celle qu'encoderait le pilote, et changer avec l'adresse.
TEST(TmaWgmmaHost, RememberedTensorMapsAreTheEncodedOnes) {
    const Shape shape{256, 128, 128};
    DeviceBuffer<bf16> a(std::size_t(shape.m) * shape.k + 8), b(std::size_t(shape.k) * shape.n);
    DeviceBuffer<float> c(std::size_t(shape.m) * shape.n);
    const GemmArgsOf<bf16> args{shape, 1.0f, a.data(), b.data(), 0.0f, c.data()};
    const auto first = TmaWgmmaKernel::kernel_arguments(args);
    const auto again = TmaWgmmaKernel::kernel_arguments(args);
    const auto address = [](const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); };
    const CUtensorMap direct = tma::encode(tma::operand_map(256, 128, 128, 2, 128, 64, tma::Swizzle::bytes128,
                                                            address(a.data())));
    EXPECT_TRUE(same_bytes(std::get<0>(first), direct));
    EXPECT_TRUE(same_bytes(std::get<0>(again), direct));
    EXPECT_TRUE(same_bytes(std::get<1>(first), std::get<1>(again)));
    GemmArgsOf<bf16> shifted = args;
    shifted.a = a.data() + 8;  // 16 octets plus loin : une autre matrice pour la TMA
    EXPECT_FALSE(same_bytes(std::get<0>(TmaWgmmaKernel::kernel_arguments(shifted)), direct));
}

}  // namespace
}  // namespace noyaux::gemm
