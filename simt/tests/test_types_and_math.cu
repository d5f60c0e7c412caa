// Types vectoriels, demi-précision (__half, __nv_bfloat16), fonctions mathématiques et
// intrinsèques, printf depuis un noyau, et l'horloge clock64.
#include <gtest/gtest.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Lecture et écriture par float4 (16 octets d'un coup), paires d'entiers par make_int2.
__global__ void vector_types(const float4* __restrict__ in, float4* __restrict__ out, int2* pairs) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 v = in[i];
    out[i] = make_float4(v.w, v.z, v.y, v.x + v.y + v.z + v.w);
    pairs[i] = make_int2(i, -i);
}

// Calcul en demi-précision : conversions, opérateurs et intrinsèques.
__global__ void half_precision(const float* in, float* half_out, float* bf16_out, float* half2_out) {
    const int i = threadIdx.x;
    const __half a = __float2half(in[i]);
    const __half b = __float2half(0.5f);
    const __half h = __hadd(a * b, __hmul(a, a)) - b;  // a/2 + a² - 1/2
    half_out[i] = __half2float(h);
    const __nv_bfloat16 x = __float2bfloat16(in[i]);
    const __nv_bfloat16 y = x * __float2bfloat16(4.0f) + __float2bfloat16(1.0f);
    bf16_out[i] = __bfloat162float(y);
    const __half2 pair = __hmul2(__floats2half2_rn(in[i], 2.0f), __floats2half2_rn(3.0f, in[i]));
    half2_out[2 * i] = __low2float(pair);
    half2_out[2 * i + 1] = __high2float(pair);
}

__global__ void math_functions(const float* in, float* out, int* bits) {
    const int i = threadIdx.x;
    const float x = in[i];
    out[4 * i + 0] = sqrtf(x);
    out[4 * i + 1] = __expf(-x);
    out[4 * i + 2] = rsqrtf(x);
    out[4 * i + 3] = max(min(x, 10.0f), 2.0f);
    const unsigned u = static_cast<unsigned>(i * 2654435761u);
    bits[4 * i + 0] = __popc(u);
    bits[4 * i + 1] = __clz(static_cast<int>(u));
    bits[4 * i + 2] = __ffs(static_cast<int>(u));
    bits[4 * i + 3] = min(i, 7) + max(i - 20, 0);
}

// Les surcharges de min et max de CUDA : tailles (size_t), mélanges signé / non signé
// (comparés en non signé), float et double.
__global__ void min_max_overloads(const std::size_t* sizes, std::size_t limit, long long* out,
                                  double* mixed) {
    const int i = threadIdx.x;
    const std::size_t clamped = min(sizes[i], limit);
    const long offset = static_cast<long>(i) - 2;
    out[3 * i + 0] = static_cast<long long>(clamped);
    out[3 * i + 1] = max(offset, 0L);
    out[3 * i + 2] = static_cast<long long>(min(-1, 5u));  // -1 devient 0xffffffff
    mixed[i] = max(0.5f * i, 1.25);
}

__global__ void say_hello(int tag) {
    printf("bloc %u thread %u : %d\n", blockIdx.x, threadIdx.x, tag + static_cast<int>(threadIdx.x));
}

__global__ void measure_clock(long long* samples, float* sink) {
    const long long start = clock64();
    float acc = 0.0f;
    for (int k = 1; k < 2000; ++k) acc += sqrtf(static_cast<float>(k));
    const long long end = clock64();
    samples[2 * threadIdx.x] = start;
    samples[2 * threadIdx.x + 1] = end;
    sink[threadIdx.x] = acc;
}

template <typename T>
std::vector<T> to_host(const T* device, std::size_t count) {
    std::vector<T> host(count);
    cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
}

}  // namespace

