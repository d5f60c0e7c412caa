/**
 * @file
 * @brief Mémoire constante : les coefficients d'un filtre à 15 prises rangés en `__constant__`.
 *        À chaque prise, les 32 threads d'un warp lisent le même coefficient : le cache constant
 *        sert cette lecture unique à tout le warp, et le compilateur la place directement en
 *        opérande des FFMA (c[0x3][…] dans le code machine).
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::glossaire::constant_memory {

/** @brief Prises du filtre. */
constexpr int kTaps = 15;

// --8<-- [start:constante]
/** @brief Coefficients du filtre, en mémoire constante (64 Kio au plus pour tout le module). */
__constant__ float filter_taps[kTaps];
// --8<-- [end:constante]

// --8<-- [start:noyau]
/**
 * @brief out[i] = Σ_k filter_taps[k] · in[i + k], pour i < n (@p in compte n + kTaps − 1
 *        éléments).
 *
 * L'indice k est le même pour tous les threads à un instant donné : c'est le cas favorable de
 * la mémoire constante, une seule lecture diffusée au warp. Des indices différents d'une lane à
 * l'autre seraient servis l'un après l'autre.
 */
__global__ void fir_constant(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kTaps; ++k) sum = fmaf(filter_taps[k], in[i + k], sum);
    out[i] = sum;
}
// --8<-- [end:noyau]

// --8<-- [start:globale]
/** @brief Le même filtre, coefficients lus en mémoire globale : chaque prise est un chargement. */
__global__ void fir_global(const float* __restrict__ taps, const float* __restrict__ in, float* __restrict__ out,
                           std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kTaps; ++k) sum = fmaf(taps[k], in[i + k], sum);
    out[i] = sum;
}
// --8<-- [end:globale]

/**
 * @brief Copie @p taps dans filter_taps (cudaMemcpyToSymbol).
 * @throws std::invalid_argument si @p taps ne compte pas kTaps coefficients
 */
inline void set_filter(const std::vector<float>& taps) {
    if (taps.size() != kTaps)
        throw std::invalid_argument("le filtre compte " + std::to_string(kTaps) + " coefficients (reçu " +
                                    std::to_string(taps.size()) + ")");
    NOYAUX_CUDA_CHECK(cudaMemcpyToSymbol(filter_taps, taps.data(), kTaps * sizeof(float)));
}

/** @brief Référence CPU : mêmes FMA dans le même ordre, donc même résultat au bit près. */
inline std::vector<float> fir_reference(const std::vector<float>& taps, const std::vector<float>& in, std::size_t n) {
    std::vector<float> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        float sum = 0.0f;
        for (int k = 0; k < kTaps; ++k) sum = std::fma(taps[static_cast<std::size_t>(k)], in[i + static_cast<std::size_t>(k)], sum);
        out[i] = sum;
    }
    return out;
}

}  // namespace noyaux::glossaire::constant_memory
