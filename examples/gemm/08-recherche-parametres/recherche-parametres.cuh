/**
 * @file
 * @brief Étape 8 de l'échelle GEMM : un noyau de tuilage 2D vectorisé dont les tailles de
 *        tuiles sont des paramètres, pour que la recherche de paramètres puisse les balayer.
 */
#pragma once

#include "gemm/common/kernel.cuh"

#include <string>

namespace noyaux::gemm {

/** @brief Nombre de threads d'un bloc : un par sous-tuile TM×TN de la tuile BM×BN. */
template <int BM, int BN, int TM, int TN>
inline constexpr int tunable_threads = (BM / TM) * (BN / TN);

/**
 * @brief Vrai si la configuration est réalisable : tuiles multiples des sous-tuiles, accès de
 *        128 bits, chargements qui couvrent exactement les tuiles, mémoire partagée ≤ 48 Kio.
 */
template <int BM, int BN, int BK, int TM, int TN>
__host__ __device__ constexpr bool tunable_config_is_valid() {
    constexpr int threads = tunable_threads<BM, BN, TM, TN>;
    constexpr int a_rows_per_pass = threads / (BK / 4);
    constexpr int b_rows_per_pass = threads / (BN / 4);
    constexpr int shared_bytes = 4 * (BK * (BM + 4) + BK * BN);
    return BM % TM == 0 && BN % TN == 0 && TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0 &&
           threads >= 32 && threads <= 1024 && threads % 32 == 0 && threads >= BK / 4 &&
           threads >= BN / 4 && a_rows_per_pass <= BM && BM % a_rows_per_pass == 0 &&
           b_rows_per_pass <= BK && BK % b_rows_per_pass == 0 && shared_bytes <= 48 * 1024;
}

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C en tuiles BM×BN×BK, chaque thread calculant TM×TN éléments.
 *
 * C'est le noyau de l'étape 6 (accès de 128 bits, A transposée en mémoire partagée, produit
 * extérieur en registres), avec une marge de 4 flottants par ligne de la tuile de A pour que
 * ses écritures transposées ne se heurtent pas (étape 7), et dont chaque taille est un
 * paramètre de patron : le programme de balayage en instancie plusieurs.
 */
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__(tunable_threads<BM, BN, TM, TN>)
    sgemm_tunable(int m, int n, int k, float alpha, const float* __restrict__ a,
                  const float* __restrict__ b, float beta, float* __restrict__ c) {
    static_assert(tunable_config_is_valid<BM, BN, BK, TM, TN>(), "configuration irréalisable");
    constexpr int THREADS = tunable_threads<BM, BN, TM, TN>;
    constexpr int A_PITCH = BM + 4;  // garde les lignes alignées sur 16 octets
    __shared__ __align__(16) float a_tile[BK * A_PITCH];  // transposée : [kk * A_PITCH + ligne]
    __shared__ __align__(16) float b_tile[BK * BN];

    const int thread_row = threadIdx.x / (BN / TN);
    const int thread_col = threadIdx.x % (BN / TN);
    a += blockIdx.y * BM * k;
    b += blockIdx.x * BN;
    c += blockIdx.y * BM * n + blockIdx.x * BN;

    const int a_row = threadIdx.x / (BK / 4), a_col = threadIdx.x % (BK / 4) * 4;
    const int b_row = threadIdx.x / (BN / 4), b_col = threadIdx.x % (BN / 4) * 4;
    constexpr int A_ROWS_PER_PASS = THREADS / (BK / 4);
    constexpr int B_ROWS_PER_PASS = THREADS / (BN / 4);

    float accumulators[TM * TN] = {};
    alignas(16) float a_values[TM];
    alignas(16) float b_values[TN];

    for (int tile = 0; tile < k; tile += BK) {
        for (int row = 0; row < BM; row += A_ROWS_PER_PASS) {
            const float4 v = *reinterpret_cast<const float4*>(&a[(a_row + row) * k + a_col]);
            a_tile[(a_col + 0) * A_PITCH + a_row + row] = v.x;
            a_tile[(a_col + 1) * A_PITCH + a_row + row] = v.y;
            a_tile[(a_col + 2) * A_PITCH + a_row + row] = v.z;
            a_tile[(a_col + 3) * A_PITCH + a_row + row] = v.w;
        }
        for (int row = 0; row < BK; row += B_ROWS_PER_PASS)
            *reinterpret_cast<float4*>(&b_tile[(b_row + row) * BN + b_col]) =
                *reinterpret_cast<const float4*>(&b[(b_row + row) * n + b_col]);
        __syncthreads();

#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int i = 0; i < TM; i += 4)
                *reinterpret_cast<float4*>(&a_values[i]) =
                    *reinterpret_cast<const float4*>(&a_tile[kk * A_PITCH + thread_row * TM + i]);
#pragma unroll
            for (int j = 0; j < TN; j += 4)
                *reinterpret_cast<float4*>(&b_values[j]) =
                    *reinterpret_cast<const float4*>(&b_tile[kk * BN + thread_col * TN + j]);
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) accumulators[i * TN + j] += a_values[i] * b_values[j];
        }
        __syncthreads();
        a += BK;
        b += BK * n;
    }

