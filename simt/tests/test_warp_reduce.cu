// Réductions de warp de la capacité 8.0 (__reduce_add_sync, __reduce_min_sync,
// __reduce_max_sync pour unsigned et int ; __reduce_and_sync, __reduce_or_sync,
// __reduce_xor_sync pour unsigned) : chaque lane du masque reçoit la réduction des lanes non
// terminées du masque (PTX ISA, redux.sync), avec les règles de masque des shuffles.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "quiet_fixture.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

using testing::AllOf;
using testing::HasSubstr;

namespace warp_reduce_test {

constexpr int kResults = 9;  // une colonne par intrinsèque et par type

// out[t * kResults + k] : les neuf réductions, sur le masque donné, de in[t].
__global__ void all_reductions(const int* in, unsigned mask, int* out) {
    const int t = threadIdx.x;
    if (!(mask >> (t % warpSize) & 1u)) return;  // les lanes hors du masque n'y participent pas
    const int value = in[t];
    const unsigned bits = static_cast<unsigned>(value);
    int* row = out + t * kResults;
    row[0] = __reduce_add_sync(mask, value);
    row[1] = static_cast<int>(__reduce_add_sync(mask, bits));
    row[2] = __reduce_min_sync(mask, value);
    row[3] = static_cast<int>(__reduce_min_sync(mask, bits));
    row[4] = __reduce_max_sync(mask, value);
    row[5] = static_cast<int>(__reduce_max_sync(mask, bits));
    row[6] = static_cast<int>(__reduce_and_sync(mask, bits));
    row[7] = static_cast<int>(__reduce_or_sync(mask, bits));
    row[8] = static_cast<int>(__reduce_xor_sync(mask, bits));
}

// La forme de l'échantillon « reduction » de NVIDIA : les 8 premières lanes réduisent avec le
// masque 0xff, les autres attendent à la barrière.
__global__ void first_eight_lanes(const int* in, int* out) {
    int value = in[threadIdx.x];
    if (threadIdx.x < 8) value = __reduce_add_sync(0xffu, value);
    __syncthreads();
    out[threadIdx.x] = value;
}

constexpr int kOutsideMaskLine = __LINE__ + 2;
__global__ void caller_outside_mask(int* out) {
    out[threadIdx.x] = __reduce_add_sync(0xffu, 1);  // appelé par les 32 lanes
}

constexpr int kAddLine = __LINE__ + 4;
constexpr int kMinLine = __LINE__ + 5;
__global__ void add_against_min(int* out) {
    if (threadIdx.x < 16)
        out[threadIdx.x] = __reduce_add_sync(0xffffffffu, 1);
    else
        out[threadIdx.x] = __reduce_min_sync(0xffffffffu, 1);
}

}  // namespace warp_reduce_test

