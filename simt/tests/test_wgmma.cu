// wgmma de Hopper sur l'émulateur : chaque mode de swizzle, chaque majorité de A et de B,
// des formes m64nNk16 représentatives, A en registres, scale-d et imm-scale, contre une
// référence scalaire ; un GEMM bf16 256×256×256 par swizzle ; setmaxnreg, elect.sync et les
// diagnostics des instructions de groupe de warps.
//
// Deux descriptions publiques indépendantes fondent les dispositions vérifiées ici :
// - le PTX ISA, section « Asynchronous Warpgroup Level Matrix Multiply-Accumulate » :
//   « Register Fragments » (fragments de A et de D de .m64nNk16), « Shared Memory Matrix
//   Layout » (atomes de swizzle, LBO et SBO), « Matrix Descriptor Format » ; c'est d'elle que
//   part l'implémentation (simt/src/wgmma.cpp) ;
// - CUTLASS/CuTe, dont ce test reprend les définitions (sans leur code) : les atomes
//   Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom et make_gmma_desc
//   (include/cute/atom/mma_traits_sm90_gmma.hpp), les champs de GmmaDescriptor
//   (include/cute/arch/mma_sm90_desc.hpp), Swizzle<B,M,S> (include/cute/swizzle.hpp), et les
//   dispositions CLayout_64xN et ALayout_64x16 (mma_traits_sm90_gmma.hpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>
#include <simt/ptx/wgmma.hpp>
#include <simt/shared_window.hpp>

#include <cuda_fp16.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

using testing::AllOf;
using testing::HasSubstr;

namespace wgmma_test {

using simt::ptx::WgmmaInput;

enum class Major { k, mn };

/**
 * @brief Swizzle<B, M, S> de CuTe (include/cute/swizzle.hpp) : les B bits qui commencent au
 *        bit M + S sont combinés (ou exclusif) dans les B bits qui commencent au bit M.
 */
struct CuteSwizzle {
    unsigned b, m, s;
    std::uint32_t operator()(std::uint32_t offset) const {
        const std::uint32_t mask = ((1u << b) - 1u) << (m + s);
        return offset ^ ((offset & mask) >> s);
    }
};

/**
 * @brief Une tuile de multiplicande (mn × k éléments de 16 bits) en mémoire partagée, rangée
 *        comme CuTe la range : tile_to_shape d'un atome Layout_{K,MN}_{INTER,SW32,SW64,SW128}
 *        (8 × W/2 éléments en K-majeur, W/2 × 8 en M/N-majeur, W la largeur du swizzle, 16
 *        octets sans swizzle), atomes empilés d'abord en M/N, puis Swizzle<log2(W/16),4,3>
 *        appliqué à l'adresse ; descripteur de chaque tranche K16 comme make_gmma_desc.
 */
struct Tile {
    unsigned swizzle;  // 0, 32, 64 ou 128 octets
    Major major;
    unsigned mn, k;

