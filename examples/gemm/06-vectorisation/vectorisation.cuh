/**
 * @file
 * @brief Étape 6 de l'échelle GEMM : le tuilage 2D de l'étape 5, avec des accès de 128 bits
 *        (float4) en mémoire globale comme en mémoire partagée. A est transposée au moment
 *        où on la range en mémoire partagée, pour que la boucle interne lise ses deux tuiles
 *        par blocs de quatre flottants contigus.
 */
#pragma once

#include "gemm/common/kernel.cuh"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace noyaux::gemm {

/** @brief Paramètres et outils propres à l'étape 6. */
namespace vectorized {

// --8<-- [start:parametres]
inline constexpr int block_m = 128;    ///< lignes de C (et de A) traitées par un bloc
inline constexpr int block_n = 128;    ///< colonnes de C (et de B) traitées par un bloc
inline constexpr int block_k = 8;      ///< profondeur d'une tuile de A et de B
inline constexpr int thread_m = 8;     ///< lignes de C calculées par un thread
inline constexpr int thread_n = 8;     ///< colonnes de C calculées par un thread
/** @brief Threads par bloc : un par sous-tuile 8×8 de la tuile 128×128 de C (256). */
inline constexpr int threads = (block_m / thread_m) * (block_n / thread_n);
// --8<-- [end:parametres]

// Un float4 de A et un float4 de B par thread remplissent exactement les deux tuiles.
static_assert(block_m * block_k == 4 * threads && block_k * block_n == 4 * threads);
// La boucle interne découpe les 8 valeurs d'un thread en deux float4.
static_assert(thread_m == 8 && thread_n == 8);

/** @brief Lit quatre flottants consécutifs, alignés sur 16 octets, en un accès de 128 bits. */
__device__ __forceinline__ float4 load4(const float* p) { return *reinterpret_cast<const float4*>(p); }

/** @brief Écrit quatre flottants consécutifs, alignés sur 16 octets, en un accès de 128 bits. */
__device__ __forceinline__ void store4(float* p, float4 v) { *reinterpret_cast<float4*>(p) = v; }

}  // namespace vectorized

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C ; chaque bloc de 256 threads calcule une tuile 128×128 de C, chaque
 *        thread une sous-tuile 8×8, comme à l'étape 5, mais tous les accès font 128 bits.
 *
 * A est rangée transposée en mémoire partagée (a_tile[kk][mm]) : les 8 valeurs de A dont un
 * thread a besoin à chaque pas kk deviennent contiguës, donc lisibles en deux LDS.128, comme
 * celles de B. M, N multiples de 128 et K multiple de 8 : aucun bord à garder.
 */