namespace {

std::string line_of(int line) { return "test_warp_reduce.cu:" + std::to_string(line); }

/** @brief Les neuf réductions de référence des valeurs de @p values dont la lane est dans @p mask. */
std::vector<int> expected(const std::vector<int>& values, unsigned mask) {
    std::uint32_t add = 0, umin = UINT32_MAX, umax = 0, all = UINT32_MAX, any = 0, odd = 0;
    int smin = INT_MAX, smax = INT_MIN;
    for (std::size_t lane = 0; lane < values.size(); ++lane) {
        if (!(mask >> lane & 1u)) continue;
        const auto bits = static_cast<std::uint32_t>(values[lane]);
        add += bits;
        smin = std::min(smin, values[lane]);
        smax = std::max(smax, values[lane]);
        umin = std::min(umin, bits);
        umax = std::max(umax, bits);
        all &= bits;
        any |= bits;
        odd ^= bits;
    }
    const auto as_int = [](std::uint32_t bits) { return static_cast<int>(bits); };
    return {as_int(add), as_int(add), smin, as_int(umin), smax, as_int(umax), as_int(all), as_int(any), as_int(odd)};
}

/** @brief Lance all_reductions sur un bloc de @p values.size() threads ; rend la sortie. */
std::vector<int> run_all_reductions(const std::vector<int>& values, unsigned mask) {
    const int n = static_cast<int>(values.size());
    int *in = nullptr, *out = nullptr;
    EXPECT_EQ(cudaMalloc(&in, n * sizeof(int)), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&out, n * warp_reduce_test::kResults * sizeof(int)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(in, values.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_EQ(cudaMemset(out, 0, n * warp_reduce_test::kResults * sizeof(int)), cudaSuccess);
    warp_reduce_test::all_reductions<<<1, n>>>(in, mask, out);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int> result(n * warp_reduce_test::kResults);
    EXPECT_EQ(cudaMemcpy(result.data(), out, result.size() * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(in);
    cudaFree(out);
    return result;
}

/** @brief Des valeurs de signes mêlés : min et max diffèrent selon le type, la somme déborde. */
std::vector<int> mixed_values(int n) {
    std::vector<int> values(n);
    for (int i = 0; i < n; ++i) {
        std::uint32_t bits = static_cast<std::uint32_t>(i) * 0x01010101u + 7u;
        if (i % 3 == 0) bits = ~bits;     // négatif en int, grand en unsigned
        if (i == 5) bits += 0x7fffffffu;  // la somme dépasse 32 bits
        values[i] = static_cast<int>(bits);
    }
    return values;
}

}  // namespace

TEST(WarpReduce, FullWarpEveryOperationAndType) {
    const std::vector<int> values = mixed_values(32);
    const std::vector<int> result = run_all_reductions(values, 0xffffffffu);
    const std::vector<int> reference = expected(values, 0xffffffffu);
    ASSERT_NE(reference[2], reference[3]);  // la version int de min compare avec signe
    ASSERT_NE(reference[4], reference[5]);
    for (int t = 0; t < 32; ++t)
        for (int k = 0; k < warp_reduce_test::kResults; ++k)
            EXPECT_EQ(result[t * warp_reduce_test::kResults + k], reference[k]) << "lane " << t << ", réduction " << k;
}

TEST(WarpReduce, PartialMaskReducesOnlyItsLanes) {
    // Lanes paires de chaque moitié basse : masque 0x5555, appelé par ces seules lanes.
    const unsigned mask = 0x00005555u;
    const std::vector<int> values = mixed_values(32);
    const std::vector<int> result = run_all_reductions(values, mask);
    const std::vector<int> reference = expected(values, mask);
    for (int t = 0; t < 32; ++t)
        for (int k = 0; k < warp_reduce_test::kResults; ++k)
            EXPECT_EQ(result[t * warp_reduce_test::kResults + k], mask >> t & 1u ? reference[k] : 0)
                << "lane " << t << ", réduction " << k;
}

TEST(WarpReduce, IncompleteWarpReducesExistingLanes) {
    // Bloc de 40 threads : le second warp n'a que 8 lanes ; le masque plein ne les attend pas
    // (comme le GPU, qui n'attend que les threads non terminés du masque).
    const std::vector<int> values = mixed_values(40);
    const std::vector<int> result = run_all_reductions(values, 0xffffffffu);
    const std::vector<int> second(values.begin() + 32, values.end());
    const std::vector<int> reference = expected(second, 0xffffffffu);
    for (int t = 32; t < 40; ++t)
        for (int k = 0; k < warp_reduce_test::kResults; ++k)
            EXPECT_EQ(result[t * warp_reduce_test::kResults + k], reference[k]) << "lane " << t << ", réduction " << k;
}

TEST(WarpReduce, EightLanesBeforeABarrier) {
    std::vector<int> values(64);
    for (int i = 0; i < 64; ++i) values[i] = 3 * i + 1;
    int *in = nullptr, *out = nullptr;
    ASSERT_EQ(cudaMalloc(&in, 64 * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&out, 64 * sizeof(int)), cudaSuccess);
    cudaMemcpy(in, values.data(), 64 * sizeof(int), cudaMemcpyHostToDevice);
    warp_reduce_test::first_eight_lanes<<<1, 64>>>(in, out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int> result(64);
    cudaMemcpy(result.data(), out, 64 * sizeof(int), cudaMemcpyDeviceToHost);
    const int sum = 1 + 4 + 7 + 10 + 13 + 16 + 19 + 22;
    for (int t = 0; t < 64; ++t) EXPECT_EQ(result[t], t < 8 ? sum : values[t]) << t;
    cudaFree(in);
    cudaFree(out);
}

using WarpReduceMisuse = QuietDiagnostics;

TEST_F(WarpReduceMisuse, CallerOutsideTheMask) {
    int* out = nullptr;
    ASSERT_EQ(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
    warp_reduce_test::caller_outside_mask<<<1, 32>>>(out);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau warp_reduce_test::caller_outside_mask, bloc (0, 0, 0), thread ("),
                      HasSubstr("__reduce_add_sync (" + line_of(warp_reduce_test::kOutsideMaskLine) + ")"),
                      HasSubstr("le masque 0x000000ff ne contient pas la lane appelante")));
    cudaDeviceReset();
    cudaFree(out);
}

TEST_F(WarpReduceMisuse, DifferentReductionsOfOneMask) {
    int* out = nullptr;
    ASSERT_EQ(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
    warp_reduce_test::add_against_min<<<1, 32>>>(out);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau warp_reduce_test::add_against_min, bloc (0, 0, 0), thread ("),
                      HasSubstr("opérations de warp discordantes"),
                      HasSubstr("__reduce_add_sync masque 0xffffffff (" + line_of(warp_reduce_test::kAddLine) + ")"),
                      HasSubstr("__reduce_min_sync masque 0xffffffff (" + line_of(warp_reduce_test::kMinLine) + ")")));
    cudaDeviceReset();
    cudaFree(out);
}
