// L'API nvcuda::wmma (<mma.h>) : chaque forme et chaque type de sm_80 contre une référence
// scalaire, dans les quatre dispositions de A et B et les deux de l'accumulateur ; un GEMM
// complet (tuiles en mémoire partagée, quatre warps par bloc), exact sur des entiers petits ;
// x[] élément par élément ; l'arrondi tf32 ; et un diagnostic par faute d'usage.
// Taille des fragments : crt/mma.h du toolkit (spécialisations de fragment<…>, CUDA 13.0).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <mma.h>
#include <simt/control.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

using namespace nvcuda;
using testing::HasSubstr;

// Espace de noms nommé : les noyaux y ont un symbole exporté, que les diagnostics citent.
namespace wmma_tests {

// Type rangé en mémoire pour une entrée : float pour tf32.
template <typename In>
using memory_t = std::conditional_t<std::is_same_v<In, wmma::precision::tf32>, float, In>;

// Une tuile : A et B chargés selon leurs dispositions, C selon c_layout, D = A·B + C rangé
// comme C.
template <int M, int N, int K, typename In, typename LayoutA, typename LayoutB, typename CType, typename DType>
__global__ void one_tile(const memory_t<In>* a, unsigned lda, const memory_t<In>* b, unsigned ldb,
                         const CType* c, DType* d, unsigned ldc, wmma::layout_t c_layout) {
    wmma::fragment<wmma::matrix_a, M, N, K, In, LayoutA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, In, LayoutB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, CType> fc;
    wmma::fragment<wmma::accumulator, M, N, K, DType> fd;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(fc, c, ldc, c_layout);
    wmma::mma_sync(fd, fa, fb, fc);
    wmma::store_matrix_sync(d, fd, ldc, c_layout);
}

// GEMM C = A·B (A : m×k, B : k×n, lignes contiguës), m et n multiples de 32 (la grille les
// couvre), k de 16. Chaque bloc de quatre warps calcule une tuile 32×32 de C ; chaque warp,
// une sous-tuile 16×16. Les tuiles de A (32×16) et de B (16×32) passent par la mémoire
// partagée.
template <typename In>
__global__ void gemm(const In* a, const In* b, float* c, int n, int k) {
    __shared__ __align__(32) In a_tile[32 * 16];
    __shared__ __align__(32) In b_tile[16 * 32];
    const int warp = threadIdx.x / warpSize;
    const int warp_row = warp / 2, warp_col = warp % 2;
    const int block_row = blockIdx.y * 32, block_col = blockIdx.x * 32;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < k; k0 += 16) {
        for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x) {
            a_tile[i] = a[(block_row + i / 16) * k + k0 + i % 16];
            b_tile[i] = b[(k0 + i / 32) * n + block_col + i % 32];
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, In, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, In, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, a_tile + warp_row * 16 * 16, 16);
        wmma::load_matrix_sync(fb, b_tile + warp_col * 16, 32);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncthreads();
    }
    float* out = c + (block_row + warp_row * 16) * n + block_col + warp_col * 16;
    wmma::store_matrix_sync(out, acc, n, wmma::mem_row_major);
}

// D = alpha·C élément par élément sur x[] (aucune hypothèse sur la correspondance), et A
// doublé de même : D = 2·(A·B) + alpha·C.
__global__ void scale_elements(const __half* a, const __half* b, const float* c, float* d, float alpha) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    for (int i = 0; i < acc.num_elements; ++i) acc.x[i] *= alpha;
    for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = fa.x[i] * __float2half(2.0f);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// Chaque lane marque ses éléments d'accumulateur de (lane, i), puis les range.
template <int M, int N, int K>
__global__ void mark_elements(float* d, int* count) {
    wmma::fragment<wmma::accumulator, M, N, K, float> acc;
    const int lane = threadIdx.x % warpSize;
    if (lane == 0) *count = acc.num_elements;
    for (int i = 0; i < acc.num_elements; ++i) acc.x[i] = float(lane * 100 + i);
    wmma::store_matrix_sync(d, acc, N, wmma::mem_row_major);
}

