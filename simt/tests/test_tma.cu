// TMA : l'encodeur de cartes de tenseur obtenu comme sur GPU (cudaGetDriverEntryPointByVersion),
// ses refus, les chargements 2D et 3D dans chaque mode de swizzle, le remplissage hors limites,
// l'écriture, la copie en bloc à une dimension et un producteur qui charge par le TMA pour des
// warps consommateurs.
//
// La disposition attendue en mémoire partagée est calculée ici de deux façons indépendantes :
// - PTX ISA, « Tensor copy » / modes de swizzle : le bloc de 16 octets d'indice c à l'intérieur
//   d'un empan de 32, 64 ou 128 octets est échangé avec le bloc c ^ (r mod n), où r est l'indice
//   de la ligne de 128 octets et n le nombre de blocs de l'empan (le motif se répète tous les
//   256, 512 ou 1 024 octets) ;
// - CuTe, include/cute/swizzle.hpp et include/cute/atom/copy_traits_sm90_tma_swizzle.hpp : les
//   modes 32B, 64B et 128B sont Swizzle<B, 4, 3> avec B = 1, 2, 3, soit, sur l'adresse en octets,
//   « ZZZ ^= YYY » avec les bits [4, 4 + B) pour ZZZ et [7, 7 + B) pour YYY.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include "quiet_fixture.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using testing::HasSubstr;