__global__ void __launch_bounds__(vectorized::threads)
    sgemm_vectorized([[maybe_unused]] int m, int n, int k, float alpha, const float* __restrict__ a,
                     const float* __restrict__ b, float beta, float* __restrict__ c) {
    using namespace vectorized;
    // float4 exige des adresses multiples de 16 octets, en mémoire partagée aussi.
    alignas(16) __shared__ float a_tile[block_k * block_m];  // A transposée : [kk][mm]
    alignas(16) __shared__ float b_tile[block_k * block_n];  // B telle quelle : [kk][nn]

    const int tid = static_cast<int>(threadIdx.x);
    const int thread_row = tid / (block_n / thread_n);  // sous-tuile 8×8 du thread dans C
    const int thread_col = tid % (block_n / thread_n);
    const int a_row = tid / (block_k / 4), a_col = 4 * (tid % (block_k / 4));  // float4 lu dans A
    const int b_row = tid / (block_n / 4), b_col = 4 * (tid % (block_n / 4));  // float4 lu dans B

    a += static_cast<int>(blockIdx.y) * block_m * k;
    b += static_cast<int>(blockIdx.x) * block_n;
    c += static_cast<int>(blockIdx.y) * block_m * n + static_cast<int>(blockIdx.x) * block_n;

    float acc[thread_m][thread_n] = {};
    for (int tile = 0; tile < k; tile += block_k) {
        // Un LDG.128 par matrice et par thread ; A est éclatée en quatre STS.32, transposée.
        const float4 a4 = load4(&a[a_row * k + tile + a_col]);
        a_tile[(a_col + 0) * block_m + a_row] = a4.x;
        a_tile[(a_col + 1) * block_m + a_row] = a4.y;
        a_tile[(a_col + 2) * block_m + a_row] = a4.z;
        a_tile[(a_col + 3) * block_m + a_row] = a4.w;
        store4(&b_tile[b_row * block_n + b_col], load4(&b[(tile + b_row) * n + b_col]));
        __syncthreads();

#pragma unroll
        for (int kk = 0; kk < block_k; ++kk) {
            // Deux LDS.128 par tuile : la colonne kk de A et la ligne kk de B du thread.
            const float* a_src = &a_tile[kk * block_m + thread_row * thread_m];
            const float* b_src = &b_tile[kk * block_n + thread_col * thread_n];
            const float4 a_lo = load4(a_src), a_hi = load4(a_src + 4);
            const float4 b_lo = load4(b_src), b_hi = load4(b_src + 4);
            const float a_frag[thread_m] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
            const float b_frag[thread_n] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
            for (int i = 0; i < thread_m; ++i)
#pragma unroll
                for (int j = 0; j < thread_n; ++j) acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();  // la tuile suivante écrase celle-ci : tout le bloc doit avoir fini
    }

    // C est lue et écrite par float4 : deux LDG.128 et deux STG.128 par ligne du thread.
#pragma unroll
    for (int i = 0; i < thread_m; ++i) {
        float* row = &c[(thread_row * thread_m + i) * n + thread_col * thread_n];
#pragma unroll
        for (int j = 0; j < thread_n; j += 4) {
            const float4 old = load4(row + j);
            store4(row + j, make_float4(alpha * acc[i][j + 0] + beta * old.x,
                                        alpha * acc[i][j + 1] + beta * old.y,
                                        alpha * acc[i][j + 2] + beta * old.z,
                                        alpha * acc[i][j + 3] + beta * old.w));
        }
    }
}
// --8<-- [end:noyau]

/** @brief L'étape 6 pour le lanceur, les tests et le benchmark communs. */
struct VectorizedKernel {
    static constexpr const char* name = "sgemm_vectorized";  ///< nom affiché
    /** @brief Multiples de la tuile du bloc : pas de bord ; N et K multiples de 4 au passage. */
    static constexpr Shape granularity{vectorized::block_m, vectorized::block_n, vectorized::block_k};
    /** @brief Le noyau, pour vérifier qu'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(sgemm_vectorized); }

    /**
     * @brief Refuse un pointeur qui n'est pas aligné sur 16 octets : les float4 l'exigent.
     *        cudaMalloc aligne bien plus ; seul un pointeur décalé dans un tampon échoue.
     */
    static void check_alignment(const GemmArgs& args) {
        for (const void* pointer : {static_cast<const void*>(args.a), static_cast<const void*>(args.b),
                                    static_cast<const void*>(args.c)})
            if (reinterpret_cast<std::uintptr_t>(pointer) % 16 != 0)
                throw std::invalid_argument(std::string(name) +
                                            " : A, B et C doivent commencer à une adresse "
                                            "multiple de 16 octets (accès float4)");
    }

    // --8<-- [start:lancement]
    /** @brief Une grille de tuiles 128×128 de C, 256 threads par bloc. */
    static void launch(const GemmArgs& args, cudaStream_t stream) {
        check_shape<VectorizedKernel>(args.shape);
        check_alignment(args);
        const auto [m, n, k] = args.shape;
        const dim3 grid(n / vectorized::block_n, m / vectorized::block_m);
        sgemm_vectorized<<<grid, vectorized::threads, 0, stream>>>(m, n, k, args.alpha, args.a, args.b,
                                                                    args.beta, args.c);
    }
    // --8<-- [end:lancement]
};

}  // namespace noyaux::gemm