    unsigned width() const { return swizzle != 0 ? swizzle : 16; }
    unsigned atom_mn() const { return major == Major::k ? 8 : width() / 2; }
    unsigned atom_k() const { return major == Major::k ? width() / 2 : 8; }
    unsigned atom_bytes() const { return 8 * width(); }
    std::uint32_t bytes() const { return mn * k * 2; }
    /** @brief Décalage en octets, avant swizzle, de l'élément (r, c). */
    std::uint32_t offset(unsigned r, unsigned c) const {
        const unsigned i = r / atom_mn(), j = c / atom_k(), rr = r % atom_mn(), cc = c % atom_k();
        const unsigned inside = major == Major::k ? rr * atom_k() + cc : rr + cc * atom_mn();
        return ((i + j * (mn / atom_mn())) * atom_mn() * atom_k() + inside) * 2;
    }
    std::uint32_t address(std::uint32_t base, unsigned r, unsigned c) const {
        const unsigned bits = swizzle == 128 ? 3 : swizzle == 64 ? 2 : swizzle == 32 ? 1 : 0;
        return CuteSwizzle{bits, 4, 3}(base + offset(r, c));
    }
    /** @brief Descripteur de la sous-tuile qui commence à la ligne @p row0, tranche K @p ks. */
    std::uint64_t descriptor(std::uint32_t base, unsigned row0, unsigned ks) const {
        const std::uint32_t start = base + offset(row0, 16 * ks);
        const unsigned atoms = mn / atom_mn();
        std::uint32_t lbo, sbo;
        if (major == Major::k) {  // SBO : 8 lignes suivantes ; LBO : core matrix suivante en K (1 si swizzle)
            sbo = atom_bytes();
            lbo = swizzle != 0 ? 16 : atoms * atom_bytes();
        } else if (swizzle == 0) {  // SBO : 8 éléments M/N suivants ; LBO : 8 lignes de K suivantes
            sbo = atom_bytes();
            lbo = atoms * atom_bytes();
        } else {  // LBO : atome suivant en M/N ; SBO : 8 lignes de K suivantes
            lbo = atom_bytes();
            sbo = atoms * atom_bytes();
        }
        // GmmaDescriptor::bitfield : layout_type_ 1 = 128B, 2 = 64B, 3 = 32B, 0 = INTERLEAVE.
        const std::uint64_t layout = swizzle == 128 ? 1 : swizzle == 64 ? 2 : swizzle == 32 ? 3 : 0;
        return (start >> 4 & 0x3fff) | std::uint64_t{lbo >> 4 & 0x3fff} << 16 |
               std::uint64_t{sbo >> 4 & 0x3fff} << 32 | layout << 62;
    }
};

/** @brief Position (ligne, colonne) de l'élément i du fragment d'accumulateur, PTX ISA (Figure « WGMMA .m64nNk16 register fragment layout for accumulator matrix D »). */
__host__ __device__ inline void d_position(unsigned thread, unsigned i, unsigned* row, unsigned* column) {
    const unsigned warp = thread / 32, lane = thread % 32;
    *row = 16 * warp + lane / 4 + 8 * (i / 2 % 2);
    *column = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
}

/** @brief Position de l'élément i (0–7) du fragment de A en registres, PTX ISA (Figure « … register fragment layout for matrix A »). */
__host__ __device__ inline void a_position(unsigned thread, unsigned i, unsigned* row, unsigned* column) {
    const unsigned warp = thread / 32, lane = thread % 32;
    *row = 16 * warp + lane / 4 + 8 * (i / 2 % 2);
    *column = 2 * (lane % 4) + i % 2 + 8 * (i / 4);
}

/** @brief Évalue une disposition CuTe (thread, valeur) → indice colonne-majeur, modes plats. */
unsigned cute_layout(unsigned thread, unsigned value, const std::vector<unsigned>& thread_shape,
                     const std::vector<unsigned>& thread_stride, const std::vector<unsigned>& value_shape,
                     const std::vector<unsigned>& value_stride) {
    unsigned index = 0;
    for (std::size_t i = 0; i < thread_shape.size(); ++i) {
        index += thread % thread_shape[i] * thread_stride[i];
        thread /= thread_shape[i];
    }
    for (std::size_t i = 0; i < value_shape.size(); ++i) {
        index += value % value_shape[i] * value_stride[i];
        value /= value_shape[i];
    }
    return index;
}

std::uint16_t to_bits(float value, WgmmaInput type) {
    if (type == WgmmaInput::bf16) return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(value) >> 16);
    return __half_as_ushort(__float2half(value));  // petits entiers : exacts
}

__device__ inline void store16(std::uint32_t address, std::uint16_t bits) {
    std::memcpy(simt::shared_pointer(address, sizeof bits), &bits, sizeof bits);
}

/** @brief Une opération à vérifier : forme, dispositions, options. */
struct Case {
    unsigned n;
    Tile a, b;
    WgmmaInput type = WgmmaInput::bf16;
    bool a_in_registers = false;
    bool scale_d = true;
    int scale_a = 1, scale_b = 1;
    unsigned k_slices = 4;  // tranches K16 enchaînées sur les mêmes accumulateurs
};

// A : 64 × K rangée par lignes (a[m·K + k]) ; B : K × N (b[k·N + n]) ; C et D : 64 × N.
__global__ void chained_wgmma(Case c, const std::uint16_t* a, const std::uint16_t* b, const float* in, float* out) {
    extern __shared__ unsigned char smem[];
    const unsigned K = 16 * c.k_slices;
    const std::uint32_t a_base = simt::shared_address(smem);
    const std::uint32_t b_base = a_base + (c.a.bytes() + 1023) / 1024 * 1024;
    for (unsigned i = threadIdx.x; i < 64 * K; i += blockDim.x) store16(c.a.address(a_base, i / K, i % K), a[i]);
    for (unsigned i = threadIdx.x; i < c.n * K; i += blockDim.x)
        store16(c.b.address(b_base, i / K, i % K), b[i % K * c.n + i / K]);
    __syncthreads();

    float d[128];
    float* registers[128];
    for (unsigned i = 0; i < c.n / 2; ++i) {
        unsigned row, column;
        d_position(threadIdx.x, i, &row, &column);
        d[i] = c.scale_d ? in[row * c.n + column] : 1e9f;  // sans scale-d, l'entrée est ignorée
        registers[i] = &d[i];
    }
    const std::span<float* const> accumulators(registers, c.n / 2);
    simt::ptx::wgmma_fence();
    for (unsigned ks = 0; ks < c.k_slices; ++ks) {
        const bool scale_d = ks > 0 || c.scale_d;
        const std::uint64_t desc_b = c.b.descriptor(b_base, 0, ks);
        if (c.a_in_registers) {
            std::uint32_t fragment[4] = {};
            for (unsigned i = 0; i < 8; ++i) {
                unsigned row, column;
                a_position(threadIdx.x, i, &row, &column);
                fragment[i / 2] |= std::uint32_t{a[row * K + 16 * ks + column]} << (16 * (i % 2));
            }
            simt::ptx::wgmma_mma_async_rs(c.n, c.type, accumulators, fragment, desc_b, scale_d, c.scale_a, c.scale_b,
                                          c.b.major == Major::mn);
        } else {
            simt::ptx::wgmma_mma_async(c.n, c.type, accumulators, c.a.descriptor(a_base, 0, ks), desc_b, scale_d,
                                       c.scale_a, c.scale_b, c.a.major == Major::mn, c.b.major == Major::mn);
        }
    }
    simt::ptx::wgmma_commit_group();
    simt::ptx::wgmma_wait_group(0);
    for (unsigned i = 0; i < c.n / 2; ++i) {
        unsigned row, column;
        d_position(threadIdx.x, i, &row, &column);
        out[row * c.n + column] = d[i];
    }
}