// A rempli de v (converti en tf32 ou non), B de 1, C de 0 : D = 8·tf32(v).
__global__ void tf32_fill(float v, bool convert, float* d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(fa, convert ? wmma::__float_to_tf32(v) : v);
    wmma::fill_fragment(fb, 1.0f);
    wmma::fill_fragment(acc, 0.0f);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

__global__ void float_to_tf32(const float* in, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = wmma::__float_to_tf32(in[i]);
}

// ---- Fautes d'usage --------------------------------------------------------------------

constexpr int kMmaAfterReturnLine = __LINE__ + 9;
__global__ void lane_returns_before_mma(const __half* a, float* d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, a, 16);
    wmma::fill_fragment(acc, 0.0f);
    if (threadIdx.x == 5) return;
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

constexpr int kPartialWarpLine = __LINE__ + 4;
__global__ void partial_warp(float* d) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 1.0f);
    wmma::store_matrix_sync(d + threadIdx.x / warpSize * 256, acc, 16, wmma::mem_row_major);
}

constexpr int kBadLdmLine = __LINE__ + 3;
__global__ void load_with_ldm(const __half* a, unsigned ldm) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> fa;
    wmma::load_matrix_sync(fa, a, ldm);
}

constexpr int kMisalignedLine = __LINE__ + 4;
__global__ void store_at(float* d) {
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::store_matrix_sync(d, acc, 8, wmma::mem_row_major);
}

constexpr int kPerLanePointerLine = __LINE__ + 3;
__global__ void load_per_lane_pointer(const __nv_bfloat16* a) {
    wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::load_matrix_sync(fb, a + (threadIdx.x / 16) * 512, 32);
}

constexpr int kCopiesLine = __LINE__ + 9;
__global__ void modify_one_copy(const __half* a, float* d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, a, 16);
    wmma::fill_fragment(acc, 0.0f);
    if (threadIdx.x == 0) fa.x[0] = __float2half(7.0f);  // suppose que x[0] est un élément précis
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// Les deux moitiés du warp appellent mma_sync, mais pas à la même ligne (.aligned exige la
// même instruction pour tout le warp).
constexpr int kFirstHalfLine = __LINE__ + 10;
constexpr int kSecondHalfLine = __LINE__ + 11;
__global__ void mma_on_two_lines(const __half* a, float* d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, a, 16);
    wmma::fill_fragment(acc, 0.0f);
    if (threadIdx.x < 16)
        wmma::mma_sync(acc, fa, fb, acc);
    else
        wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

}  // namespace wmma_tests

