// PTX en ligne, Ampere : mma.sync.aligned (m16n8k16 bf16/f16, m16n8k8 tf32) et ldmatrix.
// Les fragments sont remplis et lus sur l'hôte selon les dispositions de ptx_layouts.hpp,
// écrites d'après le PTX ISA puis d'après CuTe : le résultat doit valoir la référence
// scalaire avec l'une comme avec l'autre, et les deux descriptions doivent coïncider.
#include "ptx_layouts.hpp"

#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

using namespace ptx_layouts;

namespace {

// ---- Enrobages, comme dans CUTLASS (arch/mma_sm80.h) ou ThunderKittens ----------------------

__device__ __forceinline__ void mma_bf16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                                         const float (&c)[4]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
          "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__device__ __forceinline__ void mma_f16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                                        const float (&c)[4]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
          "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__device__ __forceinline__ void mma_f16_f16(std::uint32_t (&d)[2], const std::uint32_t (&a)[4],
                                            const std::uint32_t (&b)[2], const std::uint32_t (&c)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};\n"
        : "=r"(d[0]), "=r"(d[1])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
}

__device__ __forceinline__ void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                                         const float (&c)[4]) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
          "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

enum class Kind { bf16, f16, f16_f16, tf32 };

// Chaque lane lit ses registres de fragment (préparés sur l'hôte), exécute l'instruction et
// range ses registres de résultat : 4 de A, 2 de B, 4 de C, puis 4 de D, par lane.
__global__ void run_mma(Kind kind, const std::uint32_t* fragments, std::uint32_t* results) {
    const unsigned lane = threadIdx.x;
    std::uint32_t a[4], b[2];
    float c[4], d[4];
    for (int i = 0; i < 4; ++i) a[i] = fragments[10 * lane + i];
    for (int i = 0; i < 2; ++i) b[i] = fragments[10 * lane + 4 + i];
    for (int i = 0; i < 4; ++i) std::memcpy(&c[i], &fragments[10 * lane + 6 + i], 4);
    if (kind == Kind::bf16) mma_bf16(d, a, b, c);
    if (kind == Kind::f16) mma_f16(d, a, b, c);
    if (kind == Kind::tf32) mma_tf32(d, a, b, c);
    if (kind == Kind::f16_f16) {
        std::uint32_t dh[2], ch[2] = {fragments[10 * lane + 6], fragments[10 * lane + 7]};
        mma_f16_f16(dh, a, b, ch);
        results[4 * lane] = dh[0];
        results[4 * lane + 1] = dh[1];
        return;
    }
    for (int i = 0; i < 4; ++i) std::memcpy(&results[4 * lane + i], &d[i], 4);
}

// Une lane sur deux seulement : mma.sync.aligned exige le warp entier.
__global__ void mma_by_half_a_warp(std::uint32_t* results) {
    if (threadIdx.x % 2) return;
    std::uint32_t a[4] = {}, b[2] = {};
    float c[4] = {}, d[4];
    mma_bf16(d, a, b, c);
    std::memcpy(results, d, sizeof d);
}

// ---- Sur l'hôte : éléments, fragments, référence ----------------------------------------------

std::uint16_t bf16_bits(float x) { return std::uint16_t(std::bit_cast<std::uint32_t>(x) >> 16); }  // exact ici
std::uint16_t f16_bits(float x) { return std::bit_cast<std::uint16_t>(static_cast<_Float16>(x)); }
float f16_value(std::uint16_t bits) { return static_cast<float>(std::bit_cast<_Float16>(bits)); }

/** Entiers petits, tous différents d'un élément à l'autre du motif : une case mal placée se voit. */
float small(int i, int j, int salt) { return float(((i * 7 + j * 3 + salt) % 17) - 8); }

using Map = std::function<Coord(int lane, int v)>;

struct Problem {
    int m = 16, n = 8, k;
    std::vector<float> a, b, c;  // ligne d'abord : a[m][k], b[k][n], c[m][n]
    std::vector<float> d;        // D attendu s'il est donné ; sinon la somme float de la référence
};

Problem make_problem(int k) {
    Problem p;
    p.k = k;
    p.a.resize(16 * k);
    p.b.resize(k * 8);
    p.c.resize(16 * 8);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < k; ++j) p.a[i * k + j] = small(i, j, 1);
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < 8; ++j) p.b[i * 8 + j] = small(i, j, 5);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) p.c[i * 8 + j] = small(i, j, 11) * 4;
    return p;
}