/** @brief Entrées de petits entiers, déterministes, de -2 à 2. */
std::vector<float> small_integers(std::size_t count, unsigned seed) {
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<float>(int((i * 7 + seed * 13 + i / 5) % 5) - 2);
    return values;
}

/**
 * @brief Exécute @p c sur A (64 × K), B (K × N) et C (64 × N) donnés et compare D à
 *        @p expected ; rend le nombre d'écarts.
 */
int run_with(const Case& c, const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& in,
             const std::vector<float>& expected) {
    std::vector<std::uint16_t> a_bits(a.size()), b_bits(b.size());
    for (std::size_t i = 0; i < a.size(); ++i) a_bits[i] = to_bits(a[i], c.type);
    for (std::size_t i = 0; i < b.size(); ++i) b_bits[i] = to_bits(b[i], c.type);
    std::uint16_t *a_device, *b_device;
    float *in_device, *out_device;
    cudaMalloc(&a_device, a_bits.size() * 2);
    cudaMalloc(&b_device, b_bits.size() * 2);
    cudaMalloc(&in_device, in.size() * 4);
    cudaMalloc(&out_device, in.size() * 4);
    cudaMemcpy(a_device, a_bits.data(), a_bits.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(b_device, b_bits.data(), b_bits.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(in_device, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
    const std::size_t shared = (c.a.bytes() + 1023) / 1024 * 1024 + c.b.bytes();
    chained_wgmma<<<1, 128, shared>>>(c, a_device, b_device, in_device, out_device);
    std::vector<float> out(in.size());
    const cudaError_t status = cudaDeviceSynchronize();
    cudaMemcpy(out.data(), out_device, out.size() * 4, cudaMemcpyDeviceToHost);
    cudaFree(a_device);
    cudaFree(b_device);
    cudaFree(in_device);
    cudaFree(out_device);
    if (status != cudaSuccess) {
        ADD_FAILURE() << "lancement : " << cudaGetErrorString(status) << " ; " << simt::last_diagnostic();
        return -1;
    }
    int errors = 0;
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i] != expected[i] && errors++ < 5)
            ADD_FAILURE() << "D[" << i / c.n << "][" << i % c.n << "] = " << out[i] << ", attendu " << expected[i];
    return errors;
}

/** @brief Exécute @p c sur de petits entiers et compare à la référence scalaire ; rend le nombre d'écarts. */
int run_case(const Case& c) {
    const unsigned K = 16 * c.k_slices;
    const std::vector<float> a = small_integers(64 * K, 1), b = small_integers(K * c.n, 2),
                             in = small_integers(64 * c.n, 3);
    std::vector<float> expected(in.size());
    for (unsigned m = 0; m < 64; ++m)
        for (unsigned n = 0; n < c.n; ++n) {
            float sum = c.scale_d ? in[m * c.n + n] : 0.0f;  // sommes exactes : petits entiers
            for (unsigned k = 0; k < K; ++k)
                sum += static_cast<float>(c.scale_a * c.scale_b) * a[m * K + k] * b[k * c.n + n];
            expected[m * c.n + n] = sum;
        }
    return run_with(c, a, b, in, expected);
}

}  // namespace wgmma_test

using wgmma_test::Case;
using wgmma_test::Major;
using wgmma_test::Tile;

// Les deux descriptions des fragments concordent : formules du PTX ISA et dispositions de CuTe
// (CLayout_64xN = ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)) ; ALayout_64x16 =
// ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), indices colonne-majeurs de la matrice 64 × N ou 64 × 16).
TEST(Wgmma, FragmentLayoutsOfPtxIsaAndCuteAgree) {
    for (unsigned n : {8u, 64u, 256u})
        for (unsigned t = 0; t < 128; ++t)
            for (unsigned v = 0; v < n / 2; ++v) {
                unsigned row, column;
                wgmma_test::d_position(t, v, &row, &column);
                ASSERT_EQ(row + 64 * column,
                          wgmma_test::cute_layout(t, v, {4, 8, 4}, {128, 1, 16}, {2, 2, n / 8}, {64, 8, 512}))
                    << "N=" << n << " thread " << t << " valeur " << v;
            }
    for (unsigned t = 0; t < 128; ++t)
        for (unsigned v = 0; v < 8; ++v) {
            unsigned row, column;
            wgmma_test::a_position(t, v, &row, &column);
            ASSERT_EQ(row + 64 * column, wgmma_test::cute_layout(t, v, {4, 8, 4}, {128, 1, 16}, {2, 2, 2}, {64, 8, 512}));
        }
}