namespace tma_test {

constexpr unsigned kTileBytes = 8192;

// Un thread initialise la barrière, annonce les octets et lance la copie ; tous attendent, puis
// recopient les octets de la tuile partagée, tels quels, vers out.
__global__ void load_tile(const __grid_constant__ CUtensorMap map, int c0, int c1, int c2, unsigned rank,
                          unsigned bytes, unsigned char* out) {
    __shared__ __align__(1024) unsigned char tile[kTileBytes];
    __shared__ std::uint64_t bar;
    for (unsigned i = threadIdx.x; i < kTileBytes; i += blockDim.x) tile[i] = 0xee;
    if (threadIdx.x == 0) {
        simt::ptx::prefetch_tensormap(&map);
        simt::ptx::mbarrier_init(&bar, 1);
        simt::ptx::fence_proxy_async();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        simt::ptx::mbarrier_arrive_expect_tx(&bar, bytes);
        if (rank == 2) simt::ptx::cp_async_bulk_tensor_load(tile, &map, &bar, {c0, c1});
        else simt::ptx::cp_async_bulk_tensor_load(tile, &map, &bar, {c0, c1, c2});
    }
    while (!simt::ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    for (unsigned i = threadIdx.x; i < kTileBytes; i += blockDim.x) out[i] = tile[i];
}

// Les threads écrivent la tuile partagée (octets donnés par l'hôte), puis un thread l'écrit par le TMA.
__global__ void store_tile(const __grid_constant__ CUtensorMap map, int c0, int c1, const unsigned char* in) {
    __shared__ __align__(1024) unsigned char tile[kTileBytes];
    for (unsigned i = threadIdx.x; i < kTileBytes; i += blockDim.x) tile[i] = in[i];
    simt::ptx::fence_proxy_async();
    __syncthreads();
    if (threadIdx.x == 0) {
        simt::ptx::cp_async_bulk_tensor_store(&map, {c0, c1}, tile);
        simt::ptx::cp_async_bulk_commit_group();
        simt::ptx::cp_async_bulk_wait_group(0);
    }
}

__global__ void bulk_copy(const int* in, int* out) {
    __shared__ __align__(16) int buffer[64];
    __shared__ std::uint64_t bar;
    if (threadIdx.x == 0) {
        simt::ptx::mbarrier_init(&bar, 1);
        simt::ptx::mbarrier_arrive_expect_tx(&bar, sizeof buffer);
        simt::ptx::cp_async_bulk_load(buffer, in, sizeof buffer, &bar);
    }
    while (!simt::ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    out[threadIdx.x] = 2 * buffer[threadIdx.x];
}

// Producteur et consommateurs sur deux étages : le warp 0 (un thread) charge une tuile de 16×16
// entiers par étape ; les warps 1 à 3 attendent l'étage plein, additionnent leur part de la
// tuile, puis libèrent l'étage (une arrivée par warp).
__global__ void pipeline(const __grid_constant__ CUtensorMap map, unsigned steps, int* sums) {
    constexpr unsigned kStages = 2;
    __shared__ __align__(128) int stage[kStages][16 * 16];
    __shared__ std::uint64_t full[kStages];
    __shared__ std::uint64_t empty[kStages];
    const unsigned warp = threadIdx.x / 32;
    const unsigned lane = threadIdx.x % 32;
    if (threadIdx.x == 0)
        for (unsigned s = 0; s < kStages; ++s) {
            simt::ptx::mbarrier_init(&full[s], 1);
            simt::ptx::mbarrier_init(&empty[s], 3);
        }
    __syncthreads();
    if (warp == 0) {
        if (lane == 0)
            for (unsigned k = 0; k < steps; ++k) {
                const unsigned s = k % kStages;
                if (k >= kStages)
                    while (!simt::ptx::mbarrier_try_wait_parity(&empty[s], (k / kStages - 1) % 2)) {
                    }
                simt::ptx::mbarrier_arrive_expect_tx(&full[s], sizeof stage[s]);
                simt::ptx::cp_async_bulk_tensor_load(stage[s], &map, &full[s], {0, int(16 * k)});
            }
        return;
    }
    int sum = 0;
    for (unsigned k = 0; k < steps; ++k) {
        const unsigned s = k % kStages;
        while (!simt::ptx::mbarrier_try_wait_parity(&full[s], (k / kStages) % 2)) {
        }
        for (unsigned i = threadIdx.x - 32; i < 16 * 16; i += 96) sum += stage[s][i];
        __syncwarp();
        if (lane == 0) simt::ptx::mbarrier_arrive(&empty[s]);
    }
    sums[threadIdx.x - 32] = sum;
}

// Une carte qui n'a pas été encodée par cuTensorMapEncodeTiled.
__global__ void forged_map(const __grid_constant__ CUtensorMap map) {
    __shared__ __align__(128) int tile[64];
    __shared__ std::uint64_t bar;
    simt::ptx::mbarrier_init(&bar, 1);
    simt::ptx::cp_async_bulk_tensor_load(tile, &map, &bar, {0, 0});
}

// La destination d'un chargement doit être en mémoire partagée.
__global__ void load_to_global(const __grid_constant__ CUtensorMap map, int* destination) {
    __shared__ std::uint64_t bar;
    simt::ptx::mbarrier_init(&bar, 1);
    simt::ptx::cp_async_bulk_tensor_load(destination, &map, &bar, {0, 0});
}

}  // namespace tma_test

namespace {

PFN_cuTensorMapEncodeTiled_v12000 encoder() {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult status{};
    EXPECT_EQ(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &status),
              cudaSuccess);
    EXPECT_EQ(status, cudaDriverEntryPointSuccess);
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
}

/** Paramètres d'une carte, modifiables un à un par les tests de refus. */
struct MapRequest {
    CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_UINT32;
    cuuint32_t rank = 2;
    void* address = nullptr;
    cuuint64_t dims[5] = {40, 20, 3, 1, 1};
    cuuint64_t strides[4] = {40 * 4, 40 * 4 * 20, 0, 0};
    cuuint32_t box[5] = {32, 8, 2, 1, 1};
    cuuint32_t element_strides[5] = {1, 1, 1, 1, 1};
    CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
    CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
    CUtensorMapFloatOOBfill fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;

    CUresult encode(CUtensorMap* map) const {
        return encoder()(map, type, rank, address, dims, strides, box, element_strides, interleave, swizzle,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE, fill);
    }
};

/** Le bloc de 16 octets d'un octet de la boîte après swizzle, selon la description du PTX ISA. */
unsigned ptx_swizzled_offset(unsigned offset, unsigned span) {
    if (span == 0) return offset;
    const unsigned chunks = span / 16;
    const unsigned chunk = (offset / 16) % chunks;
    const unsigned row = (offset / 128) % chunks;
    return offset - chunk * 16 + (chunk ^ row) * 16;
}

/** La même chose selon CuTe : Swizzle<B, 4, 3>, ZZZ ^= YYY. */
unsigned cute_swizzled_offset(unsigned offset, unsigned b) {
    const unsigned yyy = ((1u << b) - 1) << 7;
    return offset ^ ((offset & yyy) >> 3);
}

/** Tenseur d'entiers valeur = 1 + x + 100 y + 10000 z ; chargement d'une boîte, octets de la tuile. */
void check_load(unsigned rank, CUtensorMapSwizzle swizzle, int c0, int c1, int c2) {
    MapRequest request;
    request.rank = rank;
    request.swizzle = swizzle;
    const unsigned span = swizzle == CU_TENSOR_MAP_SWIZZLE_NONE ? 0 : 16u << unsigned(swizzle);
    // Boîte : la dimension intérieure remplit l'empan du swizzle (32 octets au moins).
    request.box[0] = (span == 0 ? 64 : span) / 4;
    const unsigned depth = rank == 3 ? request.box[2] : 1;
    const unsigned count = request.dims[0] * request.dims[1] * request.dims[2];
    std::vector<std::uint32_t> host(count);
    for (unsigned z = 0; z < request.dims[2]; ++z)
        for (unsigned y = 0; y < request.dims[1]; ++y)
            for (unsigned x = 0; x < request.dims[0]; ++x)
                host[(z * request.dims[1] + y) * request.dims[0] + x] = 1 + x + 100 * y + 10000 * z;
    std::uint32_t* tensor;
    unsigned char* out;
    ASSERT_EQ(cudaMalloc(&tensor, count * 4), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&out, tma_test::kTileBytes), cudaSuccess);
    cudaMemcpy(tensor, host.data(), count * 4, cudaMemcpyHostToDevice);
    request.address = tensor;
    CUtensorMap map;
    ASSERT_EQ(request.encode(&map), CUDA_SUCCESS) << simt::last_diagnostic();
    const unsigned bytes = request.box[0] * request.box[1] * depth * 4;
    tma_test::load_tile<<<1, 64>>>(map, c0, c1, c2, rank, bytes, out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    std::vector<unsigned char> tile(tma_test::kTileBytes);
    cudaMemcpy(tile.data(), out, tile.size(), cudaMemcpyDeviceToHost);
    unsigned b = unsigned(swizzle);
    for (unsigned z = 0; z < depth; ++z)
        for (unsigned y = 0; y < request.box[1]; ++y)
            for (unsigned x = 0; x < request.box[0]; ++x) {
                const long gx = c0 + long(x), gy = c1 + long(y), gz = rank == 3 ? c2 + long(z) : 0;
                const bool inside = gx >= 0 && gx < long(request.dims[0]) && gy >= 0 && gy < long(request.dims[1]) &&
                                    gz >= 0 && gz < long(request.dims[2]);
                const std::uint32_t expected = inside ? 1 + gx + 100 * gy + 10000 * gz : 0;
                const unsigned offset = ((z * request.box[1] + y) * request.box[0] + x) * 4;
                const unsigned placed = ptx_swizzled_offset(offset, span);
                ASSERT_EQ(placed, b == 0 ? offset : cute_swizzled_offset(offset, b));
                std::uint32_t seen;
                std::memcpy(&seen, &tile[placed], 4);
                ASSERT_EQ(seen, expected) << "x=" << x << " y=" << y << " z=" << z << " swizzle=" << b;
            }
    for (unsigned i = bytes; i < tma_test::kTileBytes; ++i) ASSERT_EQ(tile[i], 0xee) << "octet " << i << " hors de la boîte";
    cudaFree(tensor);
    cudaFree(out);
}

}  // namespace

class Tma : public QuietDiagnostics {};

TEST_F(Tma, EntryPointGivesTheEncoderOnly) {
    EXPECT_NE(encoder(), nullptr);
    void* function = &function;
    cudaDriverEntryPointQueryResult status{};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // l'ancienne forme reste servie
    EXPECT_EQ(cudaGetDriverEntryPoint("cuMemAlloc", &function, cudaEnableDefault, &status), cudaSuccess);
#pragma GCC diagnostic pop
    EXPECT_EQ(function, nullptr);
    EXPECT_EQ(status, cudaDriverEntryPointSymbolNotFound);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("« cuMemAlloc » n'est pas fournie par l'émulateur"));
    EXPECT_EQ(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 11080, cudaEnableDefault, &status),
              cudaSuccess);
    EXPECT_EQ(status, cudaDriverEntryPointVersionNotSufficent);
}

