// PTX en ligne, le cadre : le petit PTX des fonctions d'enrobage (registres spéciaux,
// .reg, setp/selp, bra vers des étiquettes locales, mov, cvt, cvta, ld/st.shared) traduit par
// la réécriture, et la fenêtre partagée de 32 bits (__cvta_generic_to_shared), y compris en
// mode « courses de données » et dans un lancement coopératif.
#include <cooperative_groups.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace cg = cooperative_groups;

namespace {

// ---- Enrobages écrits comme dans CUTLASS ou ThunderKittens ------------------------------

__device__ __forceinline__ unsigned lane_id() {
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

__device__ __forceinline__ unsigned special(int which) {
    unsigned value = 0;
    if (which == 0) asm("mov.u32 %0, %%tid.x;" : "=r"(value));
    if (which == 1) asm("mov.u32 %0, %%ctaid.x;" : "=r"(value));
    if (which == 2) asm("mov.u32 %0, %%warpid;" : "=r"(value));
    if (which == 3) asm("mov.u32 %0, %%lanemask_lt;" : "=r"(value));
    if (which == 4) asm("mov.u32 %0, %%ntid.x;" : "=r"(value));
    return value;
}

// Un prédicat local et selp, comme les enrobages de elect ou de try_wait.
__device__ __forceinline__ int is_nonzero(int x) {
    int r;
    asm("{\n"
        "  .reg .pred p;\n"
        "  setp.ne.s32 p, %1, 0;\n"
        "  selp.s32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(r)
        : "r"(x));
    return r;
}

// Une boucle par bra vers des étiquettes uniques (%=), comme l'attente d'une mbarrier :
// compte à rebours de n jusqu'à 0, en ajoutant 3 à chaque tour.
__device__ __forceinline__ unsigned count_down(unsigned n) {
    unsigned total = 0;
    asm volatile(
        "{\n"
        ".reg .pred done;\n"
        ".reg .b32 left;\n"
        "mov.b32 left, %1;\n"
        "LOOP_%=:\n"
        "setp.eq.u32 done, left, 0;\n"
        "@done bra END_%=;\n"
        "add.u32 %0, %0, 3;\n"
        "sub.u32 left, left, 1;\n"
        "bra.uni LOOP_%=;\n"
        "END_%=:\n"
        "}\n"
        : "+r"(total)
        : "r"(n));
    return total;
}

__global__ void special_registers(unsigned* out) {
    const unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    out[6 * t + 0] = lane_id();
    for (int w = 0; w < 5; ++w) out[6 * t + 1 + w] = special(w);
}

__global__ void predicates_and_loops(const int* in, int* out) {
    const int t = threadIdx.x;
    out[3 * t] = is_nonzero(in[t]);
    // Le même enrobage deux fois dans une fonction : ses étiquettes ne se heurtent pas.
    out[3 * t + 1] = int(count_down(unsigned(t)));
    out[3 * t + 2] = int(count_down(unsigned(2 * t)));
}

__global__ void moves_and_conversions(const float* in, std::uint32_t* out) {
    std::uint32_t packed, low, high;
    std::uint16_t a = 0x1234, b = 0xabcd;
    asm("mov.b32 %0, {%1, %2};" : "=r"(packed) : "h"(a), "h"(b));
    asm("mov.b32 {%0, %1}, %2;" : "=h"(a), "=h"(b) : "r"(0x55667788u));
    out[0] = packed;
    out[1] = std::uint32_t(a) | std::uint32_t(b) << 16;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(packed) : "f"(in[0]), "f"(in[1]));
    out[2] = packed;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(packed) : "f"(in[0]), "f"(in[1]));
    out[3] = packed;
    std::uint64_t wide = 0x0123456789abcdefull;
    asm("mov.b64 {%0, %1}, %2;" : "=r"(low), "=r"(high) : "l"(wide));
    out[4] = low;
    out[5] = high;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(packed) : "f"(in[2]));
    out[6] = packed;
    float back;
    asm("{ .reg .b16 h;\n cvt.rn.bf16.f32 h, %1;\n cvt.f32.bf16 %0, h; }" : "=f"(back) : "f"(in[0]));
    std::memcpy(&out[7], &back, 4);
    int shifted;
    asm("shr.s32 %0, %1, 4;" : "=r"(shifted) : "r"(-256));
    out[8] = std::uint32_t(shifted);
    asm("shl.b32 %0, %1, 40;" : "=r"(shifted) : "r"(1));
    out[9] = std::uint32_t(shifted);
}