// Chaque swizzle, chaque majorité de A et de B, quatre tranches K16 enchaînées (descripteur
// avancé dans la ligne de swizzle, comme DescriptorIterator de CuTe), N = 128.
TEST(Wgmma, EverySwizzleAndMajorness) {
    for (unsigned swizzle : {0u, 32u, 64u, 128u})
        for (Major a_major : {Major::k, Major::mn})
            for (Major b_major : {Major::k, Major::mn}) {
                Case c{128, Tile{swizzle, a_major, 64, 64}, Tile{swizzle, b_major, 128, 64}};
                EXPECT_EQ(wgmma_test::run_case(c), 0)
                    << "swizzle " << swizzle << ", A " << (a_major == Major::k ? "K" : "M") << "-majeur, B "
                    << (b_major == Major::k ? "K" : "N") << "-majeur";
            }
}

// Formes m64nNk16 représentatives, de N = 8 à N = 256, et le type f16.
TEST(Wgmma, RepresentativeShapes) {
    for (unsigned n : {8u, 16u, 24u, 64u, 136u, 256u}) {
        EXPECT_EQ(wgmma_test::run_case(Case{n, Tile{128, Major::k, 64, 64}, Tile{32, Major::k, n, 64}}), 0)
            << "N=" << n;
    }
    Case f16{64, Tile{64, Major::mn, 64, 64}, Tile{128, Major::k, 64, 64}, wgmma_test::WgmmaInput::f16};
    EXPECT_EQ(wgmma_test::run_case(f16), 0) << "f16";
}

// A en registres (fragment du PTX ISA), B en mémoire partagée K- puis N-majeur.
TEST(Wgmma, AInRegisters) {
    for (Major b_major : {Major::k, Major::mn}) {
        Case c{64, Tile{0, Major::k, 64, 64}, Tile{128, b_major, 64, 64}};
        c.a_in_registers = true;
        EXPECT_EQ(wgmma_test::run_case(c), 0) << (b_major == Major::k ? "B K-majeur" : "B N-majeur");
    }
}

// scale-d faux (l'accumulateur d'entrée est ignoré), imm-scale-a et imm-scale-b à -1.
// La règle commune des Tensor Cores émulés (simt/tensor_core.hpp) : somme exacte de C et des
// produits, un seul arrondi. C = 1 et les produits 2^60, 1, −2^60 : exactement 2. Sommer les
// produits en double dans l'ordre de k (l'ancienne règle de wgmma) perd le 1 contre 2^60 et
// rend 1 ; une somme float terme à terme, 0.
TEST(Wgmma, SumIsExactThenRoundedOnce) {
    const Case c{8, Tile{0, Major::k, 64, 16}, Tile{0, Major::k, 8, 16}, simt::ptx::WgmmaInput::bf16, false, true, 1, 1, 1};
    std::vector<float> a(64 * 16, 0.0f), b(16 * 8, 0.0f), in(64 * 8, 0.0f), expected(64 * 8, 0.0f);
    const float big = std::ldexp(1.0f, 30);  // exact en bf16
    a[0] = big, a[1] = 1.0f, a[2] = -big;      // ligne 0 de A
    b[0 * 8] = big, b[1 * 8] = 1.0f, b[2 * 8] = big;  // colonne 0 de B
    in[0] = 1.0f;
    expected[0] = 2.0f;
    EXPECT_EQ(wgmma_test::run_with(c, a, b, in, expected), 0);
}

TEST(Wgmma, ScaleOperands) {
    Case zero{32, Tile{128, Major::k, 64, 64}, Tile{64, Major::mn, 32, 64}};
    zero.scale_d = false;
    EXPECT_EQ(wgmma_test::run_case(zero), 0) << "scale-d faux";
    Case negative_a{32, Tile{32, Major::mn, 64, 64}, Tile{0, Major::mn, 32, 64}};
    negative_a.scale_a = -1;
    EXPECT_EQ(wgmma_test::run_case(negative_a), 0) << "imm-scale-a = -1";
    Case both{32, Tile{0, Major::k, 64, 64}, Tile{0, Major::k, 32, 64}};
    both.scale_a = -1;
    both.scale_b = -1;
    both.a_in_registers = true;
    EXPECT_EQ(wgmma_test::run_case(both), 0) << "imm-scale-a = imm-scale-b = -1, A en registres";
}