TEST_F(Tma, EncoderRefusesWhatTheDriverRefuses) {
    alignas(16) static std::uint32_t tensor[40 * 20 * 3 + 4];
    struct Case {
        const char* name;
        void (*change)(MapRequest&);
        const char* message;
    };
    const Case cases[] = {
        {"rang 0", [](MapRequest& r) { r.rank = 0; }, "rang 0 hors de [1, 5]"},
        {"rang 6", [](MapRequest& r) { r.rank = 6; }, "rang 6 hors de [1, 5]"},
        {"adresse", [](MapRequest& r) { r.address = static_cast<char*>(r.address) + 4; },
         "l'adresse globale doit être alignée sur 16 octets"},
        {"pas", [](MapRequest& r) { r.strides[0] = 40 * 4 + 8; }, "globalStrides[0] = 168 octets, pas un multiple de 16"},
        {"pas énorme", [](MapRequest& r) { r.strides[0] = 1ull << 40; }, "pas sous 2^40"},
        {"dimension", [](MapRequest& r) { r.dims[1] = 0; }, "globalDim[1] = 0 hors de [1, 2^32]"},
        {"boîte", [](MapRequest& r) { r.box[1] = 257; }, "boxDim[1] = 257 hors de [1, 256]"},
        {"intérieur", [](MapRequest& r) { r.box[0] = 6; r.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; },
         "24 octets (boxDim[0] × taille d'un élément), pas un multiple de 16"},
        {"swizzle 32B", [](MapRequest& r) { r.box[0] = 16; r.swizzle = CU_TENSOR_MAP_SWIZZLE_32B; },
         "64 octets, plus que les 32 octets du swizzle"},
        {"swizzle 64B", [](MapRequest& r) { r.box[0] = 32; r.swizzle = CU_TENSOR_MAP_SWIZZLE_64B; },
         "128 octets, plus que les 64 octets du swizzle"},
        {"swizzle 128B", [](MapRequest& r) { r.box[0] = 36; }, "144 octets, plus que les 128 octets du swizzle"},
        {"pas d'élément", [](MapRequest& r) { r.element_strides[1] = 9; }, "elementStrides[1] = 9 hors de [1, 8]"},
        // Un type hors de l'énumération ne s'écrit pas en C++ sans comportement indéfini (UBSan) :
        // le refus testé est celui des types compactés, que simt ne modélise pas.
        {"type", [](MapRequest& r) { r.type = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B; }, "types compactés 16U4/16U6"},
        {"NaN entier", [](MapRequest& r) { r.fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA; },
         "le remplissage par NaN exige un type d'élément flottant"},
        {"entrelacement", [](MapRequest& r) { r.interleave = CU_TENSOR_MAP_INTERLEAVE_32B; },
         "l'entrelacement 16B/32B n'est pas modélisé par simt"},
    };
    CUtensorMap map;
    MapRequest valid;
    valid.address = tensor;
    ASSERT_EQ(valid.encode(&map), CUDA_SUCCESS) << simt::last_diagnostic();
    for (const Case& c : cases) {
        simt::clear_diagnostic();
        MapRequest request = valid;
        c.change(request);
        EXPECT_EQ(request.encode(&map), CUDA_ERROR_INVALID_VALUE) << c.name;
        EXPECT_THAT(simt::last_diagnostic(), AllOf(HasSubstr("cuTensorMapEncodeTiled refuse la carte"),
                                                   HasSubstr(c.message)))
            << c.name;
    }
}

