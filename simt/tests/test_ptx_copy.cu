// PTX en ligne, Ampere : ldmatrix (x1, x2, x4, .trans) et cp.async (ca, cg, src-size,
// commit_group, wait_group, wait_all), par des enrobages comme ceux de CUTLASS. Les registres
// que reçoit chaque lane de ldmatrix sont vérifiés contre le PTX ISA et contre CuTe
// (ptx_layouts.hpp).
#include "ptx_layouts.hpp"

#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <cstdint>
#include <vector>

using namespace ptx_layouts;

namespace {

template <int Count, bool Transpose>
__device__ __forceinline__ void ldsm(std::uint32_t (&d)[4], std::uint32_t address) {
    if constexpr (Count == 1 && !Transpose)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(d[0]) : "r"(address));
    if constexpr (Count == 1 && Transpose)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(d[0]) : "r"(address));
    if constexpr (Count == 2 && !Transpose)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(d[0]), "=r"(d[1]) : "r"(address));
    if constexpr (Count == 2 && Transpose)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(d[0]), "=r"(d[1]) : "r"(address));
    if constexpr (Count == 4 && !Transpose)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(address));
    if constexpr (Count == 4 && Transpose)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(address));
}

/** Emplacement (en lignes de 16 octets) de la ligne R = 8·matrice + ligne : dispersé exprès. */
__host__ __device__ int slot(int row) { return (row * 5 + 3) % 32; }

/** Élément (matrice j, ligne r, colonne c), tous différents. */
__host__ __device__ std::uint16_t element(int j, int r, int c) { return std::uint16_t(j * 64 + r * 8 + c + 1); }

template <int Count, bool Transpose>
__global__ void load_matrices(std::uint32_t* out) {
    __shared__ __align__(16) std::uint16_t rows[32 * 8];
    for (int i = threadIdx.x; i < 32 * 8; i += 32) {
        const int row = i / 8;
        rows[slot(row) * 8 + i % 8] = element(row / 8, row % 8, i % 8);
    }
    __syncwarp();
    const int lane = int(threadIdx.x);
    // Les lanes au-delà de 8·Count ne donnent pas d'adresse utile : le PTX ISA les ignore.
    const std::uint32_t address = lane < 8 * Count
                                      ? static_cast<std::uint32_t>(__cvta_generic_to_shared(&rows[slot(lane) * 8]))
                                      : 0xfffffff0u;
    std::uint32_t d[4] = {};
    ldsm<Count, Transpose>(d, address);
    for (int j = 0; j < 4; ++j) out[4 * lane + j] = d[j];
}

__global__ void misaligned_ldmatrix(std::uint32_t* out) {
    __shared__ __align__(16) std::uint16_t rows[8 * 8 + 8];
    std::uint32_t d[4];
    ldsm<1, false>(d, static_cast<std::uint32_t>(__cvta_generic_to_shared(&rows[8 * (threadIdx.x % 8) + 1])));
    out[threadIdx.x] = d[0];
}

template <int Count, bool Transpose>
void check_ldmatrix() {
    std::uint32_t* out;
    ASSERT_EQ(cudaMalloc(&out, 32 * 4 * 4), cudaSuccess);
    load_matrices<Count, Transpose><<<1, 32>>>(out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<std::uint32_t> d(32 * 4);
    cudaMemcpy(d.data(), out, d.size() * 4, cudaMemcpyDeviceToHost);
    cudaFree(out);
    const CuteLayout& cute = Transpose ? cute_ldsm_t_x4 : cute_ldsm_n_x4;
    for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < Count; ++j)
            for (int h = 0; h < 2; ++h) {
                const std::uint16_t got = std::uint16_t(d[4 * lane + j] >> (16 * h));
                // PTX ISA.
                const Coord at = isa_ldmatrix(lane, h, Transpose);
                EXPECT_EQ(got, element(j, at.row, at.col)) << "lane " << lane << ", registre " << j << ", moitié " << h;
                // CuTe : bit de la valeur (16 bits par moitié, 32 par registre) → bit des lignes
                // bout à bout ; ligne = bit / 128, élément = (bit % 128) / 16.
                const int bit = cute(lane, 16 * h + 32 * j);
                EXPECT_EQ(got, element(bit / 128 / 8, bit / 128 % 8, bit % 128 / 16)) << "lane " << lane;
            }
}

// ---- cp.async -------------------------------------------------------------------------------