namespace wgmma_test {

constexpr unsigned kGemmSize = 256;

// C = A·B en bf16, A (M × K) et B (K × N) rangées par lignes : blocs de 128 × 256 (deux groupes
// de warps de 64 lignes chacun, m64n256k16), K par tranches de 64 chargées en mémoire partagée
// dans la disposition de @p a_tile (128 × 64) et @p b_tile (256 × 64).
__global__ void gemm(Tile a_tile, Tile b_tile, const std::uint16_t* a, const std::uint16_t* b, float* c) {
    extern __shared__ unsigned char smem[];
    const std::uint32_t a_base = simt::shared_address(smem);
    const std::uint32_t b_base = a_base + a_tile.bytes();
    const unsigned group = threadIdx.x / 128, row0 = blockIdx.x * 128;
    float d[128];
    float* registers[128];
    for (unsigned i = 0; i < 128; ++i) registers[i] = &d[i];
    for (unsigned kb = 0; kb < kGemmSize; kb += 64) {
        for (unsigned i = threadIdx.x; i < 128 * 64; i += blockDim.x)
            store16(a_tile.address(a_base, i / 64, i % 64), a[(row0 + i / 64) * kGemmSize + kb + i % 64]);
        for (unsigned i = threadIdx.x; i < kGemmSize * 64; i += blockDim.x)
            store16(b_tile.address(b_base, i % kGemmSize, i / kGemmSize), b[(kb + i / kGemmSize) * kGemmSize + i % kGemmSize]);
        __syncthreads();
        simt::ptx::wgmma_fence();
        for (unsigned ks = 0; ks < 4; ++ks)
            simt::ptx::wgmma_mma_async(kGemmSize, WgmmaInput::bf16, registers, a_tile.descriptor(a_base, 64 * group, ks),
                                       b_tile.descriptor(b_base, 0, ks), kb > 0 || ks > 0, 1, 1,
                                       a_tile.major == Major::mn, b_tile.major == Major::mn);
        simt::ptx::wgmma_commit_group();
        simt::ptx::wgmma_wait_group(0);
        __syncthreads();  // la tuile suivante écrase celle que les wgmma ont lue
    }
    for (unsigned i = 0; i < 128; ++i) {
        unsigned row, column;
        d_position(threadIdx.x % 128, i, &row, &column);
        c[(row0 + 64 * group + row) * kGemmSize + column] = d[i];
    }
}

}  // namespace wgmma_test