TEST_F(Tma, Load2DInEachSwizzleMode) {
    for (CUtensorMapSwizzle swizzle : {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B,
                                       CU_TENSOR_MAP_SWIZZLE_128B})
        check_load(2, swizzle, 0, 4, 0);
}

TEST_F(Tma, Load3DInEachSwizzleMode) {
    for (CUtensorMapSwizzle swizzle : {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B,
                                       CU_TENSOR_MAP_SWIZZLE_128B})
        check_load(3, swizzle, 8, 2, 1);
}

TEST_F(Tma, OutOfBoundsElementsAreZero) {
    check_load(2, CU_TENSOR_MAP_SWIZZLE_128B, -5, -3, 0);  // coordonnées négatives
    check_load(2, CU_TENSOR_MAP_SWIZZLE_64B, 24, 16, 0);   // au-delà du bord droit et du bas
    check_load(3, CU_TENSOR_MAP_SWIZZLE_NONE, 30, 18, 2);  // la boîte déborde en z
}

TEST_F(Tma, OutOfBoundsFloatsCanBeNaN) {
    alignas(16) static float tensor[16 * 4];
    for (int i = 0; i < 16 * 4; ++i) tensor[i] = float(i);
    float* device;
    unsigned char* out;
    ASSERT_EQ(cudaMalloc(&device, sizeof tensor), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&out, tma_test::kTileBytes), cudaSuccess);
    cudaMemcpy(device, tensor, sizeof tensor, cudaMemcpyHostToDevice);
    MapRequest request;
    request.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    request.address = device;
    request.dims[0] = 16;
    request.dims[1] = 4;
    request.strides[0] = 64;
    request.box[0] = 8;
    request.box[1] = 4;
    request.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    request.fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
    CUtensorMap map;
    ASSERT_EQ(request.encode(&map), CUDA_SUCCESS) << simt::last_diagnostic();
    tma_test::load_tile<<<1, 32>>>(map, 12, 1, 0, 2, 8 * 4 * 4, out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    float tile[32];
    cudaMemcpy(tile, out, sizeof tile, cudaMemcpyDeviceToHost);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 8; ++x) {
            const float seen = tile[y * 8 + x];
            if (12 + x < 16 && 1 + y < 4) EXPECT_EQ(seen, float((1 + y) * 16 + 12 + x));
            else EXPECT_TRUE(std::isnan(seen)) << x << "," << y;
        }
    cudaFree(device);
    cudaFree(out);
}

