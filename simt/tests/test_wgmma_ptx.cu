// wgmma écrit en PTX en ligne, comme l'enrobent CUTLASS (cute/arch/mma_sm90_gmma.hpp),
// ThunderKittens ou fast.cu : des fonctions d'enrobage dont l'asm est traduit par la réécriture
// (simt/rewrite/ptx/wgmma.py) et exécuté sans changement. Un produit 64 × 128 × 64 en bf16,
// tuiles en swizzle de 128 octets écrites comme les écrit la TMA (bloc de 16 octets c de la
// ligne r rangé au bloc c ^ (r mod 8)), comparé à une référence scalaire ; A en registres ;
// elect.sync et setmaxnreg tels que CUTLASS les écrit.
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

namespace wgmma_ptx {

__device__ inline void fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ inline void commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int Pending>
__device__ inline void wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
}

// Descripteur K-majeur, swizzle de 128 octets : SBO = 1 024 octets (8 lignes de 128 octets),
// LBO inutilisé (1), départ sur 14 bits (adresse partagée >> 4).
__device__ inline std::uint64_t descriptor_128b(const void* tile) {
    const std::uint64_t address = static_cast<std::uint64_t>(__cvta_generic_to_shared(tile));
    return ((address & 0x3ffff) >> 4) | (std::uint64_t{16 >> 4} << 16) | (std::uint64_t{1024 >> 4} << 32) |
           (std::uint64_t{1} << 62);
}

// m64n128k16, 64 accumulateurs "+f", scale-d par un prédicat calculé dans l'asm.
__device__ inline void mma_m64n128k16(float (&d)[64], std::uint64_t desc_a, std::uint64_t desc_b, int scale_d) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63},"
        " %64,"
        " %65,"
        " p, %67, %68, %69, %70;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(1), "n"(1), "n"(0), "n"(0));
}

// m64n8k16 avec A en registres : d, {a0, a1, a2, a3}, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-b.
__device__ inline void mma_m64n8k16_rs(float (&d)[4], const std::uint32_t (&a)[4], std::uint64_t desc_b) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, 1, 1, 1, 0;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b));
}

__device__ inline std::uint32_t elect_one(std::uint32_t* leader) {
    std::uint32_t lane = 0, elected = 0;
    asm volatile(
        "{\n"
        ".reg .b32 %%rx;\n"
        ".reg .pred %%px;\n"
        "     elect.sync %%rx|%%px, %2;\n"
        "@%%px mov.s32 %1, 1;\n"
        "     mov.s32 %0, %%rx;\n"
        "}\n"
        : "+r"(lane), "+r"(elected)
        : "r"(0xffffffffu));
    *leader = lane;
    return elected;
}

template <int Registers>
__device__ inline void registers_increase() {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
}

/** @brief Position (ligne, colonne) de l'élément i du fragment d'accumulateur (PTX ISA, wgmma .m64nNk16). */
__device__ inline void d_position(unsigned thread, unsigned i, unsigned* row, unsigned* column) {
    *row = 16 * (thread / 32) + thread % 32 / 4 + 8 * (i / 2 % 2);
    *column = 8 * (i / 4) + 2 * (thread % 4) + i % 2;
}

/** @brief Range la ligne r (64 éléments de 16 bits, 128 octets) d'une tuile en swizzle de 128 octets. */
__device__ inline void store_row_128b(unsigned char* tile, unsigned r, const std::uint16_t* row) {
    for (unsigned chunk = 0; chunk < 8; ++chunk)
        std::memcpy(tile + r * 128 + ((chunk ^ (r % 8)) * 16), row + chunk * 8, 16);
}

// D (64 × 128) = A (64 × 64, par lignes) · B (64 × 128, rangée comme Bᵀ : 128 × 64 par lignes).
__global__ void product(const std::uint16_t* a, const std::uint16_t* b_transposed, float* out) {
    __shared__ __align__(1024) unsigned char a_tile[64 * 128];
    __shared__ __align__(1024) unsigned char b_tile[128 * 128];
    for (unsigned r = threadIdx.x; r < 64; r += blockDim.x) store_row_128b(a_tile, r, a + r * 64);
    for (unsigned r = threadIdx.x; r < 128; r += blockDim.x) store_row_128b(b_tile, r, b_transposed + r * 64);
    __syncthreads();
    registers_increase<232>();
    float d[64];
    fence();
    for (unsigned ks = 0; ks < 4; ++ks)  // tranche K suivante : 16 éléments, 32 octets plus loin dans la ligne
        mma_m64n128k16(d, descriptor_128b(a_tile + 32 * ks), descriptor_128b(b_tile + 32 * ks), ks > 0);
    commit();
    wait<0>();
    for (unsigned i = 0; i < 64; ++i) {
        unsigned row, column;
        d_position(threadIdx.x, i, &row, &column);
        out[row * 128 + column] = d[i];
    }
}