namespace {

using wmma::col_major;
using wmma::row_major;

template <typename T>
T from_float(float v) {
    if constexpr (std::is_same_v<T, __half>) return __float2half(v);
    else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16(v);
    else return v;
}

template <typename T>
float to_float(T v) {
    if constexpr (std::is_same_v<T, __half>) return __half2float(v);
    else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __bfloat162float(v);
    else return v;
}

/** @brief Matrice logique rows×cols (lignes contiguës) rangée en mémoire avec le pas @p ld ; -99 ailleurs. */
template <typename T>
std::vector<T> pack(const std::vector<float>& logical, int rows, int cols, bool column_major, unsigned ld) {
    std::vector<T> memory(std::size_t(column_major ? cols : rows) * ld, from_float<T>(-99.0f));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            memory[column_major ? std::size_t(c) * ld + r : std::size_t(r) * ld + c] =
                from_float<T>(logical[r * cols + c]);
    return memory;
}

template <typename T>
float unpacked(const std::vector<T>& memory, int r, int c, bool column_major, unsigned ld) {
    return to_float(memory[column_major ? std::size_t(c) * ld + r : std::size_t(r) * ld + c]);
}

template <typename T>
T* to_device(const std::vector<T>& host) {
    T* device = nullptr;
    EXPECT_EQ(cudaMalloc(&device, host.size() * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    return device;
}

template <typename T>
std::vector<T> to_host(const T* device, std::size_t count) {
    std::vector<T> host(count);
    EXPECT_EQ(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
}

std::vector<float> small_integers(std::mt19937& random, std::size_t count, int bound) {
    std::uniform_int_distribution<int> value(-bound, bound);
    std::vector<float> out(count);
    for (float& v : out) v = float(value(random));
    return out;
}

/**
 * @brief Une tuile D = A·B + C, comparée à la référence scalaire (somme exacte en double ; sur
 *        des entiers petits, le résultat float est exact), pour les deux dispositions de C.
 */
template <int M, int N, int K, typename In, typename LayoutA, typename LayoutB, typename CType, typename DType>
void check_tile(std::mt19937& random) {
    using Memory = wmma_tests::memory_t<In>;
    constexpr bool a_col = std::is_same_v<LayoutA, col_major>, b_col = std::is_same_v<LayoutB, col_major>;
    // Pas plus longs que la tuile de 16 octets : ldm est bien lu, pas supposé.
    const unsigned lda = (a_col ? M : K) + 16 / sizeof(Memory), ldb = (b_col ? K : N) + 16 / sizeof(Memory);
    const std::vector<float> a = small_integers(random, M * K, 4), b = small_integers(random, K * N, 4),
                             c = small_integers(random, M * N, 16);
    for (const wmma::layout_t c_layout : {wmma::mem_row_major, wmma::mem_col_major}) {
        const bool c_col = c_layout == wmma::mem_col_major;
        SCOPED_TRACE(testing::Message() << "m" << M << "n" << N << "k" << K << ", A " << (a_col ? "col" : "row")
                                        << ", B " << (b_col ? "col" : "row") << ", C " << (c_col ? "col" : "row"));
        const unsigned ldc = (c_col ? M : N) + 8;
        Memory* device_a = to_device(pack<Memory>(a, M, K, a_col, lda));
        Memory* device_b = to_device(pack<Memory>(b, K, N, b_col, ldb));
        CType* device_c = to_device(pack<CType>(c, M, N, c_col, ldc));
        const std::size_t d_count = std::size_t(c_col ? N : M) * ldc;
        DType* device_d = to_device(std::vector<DType>(d_count, from_float<DType>(-99.0f)));
        wmma_tests::one_tile<M, N, K, In, LayoutA, LayoutB, CType, DType>
            <<<1, 32>>>(device_a, lda, device_b, ldb, device_c, device_d, ldc, c_layout);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
        const std::vector<DType> d = to_host(device_d, d_count);
        int wrong = 0;
        for (int r = 0; r < M; ++r)
            for (int col = 0; col < N; ++col) {
                double expected = c[r * N + col];
                for (int k = 0; k < K; ++k) expected += double(a[r * K + k]) * b[k * N + col];
                if (unpacked(d, r, col, c_col, ldc) != float(expected) && wrong++ < 3)
                    ADD_FAILURE() << "D[" << r << "][" << col << "] = " << unpacked(d, r, col, c_col, ldc)
                                  << ", attendu " << expected;
            }
        EXPECT_EQ(wrong, 0);
        // Le bourrage au-delà de la tuile (ldm > largeur) n'est pas touché.
        EXPECT_EQ(to_float(d[c_col ? M : N]), -99.0f);
        for (void* p : {(void*)device_a, (void*)device_b, (void*)device_c, (void*)device_d}) cudaFree(p);
    }
}

/** @brief Les quatre dispositions de A et B. */
template <int M, int N, int K, typename In, typename CType, typename DType>
void check_layouts(std::mt19937& random) {
    check_tile<M, N, K, In, row_major, row_major, CType, DType>(random);
    check_tile<M, N, K, In, row_major, col_major, CType, DType>(random);
    check_tile<M, N, K, In, col_major, row_major, CType, DType>(random);
    check_tile<M, N, K, In, col_major, col_major, CType, DType>(random);
}

/** @brief Entrées __half : les quatre dispositions en float, et les accumulateurs __half. */
template <int M, int N, int K>
void check_half_shape(std::mt19937& random) {
    check_layouts<M, N, K, __half, float, float>(random);
    check_tile<M, N, K, __half, row_major, col_major, __half, __half>(random);
    check_tile<M, N, K, __half, col_major, row_major, float, __half>(random);
    check_tile<M, N, K, __half, row_major, row_major, __half, float>(random);
}

}  // namespace

// Taille des fragments : celle de crt/mma.h (CUDA 13.0), que le code élément par élément sur
// x[] suppose.
TEST(Wmma, FragmentSizesAreThoseOfTheToolkit) {
    EXPECT_EQ((wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, row_major>::num_elements), 16);
    EXPECT_EQ((wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, col_major>::num_elements), 16);
    EXPECT_EQ((wmma::fragment<wmma::accumulator, 16, 16, 16, __half>::num_elements), 8);
    EXPECT_EQ((wmma::fragment<wmma::accumulator, 8, 32, 16, float>::num_elements), 8);
    EXPECT_EQ((wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, row_major>::num_elements), 8);
    EXPECT_EQ((wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, row_major>::num_elements), 16);
    EXPECT_EQ((wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, row_major>::num_elements), 4);
    EXPECT_EQ((wmma::fragment<wmma::matrix_a, 8, 32, 16, __nv_bfloat16, col_major>::num_elements), 4);
    EXPECT_EQ((wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, col_major>::num_elements), 16);
    EXPECT_EQ((wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, row_major>::num_elements), 4);
    EXPECT_EQ((wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, col_major>::num_elements), 4);
    EXPECT_EQ((wmma::fragment<wmma::accumulator, 16, 16, 8, float>::num_elements), 8);
    static_assert(std::is_same_v<wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                                                row_major>::storage_element_type, float>);
    static_assert(sizeof(wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, row_major>::x) == 32);
}

TEST(Wmma, HalfInputsInTheThreeShapes) {
    std::mt19937 random(1);
    check_half_shape<16, 16, 16>(random);
    check_half_shape<32, 8, 16>(random);
    check_half_shape<8, 32, 16>(random);
}

TEST(Wmma, Bfloat16InputsInTheThreeShapes) {
    std::mt19937 random(2);
    check_layouts<16, 16, 16, __nv_bfloat16, float, float>(random);
    check_layouts<32, 8, 16, __nv_bfloat16, float, float>(random);
    check_layouts<8, 32, 16, __nv_bfloat16, float, float>(random);
}

TEST(Wmma, Tf32Inputs) {
    std::mt19937 random(3);
    check_layouts<16, 16, 8, wmma::precision::tf32, float, float>(random);
}

template <typename In>
void check_gemm() {
    constexpr int m = 64, n = 96, k = 48;
    std::mt19937 random(4);
    const std::vector<float> a = small_integers(random, m * k, 3), b = small_integers(random, k * n, 3);
    In* device_a = to_device(pack<In>(a, m, k, false, k));
    In* device_b = to_device(pack<In>(b, k, n, false, n));
    float* device_c = to_device(std::vector<float>(m * n, -99.0f));
    wmma_tests::gemm<In><<<dim3(n / 32, m / 32), 128>>>(device_a, device_b, device_c, n, k);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    const std::vector<float> c = to_host(device_c, m * n);
    int wrong = 0;
    for (int r = 0; r < m; ++r)
        for (int col = 0; col < n; ++col) {
            double expected = 0;
            for (int i = 0; i < k; ++i) expected += double(a[r * k + i]) * b[i * n + col];
            wrong += c[r * n + col] != float(expected);
        }
    EXPECT_EQ(wrong, 0) << "éléments faux sur " << m * n;
    cudaFree(device_a);
    cudaFree(device_b);
    cudaFree(device_c);
}

// Un GEMM 64×96×48 par tuiles en mémoire partagée, quatre warps par bloc, six blocs : exact.
TEST(Wmma, SharedMemoryGemmIsExactOnSmallIntegers) {
    check_gemm<__half>();
    check_gemm<__nv_bfloat16>();
}

// x[] modifié élément par élément, sans rien supposer de la correspondance : D = 2·A·B + 3·C.
// La règle commune des Tensor Cores émulés (simt/tensor_core.hpp) : somme exacte de C et des
// k produits, un seul arrondi. C = 2^24 et seize produits 0,5 : exactement 2^24 + 8,
// représentable. Une somme float terme à terme (l'ancienne règle de wmma) arrondit chaque
// 2^24 + 0,5 à 2^24 (égalité vers le pair) et rend 2^24.
TEST(Wmma, SumIsExactThenRoundedOnce) {
    constexpr int M = 16, N = 16, K = 16;
    std::vector<__half> a(M * K, __float2half(0.0f)), b(K * N, __float2half(0.0f));
    for (int k = 0; k < K; ++k) {
        a[k] = __float2half(0.5f);   // ligne 0 de A
        b[k * N] = __float2half(1.0f);  // colonne 0 de B
    }
    std::vector<float> c(M * N, 0.0f);
    c[0] = 16777216.0f;  // 2^24
    __half* device_a = to_device(a);
    __half* device_b = to_device(b);
    float* device_c = to_device(c);
    float* device_d = to_device(std::vector<float>(M * N, -99.0f));
    wmma_tests::one_tile<M, N, K, __half, row_major, row_major, float, float>
        <<<1, 32>>>(device_a, K, device_b, N, device_c, device_d, N, wmma::mem_row_major);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    const std::vector<float> d = to_host(device_d, M * N);
    EXPECT_EQ(d[0], 16777224.0f);  // 2^24 + 8
    for (int i = 1; i < M * N; ++i) EXPECT_EQ(d[i], 0.0f) << i;
    for (void* q : {(void*)device_a, (void*)device_b, (void*)device_c, (void*)device_d}) cudaFree(q);
}

TEST(Wmma, ElementWiseScalingOfFragments) {
    std::mt19937 random(5);
    const std::vector<float> a = small_integers(random, 256, 4), b = small_integers(random, 256, 4),
                             c = small_integers(random, 256, 16);
    __half* device_a = to_device(pack<__half>(a, 16, 16, false, 16));
    __half* device_b = to_device(pack<__half>(b, 16, 16, true, 16));
    float* device_c = to_device(c);
    float* device_d = to_device(std::vector<float>(256, -99.0f));
    wmma_tests::scale_elements<<<1, 32>>>(device_a, device_b, device_c, device_d, 3.0f);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    const std::vector<float> d = to_host(device_d, 256);
    for (int r = 0; r < 16; ++r)
        for (int col = 0; col < 16; ++col) {
            double expected = 3.0 * c[r * 16 + col];
            for (int k = 0; k < 16; ++k) expected += 2.0 * a[r * 16 + k] * b[k * 16 + col];
            EXPECT_EQ(d[r * 16 + col], float(expected)) << r << ", " << col;
        }
    for (void* p : {(void*)device_a, (void*)device_b, (void*)device_c, (void*)device_d}) cudaFree(p);
}

// Chaque élément d'un accumulateur appartient à exactement une lane et un indice, selon la
// correspondance documentée dans simt/wmma.hpp : x[i] de la lane l est l'élément l·8 + i de
// la tuile, lignes contiguës.
template <int M, int N, int K>
void check_accumulator_mapping() {
    SCOPED_TRACE(testing::Message() << "m" << M << "n" << N << "k" << K);
    float* device_d = to_device(std::vector<float>(M * N, -1.0f));
    int* device_count = to_device(std::vector<int>(1, 0));
    wmma_tests::mark_elements<M, N, K><<<1, 32>>>(device_d, device_count);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    const std::vector<float> d = to_host(device_d, M * N);
    EXPECT_EQ(to_host(device_count, 1)[0], 8);
    std::set<float> seen(d.begin(), d.end());
    EXPECT_EQ(seen.size(), std::size_t(M * N));  // pas d'élément écrit deux fois, aucun oublié
    for (int p = 0; p < M * N; ++p) EXPECT_EQ(d[p], float(p / 8 * 100 + p % 8)) << p;
    cudaFree(device_d);
    cudaFree(device_count);
}

TEST(Wmma, EachAccumulatorElementBelongsToExactlyOneLane) {
    check_accumulator_mapping<16, 16, 16>();
    check_accumulator_mapping<32, 8, 16>();
    check_accumulator_mapping<8, 32, 16>();
    check_accumulator_mapping<16, 16, 8>();
}

// __float_to_tf32 arrondit au plus près, égalités loin de zéro (cvt.rna.tf32.f32) ; les 13
// bits bas du résultat sont nuls.
TEST(Wmma, FloatToTf32RoundsToNearestTiesAway) {
    const auto bits = [](float v) { return std::bit_cast<std::uint32_t>(v); };
    const auto from_bits = [](std::uint32_t v) { return std::bit_cast<float>(v); };
    const std::vector<float> in = {
        1.0f + std::ldexp(1.0f, -11),                              // égalité : vers 1 + 2^-10
        -(1.0f + std::ldexp(1.0f, -11)),                           // idem, négatif
        1.0f + std::ldexp(1.0f, -12),                              // sous la moitié : 1
        1.0f + 3 * std::ldexp(1.0f, -11),                          // égalité : vers 1 + 2^-9
        3.0f,                                                      // exact
        from_bits(0x7f7fffffu),                                    // plus grand float : infini
        from_bits(0x00001000u),                                    // sous-normal, égalité
        INFINITY,
        NAN,
    };
    const std::vector<float> expected = {
        1.0f + std::ldexp(1.0f, -10), -(1.0f + std::ldexp(1.0f, -10)), 1.0f, 1.0f + std::ldexp(1.0f, -9),
        3.0f, INFINITY, from_bits(0x00002000u), INFINITY, NAN,
    };
    const int n = int(in.size());
    float* device_in = to_device(in);
    float* device_out = to_device(std::vector<float>(n, 0.0f));
    wmma_tests::float_to_tf32<<<1, 32>>>(device_in, device_out, n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<float> out = to_host(device_out, n);
    for (int i = 0; i < n; ++i) {
        if (std::isnan(expected[i])) EXPECT_TRUE(std::isnan(out[i])) << i;
        else EXPECT_EQ(bits(out[i]), bits(expected[i])) << i;
        EXPECT_EQ(bits(out[i]) & 0x1fffu, 0u) << i;
    }
    cudaFree(device_in);
    cudaFree(device_out);
}

// Un float non converti : le Tensor Core en ignore les 13 bits bas (tronqué, pas arrondi).
TEST(Wmma, Tf32InputIgnoresTheLow13Bits) {
    const float v = 1.0f + std::ldexp(1.0f, -11);
    float* device_d = to_device(std::vector<float>(256, -1.0f));
    wmma_tests::tf32_fill<<<1, 32>>>(v, false, device_d);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    EXPECT_EQ(to_host(device_d, 256)[17], 8.0f);  // 8 · 1
    wmma_tests::tf32_fill<<<1, 32>>>(v, true, device_d);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    EXPECT_EQ(to_host(device_d, 256)[17], 8.0f + std::ldexp(1.0f, -7));  // 8 · (1 + 2^-10)
    cudaFree(device_d);
}

// ---- Diagnostics : noyau, bloc, thread, ligne, et la règle du guide ----------------------

namespace {

std::string line_of(int line) { return "test_wmma.cu:" + std::to_string(line); }

}  // namespace

/** @brief Une faute d'usage : le noyau fautif lancé, et ce que doit dire son diagnostic. */
struct Misuse {
    const char* name;
    void (*launch)(__half* half, float* out);
    std::vector<std::string> diagnostic;  ///< fragments attendus dans le diagnostic
};

/** @brief Nom du cas dans les messages de GoogleTest. */
void PrintTo(const Misuse& misuse, std::ostream* out) { *out << misuse.name; }

/** @brief Diagnostics silencieux pendant le test ; l'erreur collante est effacée à la fin. */
class WmmaMisuse : public testing::TestWithParam<Misuse> {
protected:
    void SetUp() override {
        simt::set_quiet(true);
        simt::clear_diagnostic();
        half_ = to_device(std::vector<__half>(4096, __float2half(1.0f)));
        float_ = to_device(std::vector<float>(4096, 0.0f));
    }
    void TearDown() override {
        cudaDeviceReset();  // efface l'erreur collante du noyau fautif
        simt::set_quiet(false);
        cudaFree(half_);
        cudaFree(float_);
    }
    __half* half_ = nullptr;
    float* float_ = nullptr;
};

// Chaque faute arrête le noyau (erreur collante) et le diagnostic nomme le noyau, le bloc, le
// thread, l'appel et sa ligne, et la règle enfreinte.
TEST_P(WmmaMisuse, IsDiagnosed) {
    GetParam().launch(half_, float_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    const std::string diagnostic = simt::last_diagnostic();
    for (const std::string& expected : GetParam().diagnostic) EXPECT_THAT(diagnostic, HasSubstr(expected));
}

namespace {

const Misuse kMisuses[] = {
    {"LaneThatReturnsBeforeMmaSync",
     [](__half* half, float* out) { wmma_tests::lane_returns_before_mma<<<1, 32>>>(half, out); },
     {"noyau wmma_tests::lane_returns_before_mma, bloc (0, 0, 0), thread (",
      "wmma::mma_sync (" + line_of(wmma_tests::kMmaAfterReturnLine) + ")",
      "doit être exécutée par les 32 lanes du warp", "la lane 5 a terminé sans l'atteindre"}},
    {"WarpWithMissingLanes", [](__half*, float* out) { wmma_tests::partial_warp<<<1, 48>>>(out); },
     {"noyau wmma_tests::partial_warp, bloc (0, 0, 0), thread (32, 0, 0)",
      "wmma::store_matrix_sync (" + line_of(wmma_tests::kPartialWarpLine) + ")",
      "doit être exécutée par les 32 lanes du warp", "la lane 16 n'existe pas (bloc de 48 threads"}},
    {"LdmNotAMultipleOf16Bytes", [](__half* half, float*) { wmma_tests::load_with_ldm<<<1, 32>>>(half, 20); },
     {"noyau wmma_tests::load_with_ldm, bloc (0, 0, 0), thread (0, 0, 0)",
      "wmma::load_matrix_sync (" + line_of(wmma_tests::kBadLdmLine) + ")",
      "ldm = 20 éléments de 2 octets, soit 40 octets, n'est pas un multiple de 16 octets (8 éléments)",
      "Warp Matrix Functions"}},
    {"PointerNotAlignedOn32Bytes",  // 16 octets après une adresse de cudaMalloc
     [](__half*, float* out) { wmma_tests::store_at<<<1, 32>>>(out + 4); },
     {"noyau wmma_tests::store_at, bloc (0, 0, 0), thread (0, 0, 0)",
      "wmma::store_matrix_sync (" + line_of(wmma_tests::kMisalignedLine) + ")",
      "n'est pas alignée sur 32 octets (256 bits)"}},
    {"ArgumentsThatDifferBetweenLanes",
     [](__half* half, float*) {
         wmma_tests::load_per_lane_pointer<<<1, 32>>>(reinterpret_cast<const __nv_bfloat16*>(half));
     },
     {"noyau wmma_tests::load_per_lane_pointer, bloc (0, 0, 0), thread (16, 0, 0)",
      "wmma::load_matrix_sync (" + line_of(wmma_tests::kPerLanePointerLine) + ")",
      "diffèrent de ceux de la lane 0"}},
    {"RepeatedHalfElementsThatDiffer",
     [](__half* half, float* out) { wmma_tests::modify_one_copy<<<1, 32>>>(half, out); },
     {"noyau wmma_tests::modify_one_copy, bloc (0, 0, 0), thread (16, 0, 0)",
      "wmma::mma_sync (" + line_of(wmma_tests::kCopiesLine) + ")",
      "les copies d'un même élément de la tuile diffèrent"}},
    {"HalvesOfTheWarpAtDifferentLines",
     [](__half* half, float* out) { wmma_tests::mma_on_two_lines<<<1, 32>>>(half, out); },
     {"noyau wmma_tests::mma_on_two_lines, bloc (0, 0, 0), thread (", "opérations de warp discordantes",
      "wmma::mma_sync masque 0xffffffff (" + line_of(wmma_tests::kFirstHalfLine) + ")",
      "wmma::mma_sync masque 0xffffffff (" + line_of(wmma_tests::kSecondHalfLine) + ")"}},
};

}  // namespace

INSTANTIATE_TEST_SUITE_P(Wmma, WmmaMisuse, testing::ValuesIn(kMisuses),
                         [](const testing::TestParamInfo<Misuse>& test) { return std::string(test.param.name); });