TEST_F(Tma, StoreWritesOnlyInsideTheTensor) {
    // Tenseur 40×20 d'entiers à -1 ; boîte 32×8 au swizzle 128B écrite en (20, 16) : seuls
    // 20×4 éléments sont dans le tenseur.
    MapRequest request;
    std::uint32_t* tensor;
    unsigned char* in;
    ASSERT_EQ(cudaMalloc(&tensor, 40 * 20 * 4), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&in, tma_test::kTileBytes), cudaSuccess);
    cudaMemset(tensor, 0xff, 40 * 20 * 4);
    std::vector<unsigned char> tile(tma_test::kTileBytes, 0);
    for (unsigned y = 0; y < 8; ++y)
        for (unsigned x = 0; x < 32; ++x) {
            const std::uint32_t value = 7 + x + 1000 * y;
            std::memcpy(&tile[ptx_swizzled_offset((y * 32 + x) * 4, 128)], &value, 4);
        }
    cudaMemcpy(in, tile.data(), tile.size(), cudaMemcpyHostToDevice);
    request.address = tensor;
    CUtensorMap map;
    ASSERT_EQ(request.encode(&map), CUDA_SUCCESS) << simt::last_diagnostic();
    tma_test::store_tile<<<1, 64>>>(map, 20, 16, in);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    std::vector<std::uint32_t> host(40 * 20);
    cudaMemcpy(host.data(), tensor, host.size() * 4, cudaMemcpyDeviceToHost);
    for (unsigned y = 0; y < 20; ++y)
        for (unsigned x = 0; x < 40; ++x) {
            const bool written = x >= 20 && y >= 16;
            EXPECT_EQ(host[y * 40 + x], written ? 7 + (x - 20) + 1000 * (y - 16) : 0xffffffffu) << x << "," << y;
        }
    cudaFree(tensor);
    cudaFree(in);
}

