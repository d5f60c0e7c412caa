/**
 * @file
 * @brief Fonctions spéciales : `__sinf`, intrinsèque compilée en une instruction MUFU.SIN de
 *        l'unité de fonctions spéciales, contre `sinf`, réduction d'argument et polynôme en
 *        instructions ordinaires, plus précise sur tout l'intervalle et plus longue.
 */
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

namespace noyaux::glossaire::special_functions {

// --8<-- [start:rapide]
/** @brief out[i] = __sinf(in[i]) : une instruction MUFU.SIN (après une mise à l'échelle). */
__global__ void sine_fast(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __sinf(in[i]);
}
// --8<-- [end:rapide]

// --8<-- [start:precise]
/** @brief out[i] = sinf(in[i]) : erreur bornée à 2 ulp sur tout l'intervalle (Programming Guide). */
__global__ void sine_accurate(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sinf(in[i]);
}
// --8<-- [end:precise]

/** @brief Les deux versions. */
enum class Variant { fast, accurate };

/** @brief Lance la version @p variant par blocs de 256 threads (asynchrone). */
inline void launch_sine(Variant variant, const float* in, float* out, std::size_t n, cudaStream_t stream = nullptr) {
    if (n == 0) return;
    const auto blocks = static_cast<unsigned>((n + 255) / 256);
    if (variant == Variant::fast)
        sine_fast<<<blocks, 256, 0, stream>>>(in, out, n);
    else
        sine_accurate<<<blocks, 256, 0, stream>>>(in, out, n);
}

/** @brief Écart absolu maximal entre @p values et sin(x) calculé en double. */
inline double max_abs_error(const float* inputs, const float* values, std::size_t n) {
    double worst = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double error = std::fabs(static_cast<double>(values[i]) - std::sin(static_cast<double>(inputs[i])));
        worst = error > worst ? error : worst;
    }
    return worst;
}

}  // namespace noyaux::glossaire::special_functions
