/**
 * @file
 * @brief Occupation théorique d'un SM selon la mémoire partagée dynamique, les registres et
 *        `__launch_bounds__` : ce que rend l'API d'occupation du runtime, et la ressource qui
 *        limite, calculée par le calculateur du toolkit (cuda_occupancy.h).
 */
#pragma once

#include <cuda_occupancy.h>
#include <cuda_runtime.h>

#include "common/cuda_check.cuh"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace noyaux::glossaire::occupancy {

// --8<-- [start:partagee]
/**
 * @brief Renverse chaque tranche de blockDim.x éléments en passant par la mémoire partagée
 *        dynamique : out[i] = in[début + fin − i] dans chaque bloc.
 *
 * La taille de la mémoire partagée vient du lancement (3e paramètre de <<< >>>) : au moins
 * blockDim.x flottants ; ce qui dépasse ne sert à rien, mais réduit l'occupation.
 */
__global__ void reverse_blocks(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    extern __shared__ float tile[];
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
    const std::size_t i = base + threadIdx.x;
    if (i < n) tile[threadIdx.x] = in[i];
    __syncthreads();
    const std::size_t last = (base + blockDim.x <= n ? blockDim.x : n - base) - 1;
    if (i < n) out[i] = tile[last - threadIdx.x];
}
// --8<-- [end:partagee]

/** @brief Valeurs vivantes à la fois par thread dans many_live_values. */
constexpr int kLiveValues = 48;

// --8<-- [start:registres]
/**
 * @brief Garde kLiveValues flottants vivants en même temps pendant 8 tours de mélange : sans
 *        contrainte, le compilateur leur donne un registre chacun.
 *
 * `__launch_bounds__(256, kMinBlocks)` exige que kMinBlocks blocs de 256 threads tiennent sur
 * un SM : le compilateur plafonne alors les registres à 65 536 / (256 × kMinBlocks) par thread
 * (64 pour 4 blocs, 32 pour 8), quitte à déborder en mémoire locale.
 */
template <int kMinBlocks>
__global__ void __launch_bounds__(256, kMinBlocks)
    many_live_values(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v[kLiveValues];
#pragma unroll
    for (int k = 0; k < kLiveValues; ++k) v[k] = in[(i + static_cast<std::size_t>(k) * 977) % n];
#pragma unroll
    for (int round = 0; round < 8; ++round) {
#pragma unroll
        for (int k = 0; k < kLiveValues; ++k) v[k] = v[k] * 0.5f + v[(k + round + 1) % kLiveValues] * 0.25f;
    }
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kLiveValues; ++k) sum += v[k];
    out[i] = sum;
}
// --8<-- [end:registres]

/** @brief Résultat de l'API d'occupation pour un noyau et une configuration. */
struct Occupancy {
    int blocks_per_sm = 0;        ///< cudaOccupancyMaxActiveBlocksPerMultiprocessor
    int warps_per_sm = 0;         ///< blocs × warps par bloc
    int max_warps_per_sm = 0;     ///< maxThreadsPerMultiProcessor / 32
    int registers_per_thread = 0; ///< cudaFuncAttributes::numRegs
    std::string limit;            ///< ressource qui limite, d'après cuda_occupancy.h
    /** @brief Occupation théorique en pour cent. */
    double percent() const { return max_warps_per_sm ? 100.0 * warps_per_sm / max_warps_per_sm : 0.0; }
};

// --8<-- [start:facteur]
/** @brief Nom français des ressources qui limitent, d'après le champ limitingFactors. */
inline std::string limiting_factors_text(unsigned factors) {
    std::string text;
    const auto add = [&](unsigned bit, const char* name) {
        if (!(factors & bit)) return;
        if (!text.empty()) text += ", ";
        text += name;
    };
    add(OCC_LIMIT_WARPS, "warps");
    add(OCC_LIMIT_REGISTERS, "registres");
    add(OCC_LIMIT_SHARED_MEMORY, "mémoire partagée");
    add(OCC_LIMIT_BLOCKS, "blocs par SM");
    add(OCC_LIMIT_BARRIERS, "barrières");
    return text.empty() ? "aucune" : text;
}

/**
 * @brief Calcul hors GPU, par cuda_occupancy.h, pour un GPU @p device et un noyau décrit par
 *        @p function : blocs résidents par SM et ressources qui limitent.
 * @throws std::runtime_error si le calculateur refuse les entrées
 */
inline cudaOccResult occupancy_calculator(const cudaDeviceProp& device, const cudaFuncAttributes& function,
                                          int threads_per_block, std::size_t dynamic_shared_bytes) {
    const cudaOccDeviceProp properties(device);
    const cudaOccFuncAttributes attributes(function);
    const cudaOccDeviceState state;
    cudaOccResult result{};
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &properties, &attributes, &state, threads_per_block,
                                                dynamic_shared_bytes) != CUDA_OCC_SUCCESS)
        throw std::runtime_error("cuda_occupancy.h refuse cette configuration");
    return result;
}
// --8<-- [end:facteur]

// --8<-- [start:api]
/**
 * @brief Occupation de @p kernel lancé par blocs de @p threads_per_block threads avec
 *        @p dynamic_shared_bytes octets de mémoire partagée dynamique, sur le GPU courant.
 *
 * Au-delà de 48 Kio de mémoire partagée dynamique, un noyau doit l'accepter explicitement
 * (cudaFuncAttributeMaxDynamicSharedMemorySize) : la fonction le fait avant d'interroger l'API.
 */
template <typename Kernel>
Occupancy query_occupancy(Kernel* kernel, int threads_per_block, std::size_t dynamic_shared_bytes) {
    int device = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp properties{};
    NOYAUX_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    if (dynamic_shared_bytes > properties.sharedMemPerBlock)
        NOYAUX_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(dynamic_shared_bytes)));
    Occupancy o;
    NOYAUX_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o.blocks_per_sm, kernel, threads_per_block,
                                                                    dynamic_shared_bytes));
    cudaFuncAttributes attributes{};
    NOYAUX_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    o.registers_per_thread = attributes.numRegs;
    o.warps_per_sm = o.blocks_per_sm * ((threads_per_block + 31) / 32);
    o.max_warps_per_sm = properties.maxThreadsPerMultiProcessor / 32;
    o.limit = limiting_factors_text(
        occupancy_calculator(properties, attributes, threads_per_block, dynamic_shared_bytes).limitingFactors);
    return o;
}
// --8<-- [end:api]

}  // namespace noyaux::glossaire::occupancy