// Le GEMM bf16 256 × 256 × 256 de l'issue, exact sur de petits entiers, une fois par swizzle ;
// chacun doit tenir en quelques secondes sur l'émulateur.
TEST(Wgmma, Gemm256InEverySwizzle) {
    constexpr unsigned S = wgmma_test::kGemmSize;
    const std::vector<float> a = wgmma_test::small_integers(S * S, 4), b = wgmma_test::small_integers(S * S, 5);
    std::vector<std::uint16_t> a_bits(S * S), b_bits(S * S);
    for (unsigned i = 0; i < S * S; ++i) {
        a_bits[i] = wgmma_test::to_bits(a[i], wgmma_test::WgmmaInput::bf16);
        b_bits[i] = wgmma_test::to_bits(b[i], wgmma_test::WgmmaInput::bf16);
    }
    std::vector<float> expected(S * S, 0.0f);
    for (unsigned m = 0; m < S; ++m)
        for (unsigned k = 0; k < S; ++k)
            for (unsigned n = 0; n < S; ++n) expected[m * S + n] += a[m * S + k] * b[k * S + n];
    std::uint16_t *a_device, *b_device;
    float* c_device;
    ASSERT_EQ(cudaMalloc(&a_device, S * S * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&b_device, S * S * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&c_device, S * S * 4), cudaSuccess);
    cudaMemcpy(a_device, a_bits.data(), S * S * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(b_device, b_bits.data(), S * S * 2, cudaMemcpyHostToDevice);
    const struct {
        unsigned swizzle;
        Major a, b;
    } layouts[] = {{0, Major::k, Major::mn}, {32, Major::mn, Major::k}, {64, Major::k, Major::k}, {128, Major::k, Major::mn}};
    for (const auto& layout : layouts) {
        const Tile a_tile{layout.swizzle, layout.a, 128, 64}, b_tile{layout.swizzle, layout.b, S, 64};
        cudaMemset(c_device, 0, S * S * 4);
        const auto start = std::chrono::steady_clock::now();
        wgmma_test::gemm<<<S / 128, 256, a_tile.bytes() + b_tile.bytes()>>>(a_tile, b_tile, a_device, b_device, c_device);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::vector<float> c(S * S);
        cudaMemcpy(c.data(), c_device, S * S * 4, cudaMemcpyDeviceToHost);
        EXPECT_EQ(c, expected) << "swizzle " << layout.swizzle;
        EXPECT_LT(seconds, 10.0) << "swizzle " << layout.swizzle;
        RecordProperty("secondes_swizzle_" + std::to_string(layout.swizzle), std::to_string(seconds));
        std::printf("GEMM bf16 256×256×256 par wgmma, swizzle %u : %.3f s sur l'émulateur\n", layout.swizzle, seconds);
    }
    cudaFree(a_device);
    cudaFree(b_device);
    cudaFree(c_device);
}

namespace wgmma_test {

// Deux groupes de warps indépendants, deux groupes de wgmma en vol : après wait_group(1), le
// premier est écrit, le second pas encore (ses registres restent empoisonnés) ; après
// wait_group(0), les deux le sont.
__global__ void two_groups_in_flight(float* out) {
    extern __shared__ unsigned char smem[];
    const std::uint32_t base = simt::shared_address(smem);
    const Tile a_tile{0, Major::k, 64, 16}, b_tile{0, Major::k, 8, 16};
    for (unsigned i = threadIdx.x; i < 64 * 16; i += blockDim.x) store16(a_tile.address(base, i / 16, i % 16), 0x3f80);  // 1
    for (unsigned i = threadIdx.x; i < 8 * 16; i += blockDim.x) {
        store16(b_tile.address(base + 2048, i / 16, i % 16), 0x3f80);  // 1
        store16(b_tile.address(base + 4096, i / 16, i % 16), 0x4000);  // 2
    }
    __syncthreads();
    const int sign = threadIdx.x < 128 ? 1 : -1;
    float first[4], second[4];
    float* first_registers[4] = {&first[0], &first[1], &first[2], &first[3]};
    float* second_registers[4] = {&second[0], &second[1], &second[2], &second[3]};
    simt::ptx::wgmma_fence();
    simt::ptx::wgmma_mma_async(8, WgmmaInput::bf16, first_registers, a_tile.descriptor(base, 0, 0),
                               b_tile.descriptor(base + 2048, 0, 0), false, sign, 1, 0, 0);
    simt::ptx::wgmma_commit_group();
    simt::ptx::wgmma_mma_async(8, WgmmaInput::bf16, second_registers, a_tile.descriptor(base, 0, 0),
                               b_tile.descriptor(base + 4096, 0, 0), false, sign, 1, 0, 0);
    simt::ptx::wgmma_commit_group();
    simt::ptx::wgmma_wait_group(1);
    out[3 * threadIdx.x] = first[0];
    out[3 * threadIdx.x + 1] = std::isnan(second[0]) ? 1.0f : 0.0f;
    simt::ptx::wgmma_wait_group(0);
    out[3 * threadIdx.x + 2] = second[3];
}

// elect.sync : la lane élue (la plus petite du masque, choix déterministe) et le prédicat.
__global__ void elect(unsigned* leaders, int* elected) {
    const unsigned lane = threadIdx.x % 32;
    std::uint32_t leader = 99;
    bool chosen;
    if (threadIdx.x < 32) {
        chosen = simt::ptx::elect_sync(0xffffffffu, &leader);
    } else if (lane >= 5) {
        chosen = simt::ptx::elect_sync(0xffffffe0u, &leader);
    } else {
        chosen = false;
    }
    leaders[threadIdx.x] = leader;
    elected[threadIdx.x] = chosen;
}

// setmaxnreg d'un noyau spécialisé producteur/consommateur : le producteur rend des registres,
// le consommateur en prend ; aucun effet sur le calcul.
__global__ void producer_consumer_registers(int* out) {
    if (threadIdx.x < 128)
        simt::ptx::setmaxnreg(false, 40);
    else
        simt::ptx::setmaxnreg(true, 232);
    out[threadIdx.x] = 1;
}

}  // namespace wgmma_test

TEST(Wgmma, TwoWarpgroupsAndGroupsInFlight) {
    float* out;
    ASSERT_EQ(cudaMalloc(&out, 256 * 3 * sizeof(float)), cudaSuccess);
    wgmma_test::two_groups_in_flight<<<1, 256, 8192>>>(out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    std::vector<float> host(256 * 3);
    cudaMemcpy(host.data(), out, host.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < 256; ++t) {
        const float sign = t < 128 ? 1.0f : -1.0f;
        EXPECT_EQ(host[3 * t], 16.0f * sign) << "thread " << t;
        EXPECT_EQ(host[3 * t + 1], 1.0f) << "thread " << t << " : le second groupe ne devait pas être écrit";
        EXPECT_EQ(host[3 * t + 2], 32.0f * sign) << "thread " << t;
    }
    cudaFree(out);
}

TEST(Wgmma, ElectSync) {
    unsigned* leaders;
    int* elected;
    ASSERT_EQ(cudaMalloc(&leaders, 64 * sizeof(unsigned)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&elected, 64 * sizeof(int)), cudaSuccess);
    wgmma_test::elect<<<1, 64>>>(leaders, elected);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    std::vector<unsigned> l(64);
    std::vector<int> e(64);
    cudaMemcpy(l.data(), leaders, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(e.data(), elected, 64 * sizeof(int), cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < 64; ++t) {
        const unsigned lane = t % 32;
        if (t >= 32 && lane < 5) {
            EXPECT_EQ(l[t], 99u);
            EXPECT_EQ(e[t], 0);
            continue;
        }
        const unsigned expected = t < 32 ? 0 : 5;
        EXPECT_EQ(l[t], expected) << "thread " << t;
        EXPECT_EQ(e[t], lane == expected ? 1 : 0) << "thread " << t;
    }
    cudaFree(leaders);
    cudaFree(elected);
}

TEST(Wgmma, SetmaxnregIsAcceptedWithoutEffect) {
    int* out;
    ASSERT_EQ(cudaMalloc(&out, 256 * sizeof(int)), cudaSuccess);
    wgmma_test::producer_consumer_registers<<<2, 256>>>(out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    std::vector<int> host(256);
    cudaMemcpy(host.data(), out, 256 * sizeof(int), cudaMemcpyDeviceToHost);
    EXPECT_EQ(host, std::vector<int>(256, 1));
    cudaFree(out);
}

// ---- Diagnostics -------------------------------------------------------------------------

namespace wgmma_detection {

using simt::ptx::WgmmaInput;

constexpr int kFenceLine = __LINE__ + 4;
__global__ void warp_three_exits(int* out) {
    if (threadIdx.x >= 96) return;
    out[threadIdx.x] = 1;
    simt::ptx::wgmma_fence();
}

constexpr int kBarrierLine = __LINE__ + 4;
constexpr int kFenceAtBarrierLine = __LINE__ + 6;
__global__ void warp_two_at_barrier() {
    if (threadIdx.x / 32 == 2) {
        __syncthreads();
        return;
    }
    simt::ptx::wgmma_fence();
    __syncthreads();
}

__global__ void incomplete_warpgroup() { simt::ptx::wgmma_fence(); }

// .aligned : les 128 threads doivent exécuter la même instruction, pas deux fences distincts.
constexpr int kFirstFenceLine = __LINE__ + 4;
constexpr int kSecondFenceLine = __LINE__ + 5;
__global__ void two_different_fences() {
    if (threadIdx.x < 64)
        simt::ptx::wgmma_fence();
    else
        simt::ptx::wgmma_fence();
}

constexpr int kTouchedMmaLine = __LINE__ + 10;
__global__ void accumulator_touched(float* out) {
    extern __shared__ unsigned char smem[];
    const std::uint32_t base = simt::shared_address(smem);
    for (unsigned i = threadIdx.x; i < 2048; i += blockDim.x) smem[i] = 0;
    __syncthreads();
    float d[4] = {};
    float* registers[4] = {&d[0], &d[1], &d[2], &d[3]};
    const std::uint64_t desc = base >> 4 | std::uint64_t{128 >> 4} << 32;  // sans swizzle, SBO 128
    simt::ptx::wgmma_fence();
    simt::ptx::wgmma_mma_async(8, WgmmaInput::bf16, registers, desc, desc, true, 1, 1, 0, 0);
    if (threadIdx.x == 5) d[2] = 1.0f;  // écrit avant wait_group : interdit
    simt::ptx::wgmma_commit_group();
    simt::ptx::wgmma_wait_group(0);
    out[threadIdx.x] = d[0];
}

__global__ void mma_without_fence() {
    float d[4] = {};
    float* registers[4] = {&d[0], &d[1], &d[2], &d[3]};
    simt::ptx::wgmma_mma_async(8, WgmmaInput::bf16, registers, 0, 0, true, 1, 1, 0, 0);
}

__global__ void never_waited(float* out) {
    extern __shared__ unsigned char smem[];
    (void)smem;
    float d[4] = {};
    float* registers[4] = {&d[0], &d[1], &d[2], &d[3]};
    simt::ptx::wgmma_fence();
    simt::ptx::wgmma_mma_async(8, WgmmaInput::bf16, registers, 0, 0, true, 1, 1, 0, 0);
    simt::ptx::wgmma_commit_group();
    out[threadIdx.x] = 0.0f;
}

__global__ void nonzero_base_offset(float* out) {
    extern __shared__ unsigned char smem[];
    (void)smem;
    float d[4] = {};
    float* registers[4] = {&d[0], &d[1], &d[2], &d[3]};
    const std::uint64_t desc = std::uint64_t{1} << 62 | std::uint64_t{3} << 49;  // 128B, décalage de base 3
    simt::ptx::wgmma_fence();
    simt::ptx::wgmma_mma_async(8, WgmmaInput::bf16, registers, desc, desc, true, 1, 1, 0, 0);
    simt::ptx::wgmma_commit_group();
    simt::ptx::wgmma_wait_group(0);
    out[threadIdx.x] = d[0];
}

constexpr int kBadCountLine = __LINE__ + 1;
__global__ void setmaxnreg_bad_count() { simt::ptx::setmaxnreg(true, 100); }

__global__ void setmaxnreg_not_uniform() { simt::ptx::setmaxnreg(false, threadIdx.x < 64 ? 40 : 48); }

__global__ void setmaxnreg_inc_lowers() {
    simt::ptx::setmaxnreg(true, 232);
    simt::ptx::setmaxnreg(true, 200);
}

// Un producteur et deux consommateurs, 384 threads : le bloc reçoit au plus 168 registres par
// thread (65 536 / 384 arrondi à 8), soit 64 512. 128 × (40 + 2 × 232) les prend tous ; avec 48
// pour le producteur, 65 536 tiendraient dans le SM mais pas dans le bloc.
__global__ void two_consumers_registers(unsigned producer) {
    if (threadIdx.x < 128)
        simt::ptx::setmaxnreg(false, producer);
    else
        simt::ptx::setmaxnreg(true, 232);
}

}  // namespace wgmma_detection

namespace {

std::string wgmma_line(int line) { return "test_wgmma.cu:" + std::to_string(line); }

}  // namespace

/** @brief Diagnostics silencieux ; l'erreur collante est effacée à la fin. */
class WgmmaDetection : public testing::Test {
protected:
    void SetUp() override {
        simt::set_quiet(true);
        simt::clear_diagnostic();
        ASSERT_EQ(cudaMalloc(&out_, 256 * sizeof(float)), cudaSuccess);
    }
    void TearDown() override {
        cudaDeviceReset();
        simt::set_quiet(false);
        cudaFree(out_);
    }
    float* out_ = nullptr;
};

TEST_F(WgmmaDetection, WarpThatExitedIsNamed) {
    wgmma_detection::warp_three_exits<<<1, 128>>>(reinterpret_cast<int*>(out_));
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau wgmma_detection::warp_three_exits, bloc (0, 0, 0)"),
                      HasSubstr("wgmma.fence.sync.aligned (" + wgmma_line(wgmma_detection::kFenceLine) + ")"),
                      HasSubstr("non atteinte par les 4 warps du groupe de warps 0 (threads 0 à 127)"),
                      HasSubstr("warp 3 (threads 96 à 127) : aucune lane ne l'atteint, la lane 0 a terminé")));
}

TEST_F(WgmmaDetection, WarpWaitingElsewhereIsNamed) {
    wgmma_detection::warp_two_at_barrier<<<1, 128>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("wgmma.fence.sync.aligned (" + wgmma_line(wgmma_detection::kFenceAtBarrierLine) + ")"),
                      HasSubstr("warp 2 (threads 64 à 95) : aucune lane ne l'atteint, la lane 0 attend "
                                "__syncthreads (" + wgmma_line(wgmma_detection::kBarrierLine) + ")")));
}