// A (64 × 16) en registres, fragment du PTX ISA ; B (8 × 16 comme Bᵀ) sans swizzle : une core
// matrix de 8 lignes de 16 octets par moitié de K, LBO = 128 octets entre les deux.
__global__ void product_a_in_registers(const std::uint16_t* a, const std::uint16_t* b_transposed, float* out,
                                       std::uint32_t* leaders) {
    __shared__ __align__(256) std::uint16_t b_tile[2][8][8];
    if (threadIdx.x < 16) std::memcpy(b_tile[threadIdx.x / 8][threadIdx.x % 8], b_transposed + threadIdx.x % 8 * 16 + threadIdx.x / 8 * 8, 16);
    __syncthreads();
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    std::uint32_t fragment[4];
    for (unsigned r = 0; r < 4; ++r) {
        const unsigned row = 16 * warp + lane / 4 + 8 * (r % 2), column = 2 * (lane % 4) + 8 * (r / 2);
        fragment[r] = a[row * 16 + column] | std::uint32_t{a[row * 16 + column + 1]} << 16;
    }
    const std::uint64_t address = __cvta_generic_to_shared(&b_tile[0][0][0]);
    const std::uint64_t desc_b = ((address & 0x3ffff) >> 4) | (std::uint64_t{128 >> 4} << 16) | (std::uint64_t{256 >> 4} << 32);
    float d[4] = {0, 0, 0, 0};
    fence();
    mma_m64n8k16_rs(d, fragment, desc_b);
    commit();
    wait<0>();
    for (unsigned i = 0; i < 4; ++i) {
        unsigned row, column;
        d_position(threadIdx.x, i, &row, &column);
        out[row * 8 + column] = d[i];
    }
    std::uint32_t leader = 0;
    const std::uint32_t elected = elect_one(&leader);
    leaders[threadIdx.x] = leader * 2 + elected;
}

std::uint16_t bf16(float value) { return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(value) >> 16); }

}  // namespace wgmma_ptx

TEST(WgmmaPtx, InlinePtxWrappersRunUnchanged) {
    std::vector<float> a(64 * 64), b(64 * 128);
    for (unsigned i = 0; i < a.size(); ++i) a[i] = static_cast<float>(int(i * 5 % 7) - 3);
    for (unsigned i = 0; i < b.size(); ++i) b[i] = static_cast<float>(int(i * 3 % 5) - 2);
    std::vector<std::uint16_t> a_bits(a.size()), bt_bits(b.size());
    for (unsigned i = 0; i < a.size(); ++i) a_bits[i] = wgmma_ptx::bf16(a[i]);
    for (unsigned k = 0; k < 64; ++k)
        for (unsigned n = 0; n < 128; ++n) bt_bits[n * 64 + k] = wgmma_ptx::bf16(b[k * 128 + n]);
    std::uint16_t *a_device, *b_device;
    float* out;
    ASSERT_EQ(cudaMalloc(&a_device, a_bits.size() * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&b_device, bt_bits.size() * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&out, 64 * 128 * sizeof(float)), cudaSuccess);
    cudaMemcpy(a_device, a_bits.data(), a_bits.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(b_device, bt_bits.data(), bt_bits.size() * 2, cudaMemcpyHostToDevice);
    wgmma_ptx::product<<<1, 128>>>(a_device, b_device, out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    std::vector<float> d(64 * 128);
    cudaMemcpy(d.data(), out, d.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int errors = 0;
    for (unsigned m = 0; m < 64; ++m)
        for (unsigned n = 0; n < 128; ++n) {
            float expected = 0;
            for (unsigned k = 0; k < 64; ++k) expected += a[m * 64 + k] * b[k * 128 + n];
            if (d[m * 128 + n] != expected && errors++ < 5)
                ADD_FAILURE() << "D[" << m << "][" << n << "] = " << d[m * 128 + n] << ", attendu " << expected;
        }
    EXPECT_EQ(errors, 0);
    cudaFree(a_device);
    cudaFree(b_device);
    cudaFree(out);
}

TEST(WgmmaPtx, AInRegistersAndElectSync) {
    std::vector<float> a(64 * 16), b(16 * 8);
    for (unsigned i = 0; i < a.size(); ++i) a[i] = static_cast<float>(int(i * 3 % 5) - 2);
    for (unsigned i = 0; i < b.size(); ++i) b[i] = static_cast<float>(int(i % 3) - 1);
    std::vector<std::uint16_t> a_bits(a.size()), bt_bits(b.size());
    for (unsigned i = 0; i < a.size(); ++i) a_bits[i] = wgmma_ptx::bf16(a[i]);
    for (unsigned k = 0; k < 16; ++k)
        for (unsigned n = 0; n < 8; ++n) bt_bits[n * 16 + k] = wgmma_ptx::bf16(b[k * 8 + n]);
    std::uint16_t *a_device, *b_device;
    float* out;
    std::uint32_t* leaders;
    ASSERT_EQ(cudaMalloc(&a_device, a_bits.size() * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&b_device, bt_bits.size() * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&out, 64 * 8 * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&leaders, 128 * sizeof(std::uint32_t)), cudaSuccess);
    cudaMemcpy(a_device, a_bits.data(), a_bits.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(b_device, bt_bits.data(), bt_bits.size() * 2, cudaMemcpyHostToDevice);
    wgmma_ptx::product_a_in_registers<<<1, 128>>>(a_device, b_device, out, leaders);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    std::vector<float> d(64 * 8);
    std::vector<std::uint32_t> l(128);
    cudaMemcpy(d.data(), out, d.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(l.data(), leaders, l.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost);
    for (unsigned m = 0; m < 64; ++m)
        for (unsigned n = 0; n < 8; ++n) {
            float expected = 0;
            for (unsigned k = 0; k < 16; ++k) expected += a[m * 16 + k] * b[k * 8 + n];
            EXPECT_EQ(d[m * 8 + n], expected) << "D[" << m << "][" << n << "]";
        }
    for (unsigned t = 0; t < 128; ++t) EXPECT_EQ(l[t], t % 32 == 0 ? 1u : 0u) << "thread " << t;  // lane 0 élue
    cudaFree(a_device);
    cudaFree(b_device);
    cudaFree(out);
    cudaFree(leaders);
}