/**
 * Prépare les fragments de chaque lane selon les dispositions données, exécute le noyau,
 * relit D selon la disposition de C et le compare à la référence scalaire.
 */
void check_mma(Kind kind, const Map& a_map, const Map& b_map, const Map& c_map, const Problem* given = nullptr) {
    const bool tf32 = kind == Kind::tf32;
    const Problem p = given ? *given : make_problem(tf32 ? 8 : 16);
    auto encode = [&](float x) -> std::uint32_t {
        if (kind == Kind::bf16) return bf16_bits(x);
        if (kind == Kind::tf32) return std::bit_cast<std::uint32_t>(x);
        return f16_bits(x);
    };
    std::vector<std::uint32_t> fragments(32 * 10, 0);
    for (int lane = 0; lane < 32; ++lane) {
        std::uint32_t* f = &fragments[10 * lane];
        if (tf32) {
            for (int v = 0; v < 4; ++v) f[v] = encode(p.a[a_map(lane, v).row * p.k + a_map(lane, v).col]);
            for (int v = 0; v < 2; ++v) f[4 + v] = encode(p.b[b_map(lane, v).row * 8 + b_map(lane, v).col]);
        } else {
            for (int v = 0; v < 8; ++v)
                f[v / 2] |= encode(p.a[a_map(lane, v).row * p.k + a_map(lane, v).col]) << (16 * (v % 2));
            for (int v = 0; v < 4; ++v)
                f[4 + v / 2] |= encode(p.b[b_map(lane, v).row * 8 + b_map(lane, v).col]) << (16 * (v % 2));
        }
        for (int v = 0; v < 4; ++v) {
            const float cv = p.c[c_map(lane, v).row * 8 + c_map(lane, v).col];
            if (kind == Kind::f16_f16) f[6 + v / 2] |= std::uint32_t(f16_bits(cv)) << (16 * (v % 2));
            else f[6 + v] = std::bit_cast<std::uint32_t>(cv);
        }
    }
    std::uint32_t *in, *out;
    ASSERT_EQ(cudaMalloc(&in, fragments.size() * 4), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&out, 32 * 4 * 4), cudaSuccess);
    cudaMemcpy(in, fragments.data(), fragments.size() * 4, cudaMemcpyHostToDevice);
    run_mma<<<1, 32>>>(kind, in, out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<std::uint32_t> results(32 * 4);
    cudaMemcpy(results.data(), out, results.size() * 4, cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);

    int seen[16][8] = {};
    for (int lane = 0; lane < 32; ++lane)
        for (int v = 0; v < 4; ++v) {
            const Coord at = c_map(lane, v);
            float expected = p.c[at.row * 8 + at.col];
            for (int j = 0; j < p.k; ++j) expected += p.a[at.row * p.k + j] * p.b[j * 8 + at.col];
            if (!p.d.empty()) expected = p.d[at.row * 8 + at.col];
            const float got = kind == Kind::f16_f16
                                  ? f16_value(std::uint16_t(results[4 * lane + v / 2] >> (16 * (v % 2))))
                                  : std::bit_cast<float>(results[4 * lane + v]);
            EXPECT_EQ(got, expected) << "lane " << lane << ", valeur " << v << " (" << at.row << ", " << at.col << ")";
            ++seen[at.row][at.col];
        }
    for (auto& row : seen)
        for (int count : row) EXPECT_EQ(count, 1);  // chaque élément de D tenu par une seule lane
}

Map cute(const CuteLayout& layout, int rows, bool k_by_n) {
    // k_by_n : disposition CuTe de B, colonne d'abord dans (N, K) ; on rend (k, n).
    return [layout, rows, k_by_n](int lane, int v) {
        const Coord mk = column_major(layout(lane, v), rows);
        return k_by_n ? Coord{mk.col, mk.row} : mk;
    };
}

}  // namespace