#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
            float4* out = reinterpret_cast<float4*>(&c[(thread_row * TM + i) * n + thread_col * TN + j]);
            float4 value = *out;
            value.x = alpha * accumulators[i * TN + j + 0] + beta * value.x;
            value.y = alpha * accumulators[i * TN + j + 1] + beta * value.y;
            value.z = alpha * accumulators[i * TN + j + 2] + beta * value.z;
            value.w = alpha * accumulators[i * TN + j + 3] + beta * value.w;
            *out = value;
        }
    (void)m;  // la forme est garantie multiple des tuiles par le lanceur
}
// --8<-- [end:noyau]

/** @brief Une configuration de l'étape 8, au format attendu par le lanceur et les tests. */
template <int BM, int BN, int BK, int TM, int TN>
struct TunableKernel {
    /** @brief Le noyau instancié pour cette configuration. */
    static constexpr auto kernel = sgemm_tunable<BM, BN, BK, TM, TN>;
    static constexpr const char* name = "sgemm_tunable";  ///< nom affiché
    static constexpr Shape granularity{BM, BN, BK};       ///< multiples des tuiles
    static constexpr int threads = tunable_threads<BM, BN, TM, TN>;  ///< threads par bloc
    /** @brief Le noyau, pour vérifier qu'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(kernel); }
    /** @brief « BM×BN×BK, TM×TN », pour les tableaux du balayage. */
    static std::string parameters() {
        return std::to_string(BM) + "×" + std::to_string(BN) + "×" + std::to_string(BK) + ", " +
               std::to_string(TM) + "×" + std::to_string(TN);
    }

    /** @brief Un bloc par tuile BM×BN de C. */
    static void launch(const GemmArgs& args, cudaStream_t stream) {
        check_shape<TunableKernel>(args.shape);
        const auto [m, n, k] = args.shape;
        kernel<<<dim3(n / BN, m / BM), threads, 0, stream>>>(m, n, k, args.alpha, args.a, args.b,
                                                            args.beta, args.c);
    }
};

// --8<-- [start:espace]
/** @brief Liste de configurations, parcourue à la compilation par les tests et le balayage. */
template <typename... Kernels>
struct ConfigurationList {};
/** @brief L'espace balayé : chaque configuration est instanciée, testée et mesurée. */
using SweptConfigurations = ConfigurationList<
    TunableKernel<64, 64, 16, 4, 4>, TunableKernel<64, 64, 32, 4, 4>,
    TunableKernel<64, 64, 16, 8, 4>, TunableKernel<128, 64, 16, 8, 4>,
    TunableKernel<64, 128, 16, 4, 8>, TunableKernel<128, 128, 8, 8, 8>,
    TunableKernel<128, 128, 16, 8, 8>, TunableKernel<128, 128, 32, 8, 8>>;
// --8<-- [end:espace]

/**
 * @brief La configuration de l'échelle : celle que Simon Boehm a retenue sur A6000
 *        (128×128×16, 8×8), en attendant un balayage mesuré sur nos GPU.
 */
using TunedKernel = TunableKernel<128, 128, 16, 8, 8>;

}  // namespace noyaux::gemm