// Fenêtre partagée : adresses de 32 bits de la mémoire statique et dynamique, aller-retour,
// ld/st.shared par ces adresses, cvta en PTX.
__global__ void shared_window(std::uint32_t* out) {
    __shared__ __align__(1024) std::uint32_t tile[256];
    extern __shared__ std::uint32_t dynamic[];
    const unsigned t = threadIdx.x;
    const std::uint32_t tile_address = static_cast<std::uint32_t>(__cvta_generic_to_shared(&tile[t]));
    const std::uint32_t dynamic_address = static_cast<std::uint32_t>(__cvta_generic_to_shared(&dynamic[t]));
    std::uint32_t by_ptx;
    asm("{ .reg .u64 g;\n cvta.to.shared.u64 g, %1;\n cvt.u32.u64 %0, g; }" : "=r"(by_ptx) : "l"(&tile[t]));
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(tile_address), "r"(1000 + t));
    asm volatile("st.shared.u32 [%0+4], %1;" ::"r"(dynamic_address - 4), "r"(2000 + t));
    __syncthreads();
    std::uint32_t neighbour;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(neighbour) : "r"(tile_address ^ 4u));
    out[8 * t + 0] = by_ptx == tile_address;
    out[8 * t + 1] = tile_address % 1024 == 4 * t;                      // alignement gardé
    out[8 * t + 2] = __cvta_shared_to_generic(dynamic_address) == &dynamic[t];
    out[8 * t + 3] = tile[t];
    out[8 * t + 4] = dynamic[t];
    out[8 * t + 5] = neighbour;
    out[8 * t + 6] = __isShared(&tile[t]) + 2 * __isShared(out);
    out[8 * t + 7] = dynamic_address - static_cast<std::uint32_t>(__cvta_generic_to_shared(dynamic));
}

__global__ void cvta_of_a_global_pointer(std::uint32_t* out) {
    out[0] = static_cast<std::uint32_t>(__cvta_generic_to_shared(out));
}

__global__ void beyond_dynamic_shared(std::uint32_t* out) {
    std::uint32_t value;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(value) : "r"(64u));  // 64 octets demandés seulement
    out[0] = value;
}

// Chaque bloc écrit son numéro dans sa mémoire partagée par adresse de 32 bits, attend toute
// la grille, puis relit : chaque bloc résident a sa propre fenêtre.
__global__ void per_block_windows(std::uint32_t* out) {
    extern __shared__ std::uint32_t dynamic[];
    const std::uint32_t address = static_cast<std::uint32_t>(__cvta_generic_to_shared(&dynamic[threadIdx.x]));
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(address), "r"(blockIdx.x));
    cg::this_grid().sync();
    std::uint32_t seen;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(seen) : "r"(address));
    out[blockIdx.x * blockDim.x + threadIdx.x] = seen;
}