TEST(PtxMma, IsaAndCuteDescribeTheSameFragments) {
    for (int lane = 0; lane < 32; ++lane) {
        for (int v = 0; v < 8; ++v) EXPECT_EQ(isa_a_m16n8k16(lane, v), cute(cute_a_16x16, 16, false)(lane, v));
        for (int v = 0; v < 4; ++v) {
            EXPECT_EQ(isa_b_m16n8k16(lane, v), cute(cute_b_8x16, 8, true)(lane, v));
            EXPECT_EQ(isa_c_m16n8(lane, v), cute(cute_c_16x8, 16, false)(lane, v));
            EXPECT_EQ(isa_a_m16n8k8_tf32(lane, v), cute(cute_a_tf32_16x8, 16, false)(lane, v));
        }
        for (int v = 0; v < 2; ++v) EXPECT_EQ(isa_b_m16n8k8_tf32(lane, v), cute(cute_b_tf32_8x8, 8, true)(lane, v));
    }
}

TEST(PtxMma, Bf16AgainstIsaAndCuteLayouts) {
    check_mma(Kind::bf16, isa_a_m16n8k16, isa_b_m16n8k16, isa_c_m16n8);
    check_mma(Kind::bf16, cute(cute_a_16x16, 16, false), cute(cute_b_8x16, 8, true), cute(cute_c_16x8, 16, false));
}

TEST(PtxMma, F16AgainstIsaAndCuteLayouts) {
    check_mma(Kind::f16, isa_a_m16n8k16, isa_b_m16n8k16, isa_c_m16n8);
    check_mma(Kind::f16, cute(cute_a_16x16, 16, false), cute(cute_b_8x16, 8, true), cute(cute_c_16x8, 16, false));
    check_mma(Kind::f16_f16, isa_a_m16n8k16, isa_b_m16n8k16, isa_c_m16n8);
    check_mma(Kind::f16_f16, cute(cute_a_16x16, 16, false), cute(cute_b_8x16, 8, true), cute(cute_c_16x8, 16, false));
}

TEST(PtxMma, Tf32AgainstIsaAndCuteLayouts) {
    check_mma(Kind::tf32, isa_a_m16n8k8_tf32, isa_b_m16n8k8_tf32, isa_c_m16n8);
    check_mma(Kind::tf32, cute(cute_a_tf32_16x8, 16, false), cute(cute_b_tf32_8x8, 8, true),
              cute(cute_c_16x8, 16, false));
}

// La règle commune des Tensor Cores émulés (simt/tensor_core.hpp) : somme exacte, un seul
// arrondi. C = 1 et les produits 2^60, 1, −2^60 : exactement 2. Une somme en double dans
// l'ordre de k (l'ancienne règle de mma.sync) perd le 1 contre 2^60 et rend 0 ; une somme en
// float terme à terme (l'ancienne règle de wmma), aussi.
TEST(PtxMma, SumIsExactThenRoundedOnce) {
    Problem p;
    p.k = 16;
    p.a.assign(16 * 16, 0.0f);
    p.b.assign(16 * 8, 0.0f);
    p.c.assign(16 * 8, 0.0f);
    p.d.assign(16 * 8, 0.0f);
    const float big = std::ldexp(1.0f, 30);  // exact en bf16
    p.a[0] = big, p.a[1] = 1.0f, p.a[2] = -big;
    p.b[0 * 8] = big, p.b[1 * 8] = 1.0f, p.b[2 * 8] = big;
    p.c[0] = 1.0f;
    p.d[0] = 2.0f;
    check_mma(Kind::bf16, isa_a_m16n8k16, isa_b_m16n8k16, isa_c_m16n8, &p);
}

TEST(PtxMma, NotReachedByTheWholeWarpIsDiagnosed) {
    std::uint32_t* out;
    ASSERT_EQ(cudaMalloc(&out, 64), cudaSuccess);
    simt::set_quiet(true);
    mma_by_half_a_warp<<<1, 32>>>(out);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    const std::string diagnostic = simt::last_diagnostic();
    EXPECT_NE(diagnostic.find("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"), std::string::npos) << diagnostic;
    EXPECT_NE(diagnostic.find("doit être exécutée par les 32 lanes du warp"), std::string::npos) << diagnostic;
    EXPECT_NE(diagnostic.find("la lane 1 a terminé"), std::string::npos) << diagnostic;
    EXPECT_NE(diagnostic.find("test_ptx_mma.cu:"), std::string::npos) << diagnostic;
    simt::set_quiet(false);
    cudaDeviceReset();
    cudaFree(out);
}