TEST(TypesAndMath, VectorTypes) {
    const int n = 64;
    std::vector<float4> host(n);
    for (int i = 0; i < n; ++i) host[i] = make_float4(float(i), 0.5f * i, -1.0f * i, 2.0f);
    float4 *in, *out;
    int2* pairs;
    cudaMalloc(&in, n * sizeof(float4));
    cudaMalloc(&out, n * sizeof(float4));
    cudaMalloc(&pairs, n * sizeof(int2));
    cudaMemcpy(in, host.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
    vector_types<<<2, 32>>>(in, out, pairs);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    const std::vector<float4> result = to_host(out, n);
    const std::vector<int2> p = to_host(pairs, n);
    for (int i = 0; i < n; ++i) {
        const float4 v = host[i];
        EXPECT_EQ(result[i].x, v.w);
        EXPECT_EQ(result[i].y, v.z);
        EXPECT_EQ(result[i].z, v.y);
        EXPECT_EQ(result[i].w, v.x + v.y + v.z + v.w);
        EXPECT_EQ(p[i].x, i);
        EXPECT_EQ(p[i].y, -i);
    }
    cudaFree(in);
    cudaFree(out);
    cudaFree(pairs);
}

TEST(TypesAndMath, HalfAndBfloat16) {
    const int n = 16;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = 0.25f * i - 1.0f;  // exacts dans les deux formats
    float *in, *half_out, *bf16_out, *half2_out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&half_out, n * sizeof(float));
    cudaMalloc(&bf16_out, n * sizeof(float));
    cudaMalloc(&half2_out, 2 * n * sizeof(float));
    cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    half_precision<<<1, n>>>(in, half_out, bf16_out, half2_out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    const std::vector<float> h = to_host(half_out, n), b = to_host(bf16_out, n), h2 = to_host(half2_out, 2 * n);
    for (int i = 0; i < n; ++i) {
        const float a = host[i];
        // Valeurs en seizièmes, petites : exactes en half (11 bits significatifs), et
        // 4a + 1 exact en bfloat16 (8 bits significatifs).
        EXPECT_EQ(h[i], a / 2 + a * a - 0.5f) << a;
        EXPECT_EQ(b[i], 4 * a + 1) << a;
        EXPECT_EQ(h2[2 * i], 3 * a) << a;
        EXPECT_EQ(h2[2 * i + 1], 2 * a) << a;
    }
    // Arrondi au plus proche : 1 + 2⁻¹¹ est à mi-chemin en half, arrondi au pair (1).
    EXPECT_EQ(__half2float(__float2half(1.0f + 1.0f / 2048)), 1.0f);
    EXPECT_EQ(__bfloat162float(__float2bfloat16(1.0f + 3.0f / 256)), 1.0f + 1.0f / 64);
    cudaFree(in);
    cudaFree(half_out);
    cudaFree(bf16_out);
    cudaFree(half2_out);
}

TEST(TypesAndMath, MathFunctionsAndBitIntrinsics) {
    const int n = 32;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = 0.5f + 0.75f * i;
    float* in;
    float* out;
    int* bits;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, 4 * n * sizeof(float));
    cudaMalloc(&bits, 4 * n * sizeof(int));
    cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    math_functions<<<1, n>>>(in, out, bits);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    const std::vector<float> f = to_host(out, 4 * n);
    const std::vector<int> k = to_host(bits, 4 * n);
    for (int i = 0; i < n; ++i) {
        const float x = host[i];
        EXPECT_EQ(f[4 * i + 0], std::sqrt(x)) << x;  // sqrtf est correctement arrondi sur GPU aussi
        EXPECT_NEAR(f[4 * i + 1], std::exp(-x), 2e-6f * std::exp(-x) + 1e-7f) << x;  // __expf : approché
        EXPECT_NEAR(f[4 * i + 2], 1.0f / std::sqrt(x), 4e-7f / std::sqrt(x)) << x;
        EXPECT_EQ(f[4 * i + 3], std::clamp(x, 2.0f, 10.0f)) << x;
        const unsigned u = static_cast<unsigned>(i * 2654435761u);
        EXPECT_EQ(k[4 * i + 0], std::popcount(u)) << i;
        EXPECT_EQ(k[4 * i + 1], std::countl_zero(u)) << i;
        EXPECT_EQ(k[4 * i + 2], u == 0 ? 0 : std::countr_zero(u) + 1) << i;
        EXPECT_EQ(k[4 * i + 3], std::min(i, 7) + std::max(i - 20, 0)) << i;
    }
    // Cas limites de __clz et __ffs, comme sur GPU.
    EXPECT_EQ(__clz(0), 32);
    EXPECT_EQ(__ffs(0), 0);
    EXPECT_EQ(__ffs(static_cast<int>(0x80000000u)), 32);
    cudaFree(in);
    cudaFree(out);
    cudaFree(bits);
}

TEST(TypesAndMath, MinMaxOverloadsLikeCuda) {
    const int n = 6;
    const std::vector<std::size_t> sizes = {0, 7, 100, std::size_t(1) << 40, 31, 32};
    std::size_t* d_sizes;
    long long* out;
    double* mixed;
    cudaMalloc(&d_sizes, n * sizeof(std::size_t));
    cudaMalloc(&out, 3 * n * sizeof(long long));
    cudaMalloc(&mixed, n * sizeof(double));
    cudaMemcpy(d_sizes, sizes.data(), n * sizeof(std::size_t), cudaMemcpyHostToDevice);
    min_max_overloads<<<1, n>>>(d_sizes, 32, out, mixed);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    const std::vector<long long> o = to_host(out, 3 * n);
    const std::vector<double> m = to_host(mixed, n);
    for (int i = 0; i < n; ++i) {
        EXPECT_EQ(o[3 * i + 0], static_cast<long long>(std::min<std::size_t>(sizes[i], 32))) << i;
        EXPECT_EQ(o[3 * i + 1], std::max(i - 2, 0)) << i;
        EXPECT_EQ(o[3 * i + 2], 5) << i;
        EXPECT_EQ(m[i], std::max(0.5 * i, 1.25)) << i;
    }
    cudaFree(d_sizes);
    cudaFree(out);
    cudaFree(mixed);
}

TEST(TypesAndMath, PrintfFromKernel) {
    testing::internal::CaptureStdout();
    say_hello<<<2, 3>>>(40);
    const cudaError_t error = cudaDeviceSynchronize();  // vide le tampon de printf sur GPU
    std::fflush(stdout);
    const std::string output = testing::internal::GetCapturedStdout();
    ASSERT_EQ(error, cudaSuccess);
    std::vector<std::string> lines;
    std::istringstream stream(output);
    for (std::string line; std::getline(stream, line);) lines.push_back(line);
    std::sort(lines.begin(), lines.end());  // ordre entre threads non garanti
    const std::vector<std::string> expected = {
        "bloc 0 thread 0 : 40", "bloc 0 thread 1 : 41", "bloc 0 thread 2 : 42",
        "bloc 1 thread 0 : 40", "bloc 1 thread 1 : 41", "bloc 1 thread 2 : 42"};
    EXPECT_EQ(lines, expected);
}

TEST(TypesAndMath, Clock64Increases) {
    const int threads = 4;
    long long* samples;
    float* sink;
    cudaMalloc(&samples, 2 * threads * sizeof(long long));
    cudaMalloc(&sink, threads * sizeof(float));
    measure_clock<<<1, threads>>>(samples, sink);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    const std::vector<long long> s = to_host(samples, 2 * threads);
    for (int t = 0; t < threads; ++t) {
        EXPECT_GT(s[2 * t], 0) << t;
        EXPECT_GT(s[2 * t + 1], s[2 * t]) << t;
    }
    cudaFree(samples);
    cudaFree(sink);
}