TEST_F(WgmmaDetection, IncompleteWarpgroup) {
    wgmma_detection::incomplete_warpgroup<<<1, 96>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), AllOf(HasSubstr("le groupe de warps 0 n'a que 96 threads"),
                                               HasSubstr("4 warps complets")));
}

TEST_F(WgmmaDetection, DifferentInstructionsInOneWarpgroup) {
    wgmma_detection::two_different_fences<<<1, 128>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("instructions de groupe de warps discordantes"),
                      HasSubstr("wgmma.fence.sync.aligned (" + wgmma_line(wgmma_detection::kFirstFenceLine) + ")"),
                      HasSubstr("wgmma.fence.sync.aligned (" + wgmma_line(wgmma_detection::kSecondFenceLine) + ")")));
}

TEST_F(WgmmaDetection, AccumulatorTouchedBeforeWaitGroup) {
    wgmma_detection::accumulator_touched<<<1, 128, 4096>>>(out_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("thread (5, 0, 0)"),
                      HasSubstr("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 (" +
                                wgmma_line(wgmma_detection::kTouchedMmaLine) + ")"),
                      HasSubstr("le registre d'accumulateur d2 du thread (5, 0, 0) a été modifié"),
                      HasSubstr("avant le wgmma.wait_group qui l'attend")));
}