template <typename T>
T* device_array(std::size_t n) {
    T* p = nullptr;
    EXPECT_EQ(cudaMalloc(&p, n * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemset(p, 0, n * sizeof(T)), cudaSuccess);
    return p;
}

template <typename T>
std::vector<T> to_host(const T* p, std::size_t n) {
    std::vector<T> host(n);
    EXPECT_EQ(cudaMemcpy(host.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
}

}  // namespace

TEST(PtxBase, SpecialRegisters) {
    constexpr unsigned blocks = 2, threads = 96;
    unsigned* out = device_array<unsigned>(6 * blocks * threads);
    special_registers<<<blocks, threads>>>(out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto host = to_host(out, 6 * blocks * threads);
    for (unsigned b = 0; b < blocks; ++b)
        for (unsigned t = 0; t < threads; ++t) {
            const unsigned* v = &host[6 * (b * threads + t)];
            EXPECT_EQ(v[0], t % 32);
            EXPECT_EQ(v[1], t);
            EXPECT_EQ(v[2], b);
            EXPECT_EQ(v[3], t / 32);
            EXPECT_EQ(v[4], (1u << (t % 32)) - 1);
            EXPECT_EQ(v[5], threads);
        }
    cudaFree(out);
}

TEST(PtxBase, PredicatesSelectAndLocalLabels) {
    constexpr int n = 40;
    std::vector<int> input(n);
    for (int i = 0; i < n; ++i) input[i] = i % 3 == 0 ? 0 : i - 20;
    int* in = device_array<int>(n);
    int* out = device_array<int>(3 * n);
    cudaMemcpy(in, input.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    predicates_and_loops<<<1, n>>>(in, out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto host = to_host(out, 3 * n);
    for (int t = 0; t < n; ++t) {
        EXPECT_EQ(host[3 * t], input[t] != 0 ? 1 : 0) << t;
        EXPECT_EQ(host[3 * t + 1], 3 * t);
        EXPECT_EQ(host[3 * t + 2], 6 * t);
    }
    cudaFree(in);
    cudaFree(out);
}

TEST(PtxBase, MovesAndConversions) {
    const float input[3] = {1.00390625f, -3.5f, 1.0f + 0x1.8p-11f};
    float* in = device_array<float>(3);
    cudaMemcpy(in, input, sizeof input, cudaMemcpyHostToDevice);
    std::uint32_t* out = device_array<std::uint32_t>(10);
    moves_and_conversions<<<1, 1>>>(in, out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto v = to_host(out, 10);
    EXPECT_EQ(v[0], 0xabcd1234u);  // première partie en bits bas (PTX ISA, mov)
    EXPECT_EQ(v[1], 0x55667788u);
    // cvt.rn.bf16x2.f32 d, a, b : a dans la moitié haute. 1.00390625 = 1 + 2^-8 : à égale
    // distance de 1 et de 1 + 2^-7 en bf16, arrondi au pair : 1.0 (0x3f80) ; -3.5 : 0xc060.
    EXPECT_EQ(v[2], 0x3f80c060u);
    EXPECT_EQ(v[3], 0x3c04c300u);  // f16 : 1 + 2^-8 exact (0x3c04), -3.5 = 0xc300
    EXPECT_EQ(v[4], 0x89abcdefu);
    EXPECT_EQ(v[5], 0x01234567u);
    // tf32 : 10 bits de mantisse ; 1 + 1.5·2^-11 s'arrondit à 1 + 2^-10.
    EXPECT_EQ(v[6], 0x3f802000u);
    float back;
    std::memcpy(&back, &v[7], 4);
    EXPECT_EQ(back, 1.0f);
    EXPECT_EQ(int(v[8]), -16);  // décalage arithmétique
    EXPECT_EQ(v[9], 0u);        // au-delà de la largeur : 0 (PTX ISA, shl)
    cudaFree(in);
    cudaFree(out);
}

TEST(PtxBase, SharedWindowAddresses) {
    constexpr unsigned threads = 64;
    std::uint32_t* out = device_array<std::uint32_t>(8 * threads);
    shared_window<<<1, threads, threads * sizeof(std::uint32_t)>>>(out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto v = to_host(out, 8 * threads);
    for (unsigned t = 0; t < threads; ++t) {
        EXPECT_EQ(v[8 * t + 0], 1u) << t;
        EXPECT_EQ(v[8 * t + 1], 1u) << t;
        EXPECT_EQ(v[8 * t + 2], 1u) << t;
        EXPECT_EQ(v[8 * t + 3], 1000 + t);
        EXPECT_EQ(v[8 * t + 4], 2000 + t);
        EXPECT_EQ(v[8 * t + 5], 1000 + (t ^ 1));
        EXPECT_EQ(v[8 * t + 6], 1u);  // tile partagé, out (global) non
        EXPECT_EQ(v[8 * t + 7], 4 * t);
    }
    cudaFree(out);
}

TEST(PtxBase, SharedWindowUnderThreadOrdersAndCooperativeLaunch) {
    // Mode « courses de données » : chaque bloc tourne sur un thread du système neuf.
    simt::set_thread_orders(3);
    constexpr unsigned threads = 64;
    std::uint32_t* out = device_array<std::uint32_t>(8 * threads);
    shared_window<<<1, threads, threads * sizeof(std::uint32_t)>>>(out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    simt::set_thread_orders(1);
    const auto v = to_host(out, 8 * threads);
    for (unsigned t = 0; t < threads; ++t) EXPECT_EQ(v[8 * t + 4], 2000 + t);
    cudaFree(out);

    // Lancement coopératif : chaque bloc résident a sa fenêtre, sur son thread du système.
    constexpr unsigned blocks = 4;
    std::uint32_t* seen = device_array<std::uint32_t>(blocks * 32);
    void* args[] = {&seen};
    ASSERT_EQ(cudaLaunchCooperativeKernel((void*)per_block_windows, blocks, 32, args, 32 * sizeof(std::uint32_t)),
              cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto w = to_host(seen, blocks * 32);
    for (unsigned i = 0; i < blocks * 32; ++i) EXPECT_EQ(w[i], i / 32) << i;
    cudaFree(seen);
}

TEST(PtxBase, InvalidSharedAddressesAreDiagnosed) {
    std::uint32_t* out = device_array<std::uint32_t>(1);
    simt::set_quiet(true);
    cvta_of_a_global_pointer<<<1, 1>>>(out);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_NE(simt::last_diagnostic().find("ni une variable __shared__ ni la mémoire partagée dynamique"),
              std::string::npos)
        << simt::last_diagnostic();
    EXPECT_NE(simt::last_diagnostic().find("test_ptx_base.cu:"), std::string::npos) << simt::last_diagnostic();
    cudaDeviceReset();
    cudaFree(out);
    out = device_array<std::uint32_t>(1);
    beyond_dynamic_shared<<<1, 1, 64>>>(out);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_NE(simt::last_diagnostic().find("au-delà des 64 octets de mémoire partagée dynamique"), std::string::npos)
        << simt::last_diagnostic();
    simt::set_quiet(false);
    cudaDeviceReset();
    cudaFree(out);
}
