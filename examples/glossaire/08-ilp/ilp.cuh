/**
 * @file
 * @brief Parallélisme d'instructions (ILP) : le même nombre de FMA par thread, en une chaîne
 *        dépendante ou en plusieurs chaînes indépendantes. Un warp seul sur son ordonnanceur
 *        attend la fin de chaque FMA avant la suivante s'il n'a qu'une chaîne ; avec quatre, il
 *        en a quatre prêtes à émettre pendant que les autres sont en vol.
 */
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace noyaux::glossaire::ilp {

/** @brief Facteur des FMA : x ← x·kA + kB reste borné. */
constexpr float kA = 0.999f;
/** @brief Terme ajouté par chaque FMA. */
constexpr float kB = 0.001f;

/** @brief Valeur de départ de la chaîne @p chain du thread @p thread. */
__device__ __host__ __forceinline__ float chain_start(unsigned thread, int chain) {
    // FMA explicite : nvcc contracterait a·b + c en FFMA, le compilateur de l'hôte peut-être pas.
    return fmaf(static_cast<float>(thread % 128), 0.01f, static_cast<float>(chain));
}

// --8<-- [start:chaines]
/**
 * @brief Chaque thread fait @p fma_count FMA réparties sur kChains chaînes indépendantes, puis
 *        écrit la somme des chaînes.
 *
 * Dans une chaîne, chaque FMA attend le résultat de la précédente (quelques cycles de latence) ;
 * les FMA de chaînes différentes ne s'attendent pas : le compilateur les entrelace, et
 * l'ordonnanceur en émet une par cycle tant qu'une chaîne a son opérande prêt.
 *
 * @param out un résultat par thread
 * @param fma_count FMA par thread, multiple de kChains
 */
template <int kChains>
__global__ void fma_chains(float* __restrict__ out, int fma_count) {
    const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
    float acc[kChains];
#pragma unroll
    for (int c = 0; c < kChains; ++c) acc[c] = chain_start(thread, c);
    for (int k = 0; k < fma_count / kChains; ++k) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) acc[c] = fmaf(acc[c], kA, kB);  // indépendantes entre elles
    }
    float sum = 0.0f;
#pragma unroll
    for (int c = 0; c < kChains; ++c) sum += acc[c];
    out[thread] = sum;
}
// --8<-- [end:chaines]

/** @brief Référence CPU de fma_chains<kChains> pour un thread : mêmes opérations, même ordre. */
inline float fma_chains_reference(int chains, unsigned thread, int fma_count) {
    float sum = 0.0f;
    for (int c = 0; c < chains; ++c) {
        float x = chain_start(thread, c);
        for (int k = 0; k < fma_count / chains; ++k) x = std::fma(x, kA, kB);
        sum += x;
    }
    return sum;
}

/**
 * @brief Lance fma_chains<@p chains> (1, 2, 4 ou 8) sur @p blocks blocs de @p threads threads.
 * @throws std::invalid_argument si @p chains n'est pas l'une de ces valeurs ou ne divise pas
 *         @p fma_count
 */
inline void launch_fma_chains(int chains, float* out, int fma_count, unsigned blocks, unsigned threads,
                              cudaStream_t stream = nullptr) {
    if (fma_count < 0 || fma_count % (chains > 0 ? chains : 1) != 0)
        throw std::invalid_argument("le nombre de FMA (" + std::to_string(fma_count) +
                                    ") doit être un multiple positif du nombre de chaînes");
    switch (chains) {
        case 1: fma_chains<1><<<blocks, threads, 0, stream>>>(out, fma_count); return;
        case 2: fma_chains<2><<<blocks, threads, 0, stream>>>(out, fma_count); return;
        case 4: fma_chains<4><<<blocks, threads, 0, stream>>>(out, fma_count); return;
        case 8: fma_chains<8><<<blocks, threads, 0, stream>>>(out, fma_count); return;
        default: throw std::invalid_argument("chaînes : 1, 2, 4 ou 8 (demandé : " + std::to_string(chains) + ")");
    }
}

}  // namespace noyaux::glossaire::ilp