__device__ __forceinline__ void cp_async_ca(std::uint32_t destination, const void* source, int) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(destination), "l"(source));
}
__device__ __forceinline__ void cp_async_ca8(std::uint32_t destination, const void* source) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(destination), "l"(source));
}
__device__ __forceinline__ void cp_async_cg(std::uint32_t destination, const void* source, int source_bytes) {
    // Forme « zfill » de CUTLASS : src-size octets lus, le reste mis à zéro.
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(destination), "l"(source),
                 "r"(source_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_all;\n" ::); }

// Trois groupes : 16 octets dont 12 lus, 8 octets, 4 octets ; on observe ce qui est arrivé
// après chaque attente.
__global__ void async_groups(const std::uint32_t* source, std::uint32_t* seen) {
    __shared__ __align__(16) std::uint32_t tile[8];
    for (int i = 0; i < 8; ++i) tile[i] = 0xeeeeeeeeu;
    const std::uint32_t base = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile));
    cp_async_cg(base, source, 12);
    cp_async_commit();
    cp_async_ca8(base + 16, source + 4);
    cp_async_commit();
    cp_async_ca(base + 24, source + 6, 4);
    cp_async_commit();
    cp_async_wait<2>();  // le premier groupe seulement
    for (int i = 0; i < 8; ++i) seen[i] = tile[i];
    cp_async_wait<0>();
    for (int i = 0; i < 8; ++i) seen[8 + i] = tile[i];
    tile[0] = 0;
    cp_async_ca(base, source + 7, 4);  // groupe ouvert, fermé par wait_all
    cp_async_wait_all();
    seen[16] = tile[0];
}

__global__ void cp_async_to_global(std::uint32_t* target, const std::uint32_t* source) {
    // Une adresse « partagée » qui n'en est pas une : la troncature d'un pointeur global.
    cp_async_ca(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(target)), source, 4);
}

}  // namespace

TEST(PtxLdmatrix, X1X2X4AgainstIsaAndCute) {
    check_ldmatrix<1, false>();
    check_ldmatrix<2, false>();
    check_ldmatrix<4, false>();
}

TEST(PtxLdmatrix, TransposedAgainstIsaAndCute) {
    check_ldmatrix<1, true>();
    check_ldmatrix<2, true>();
    check_ldmatrix<4, true>();
}

TEST(PtxLdmatrix, MisalignedRowIsDiagnosed) {
    std::uint32_t* out;
    ASSERT_EQ(cudaMalloc(&out, 32 * 4), cudaSuccess);
    simt::set_quiet(true);
    misaligned_ldmatrix<<<1, 32>>>(out);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    const std::string diagnostic = simt::last_diagnostic();
    EXPECT_NE(diagnostic.find("ldmatrix.sync.aligned.m8n8.x1.shared.b16"), std::string::npos) << diagnostic;
    EXPECT_NE(diagnostic.find("n'est pas alignée sur 16 octets"), std::string::npos) << diagnostic;
    simt::set_quiet(false);
    cudaDeviceReset();
    cudaFree(out);
}

TEST(PtxCpAsync, GroupsSourceSizeAndWaits) {
    const std::vector<std::uint32_t> host{1, 2, 3, 4, 5, 6, 7, 8};
    std::uint32_t *source, *seen;
    ASSERT_EQ(cudaMalloc(&source, 8 * 4), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&seen, 17 * 4), cudaSuccess);
    cudaMemcpy(source, host.data(), 8 * 4, cudaMemcpyHostToDevice);
    async_groups<<<1, 1>>>(source, seen);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<std::uint32_t> v(17);
    cudaMemcpy(v.data(), seen, v.size() * 4, cudaMemcpyDeviceToHost);
    const std::uint32_t e = 0xeeeeeeeeu;
    // Après wait_group 2 : le premier groupe (12 octets lus, 4 mis à zéro) seul.
    EXPECT_EQ(v, (std::vector<std::uint32_t>{1, 2, 3, 0, e, e, e, e, 1, 2, 3, 0, 5, 6, 7, e, 8}));
    cudaFree(source);
    cudaFree(seen);
}

TEST(PtxCpAsync, DestinationOutsideSharedMemoryIsDiagnosed) {
    std::uint32_t *source, *target;
    ASSERT_EQ(cudaMalloc(&source, 16), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&target, 16), cudaSuccess);
    simt::set_quiet(true);
    cp_async_to_global<<<1, 1>>>(target, source);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    const std::string diagnostic = simt::last_diagnostic();
    EXPECT_NE(diagnostic.find("hors de la mémoire partagée du bloc"), std::string::npos) << diagnostic;
    EXPECT_NE(diagnostic.find("test_ptx_copy.cu:"), std::string::npos) << diagnostic;
    simt::set_quiet(false);
    cudaDeviceReset();
    cudaFree(source);
    cudaFree(target);
}