TEST_F(Tma, BulkCopyCompletesTheTransaction) {
    std::vector<int> host(64);
    for (int i = 0; i < 64; ++i) host[i] = i * 3;
    int *in, *out;
    ASSERT_EQ(cudaMalloc(&in, 64 * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&out, 64 * sizeof(int)), cudaSuccess);
    cudaMemcpy(in, host.data(), 64 * sizeof(int), cudaMemcpyHostToDevice);
    tma_test::bulk_copy<<<1, 64>>>(in, out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    cudaMemcpy(host.data(), out, 64 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(host[i], 6 * i);
    cudaFree(in);
    cudaFree(out);
}

TEST_F(Tma, ProducerWarpFeedsConsumerWarps) {
    constexpr unsigned kSteps = 5;
    std::vector<int> host(16 * 16 * kSteps);
    for (unsigned i = 0; i < host.size(); ++i) host[i] = int(i % 97);
    int *tensor, *sums;
    ASSERT_EQ(cudaMalloc(&tensor, host.size() * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&sums, 96 * sizeof(int)), cudaSuccess);
    cudaMemcpy(tensor, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
    MapRequest request;
    request.type = CU_TENSOR_MAP_DATA_TYPE_INT32;
    request.address = tensor;
    request.dims[0] = 16;
    request.dims[1] = 16 * kSteps;
    request.strides[0] = 64;
    request.box[0] = 16;
    request.box[1] = 16;
    request.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    CUtensorMap map;
    ASSERT_EQ(request.encode(&map), CUDA_SUCCESS) << simt::last_diagnostic();
    tma_test::pipeline<<<1, 128>>>(map, kSteps, sums);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    std::vector<int> seen(96);
    cudaMemcpy(seen.data(), sums, 96 * sizeof(int), cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < 96; ++t) {
        int expected = 0;
        for (unsigned k = 0; k < kSteps; ++k)
            for (unsigned i = t; i < 256; i += 96) expected += host[k * 256 + i];
        EXPECT_EQ(seen[t], expected) << t;
    }
    cudaFree(tensor);
    cudaFree(sums);
}

TEST_F(Tma, ForgedTensorMapIsReported) {
    CUtensorMap map;
    std::memset(&map, 0, sizeof map);
    tma_test::forged_map<<<1, 1>>>(map);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                HasSubstr("la carte de tenseur n'a pas été écrite par cuTensorMapEncodeTiled"));
}

TEST_F(Tma, LoadOutsideSharedMemoryIsReported) {
    int* tensor;
    ASSERT_EQ(cudaMalloc(&tensor, 40 * 20 * 4 + 1024), cudaSuccess);
    MapRequest request;
    request.address = tensor;
    CUtensorMap map;
    ASSERT_EQ(request.encode(&map), CUDA_SUCCESS) << simt::last_diagnostic();
    tma_test::load_to_global<<<1, 1>>>(map, tensor + 256);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("destination hors de la mémoire partagée du bloc (1024 octets)"));
    cudaFree(tensor);
}