TEST_F(WgmmaDetection, MmaWithoutFence) {
    wgmma_detection::mma_without_fence<<<1, 128>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("aucun wgmma.fence ne précède le premier wgmma.mma_async"));
}

TEST_F(WgmmaDetection, MmaNeverWaited) {
    wgmma_detection::never_waited<<<1, 128, 1024>>>(out_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("le groupe de warps 0 a terminé sans l'attendre"), HasSubstr("wgmma.wait_group manque")));
}

TEST_F(WgmmaDetection, NonzeroBaseOffsetIsRefused) {
    wgmma_detection::nonzero_base_offset<<<1, 128, 1024>>>(out_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("décalage de base (bits 49–51) de 3"));
}

TEST_F(WgmmaDetection, SetmaxnregRules) {
    wgmma_detection::setmaxnreg_bad_count<<<1, 128>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("setmaxnreg.inc.sync.aligned.u32 100 (" + wgmma_line(wgmma_detection::kBadCountLine) + ")"),
                      HasSubstr("multiple de 8 compris entre 24 et 256")));
    cudaDeviceReset();
    wgmma_detection::setmaxnreg_not_uniform<<<1, 128>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("la valeur doit être la même pour tout le groupe de warps"));
    cudaDeviceReset();
    wgmma_detection::setmaxnreg_inc_lowers<<<1, 128>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("baisserait le nombre de registres par thread, fixé à 232"));
}

TEST_F(WgmmaDetection, SetmaxnregBeyondTheBlockReserve) {
    wgmma_detection::two_consumers_registers<<<1, 384>>>(40);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    wgmma_detection::two_consumers_registers<<<1, 384>>>(48);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("128 × (48 + 232 + 232) = 65536 registres, plus que la réserve du bloc, "
                                "384 threads × 168 = 64512"),
                      HasSubstr("setmaxnreg.inc attendrait pour toujours")));
}
