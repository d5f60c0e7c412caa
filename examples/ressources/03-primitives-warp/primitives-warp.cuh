/**
 * @file
 * @brief Somme d'un tableau écrite de trois façons (arbre en mémoire partagée, shuffles de
 *        warp, CUB) et filtrage des valeurs positives par votes de warp.
 *
 * D'après Yuan Lin et Vinod Grover, « Using CUDA Warp-Level Primitives » (NVIDIA
 * Technical Blog, 2018) : les primitives `*_sync` prennent un masque explicite des lanes
 * qui participent.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"

#ifndef SIMT_EMULATOR
#include <cub/cub.cuh>
#endif

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace noyaux::ressources::warp_primitives {

/** @brief Threads par bloc, fixé à la compilation : CUB et l'arbre dimensionnent la mémoire partagée dessus. */
constexpr unsigned kThreadsPerBlock = 256;
/** @brief Warps par bloc. */
constexpr unsigned kWarpsPerBlock = kThreadsPerBlock / 32;
/** @brief Masque des 32 lanes d'un warp. */
constexpr unsigned kFullMask = 0xffffffffu;

/** @brief Les trois façons de réduire un bloc. */
enum class Variant {
    tree,     ///< arbre en mémoire partagée, une barrière par niveau
    shuffle,  ///< shuffles dans chaque warp, une seule barrière entre warps
    cub,      ///< cub::BlockReduce (GPU seulement)
};

/**
 * @brief Somme, par le thread appelant, des éléments que lui attribue une boucle grid-stride.
 * @param in tableau lu
 * @param n nombre d'éléments
 */
template <typename T>
__device__ T thread_partial_sum(const T* __restrict__ in, std::size_t n) {
    T sum{};
    const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride)
        sum += in[i];
    return sum;
}

// --8<-- [start:arbre]
/**
 * @brief Somme par bloc en arbre : à chaque niveau, la moitié basse des threads ajoute la
 *        moitié haute, puis tout le bloc se synchronise (log2(256) = 8 barrières).
 * @param in tableau lu, @p n éléments
 * @param n nombre d'éléments
 * @param block_sums une somme par bloc (gridDim.x éléments)
 */
template <typename T>
__global__ void __launch_bounds__(kThreadsPerBlock)
    reduce_sum_tree(const T* __restrict__ in, std::size_t n, T* __restrict__ block_sums) {
    __shared__ T partial[kThreadsPerBlock];
    const unsigned tid = threadIdx.x;
    partial[tid] = thread_partial_sum(in, n);
    __syncthreads();
    for (unsigned half = kThreadsPerBlock / 2; half > 0; half /= 2) {
        if (tid < half) partial[tid] += partial[tid + half];
        __syncthreads();  // le niveau suivant lit ce que ce niveau vient d'écrire
    }
    if (tid == 0) block_sums[blockIdx.x] = partial[0];
}
// --8<-- [end:arbre]

// --8<-- [start:shuffle]
/**
 * @brief Somme des 32 valeurs d'un warp par 5 shuffles descendants ; le total est dans la lane 0.
 *
 * Masque plein : les 32 lanes doivent arriver ensemble à chaque `__shfl_down_sync`.
 */
template <typename T>
__device__ T warp_sum(T value) {
    for (int offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(kFullMask, value, offset);
    return value;
}

/**
 * @brief Somme par bloc par shuffles : chaque warp se réduit dans ses registres, la
 *        mémoire partagée ne sert qu'à passer les 8 totaux de warp au premier warp.
 * @param in tableau lu, @p n éléments
 * @param n nombre d'éléments
 * @param block_sums une somme par bloc (gridDim.x éléments)
 */
template <typename T>
__global__ void __launch_bounds__(kThreadsPerBlock)
    reduce_sum_shuffle(const T* __restrict__ in, std::size_t n, T* __restrict__ block_sums) {
    __shared__ T warp_sums[kWarpsPerBlock];
    const unsigned lane = threadIdx.x % 32;
    const unsigned warp = threadIdx.x / 32;
    T sum = warp_sum(thread_partial_sum(in, n));
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();  // la seule barrière du bloc
    if (warp == 0) {
        // Tout le warp 0 participe (masque plein) ; les lanes sans total apportent 0.
        sum = warp_sum(lane < kWarpsPerBlock ? warp_sums[lane] : T{});
        if (lane == 0) block_sums[blockIdx.x] = sum;
    }
}
// --8<-- [end:shuffle]

#ifndef SIMT_EMULATOR
// --8<-- [start:cub]
/**
 * @brief Somme par bloc confiée à cub::BlockReduce (GPU seulement : CUB ne se compile
 *        pas pour l'émulateur simt).
 * @param in tableau lu, @p n éléments
 * @param n nombre d'éléments
 * @param block_sums une somme par bloc (gridDim.x éléments)
 */
template <typename T>
__global__ void __launch_bounds__(kThreadsPerBlock)
    reduce_sum_cub(const T* __restrict__ in, std::size_t n, T* __restrict__ block_sums) {
    using BlockReduce = cub::BlockReduce<T, kThreadsPerBlock>;
    __shared__ typename BlockReduce::TempStorage storage;
    const T sum = BlockReduce(storage).Sum(thread_partial_sum(in, n));
    if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;  // valide dans le thread 0 seulement
}
// --8<-- [end:cub]
#endif

/** @brief Vrai si @p variant peut s'exécuter dans cette construction (CUB : GPU seulement). */
constexpr bool variant_available(Variant variant) {
#ifdef SIMT_EMULATOR
    return variant != Variant::cub;
#else
    (void)variant;
    return true;
#endif
}

/** @brief Nom français d'une variante, pour les messages. */
constexpr const char* variant_name(Variant variant) {
    switch (variant) {
        case Variant::tree: return "arbre";
        case Variant::shuffle: return "shuffle";
        case Variant::cub: return "CUB";
    }
    return "?";
}

// --8<-- [start:grille]
/**
 * @brief Blocs de la première passe : assez pour couvrir @p n, au plus une grille qui remplit
 *        chaque multiprocesseur (8 blocs de 256 threads = 2048 threads par SM).
 *
 * La seconde passe, un seul bloc, additionne alors au plus 8 × (nombre de SM) sommes partielles.
 */
inline unsigned reduction_blocks(std::size_t n, int multiprocessor_count) {
    const std::size_t full = static_cast<std::size_t>(std::max(multiprocessor_count, 1)) * 8;
    const std::size_t needed = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
    return static_cast<unsigned>(std::clamp<std::size_t>(needed, 1, full));
}
// --8<-- [end:grille]

/** @brief Lance la réduction de bloc de @p variant sur @p blocks blocs. */
template <typename T>
void launch_block_reduction(Variant variant, const T* in, std::size_t n, T* block_sums,
                            unsigned blocks, cudaStream_t stream) {
    switch (variant) {
        case Variant::tree:
            reduce_sum_tree<T><<<blocks, kThreadsPerBlock, 0, stream>>>(in, n, block_sums);
            return;
        case Variant::shuffle:
            reduce_sum_shuffle<T><<<blocks, kThreadsPerBlock, 0, stream>>>(in, n, block_sums);
            return;
        case Variant::cub:
#ifndef SIMT_EMULATOR
            reduce_sum_cub<T><<<blocks, kThreadsPerBlock, 0, stream>>>(in, n, block_sums);
            return;
#else
            break;
#endif
    }
    throw std::invalid_argument(std::string("variante « ") + variant_name(variant) +
                                " » indisponible sur l'émulateur simt (CUB exige nvcc)");
}

// --8<-- [start:lancement]
/**
 * @brief Somme de @p n éléments en deux passes déterministes (asynchrone sur @p stream).
 *
 * Passe 1 : @p blocks blocs écrivent une somme chacun dans @p block_sums. Passe 2 : un bloc
 * additionne ces @p blocks sommes dans @p result. Pas d'atomique : le résultat flottant
 * est le même d'une exécution à l'autre.
 *
 * @param variant réduction de bloc employée par les deux passes
 * @param in tableau lu, @p n éléments
 * @param n nombre d'éléments
 * @param block_sums espace de travail d'au moins @p blocks éléments
 * @param result la somme, un élément
 * @param blocks blocs de la première passe (voir reduction_blocks)
 * @param stream flux CUDA des deux lancements
 * @throws std::invalid_argument si @p blocks vaut 0 ou si la variante est indisponible
 */
template <typename T>
void launch_reduce_sum(Variant variant, const T* in, std::size_t n, T* block_sums, T* result,
                       unsigned blocks, cudaStream_t stream = nullptr) {
    if (blocks == 0) throw std::invalid_argument("la réduction demande au moins un bloc");
    launch_block_reduction(variant, in, n, block_sums, blocks, stream);
    launch_block_reduction(variant, static_cast<const T*>(block_sums), blocks, result, 1, stream);
}
// --8<-- [end:lancement]

// --8<-- [start:votes]
/**
 * @brief Copie dans @p out les éléments strictement positifs de @p in, par warp, avec une
 *        seule atomique par warp (agrégation par vote).
 *
 * Dans chaque paquet de 32 éléments, `__any_sync` dit si le warp a quelque chose à garder
 * (sinon il passe au paquet suivant sans atomique ni shuffle) ; `__ballot_sync` donne le
 * masque des lanes qui gardent leur élément ; `__popc` en tire le nombre de places à
 * réserver et le rang de chaque lane parmi elles. L'ordre est conservé dans un paquet,
 * pas entre paquets.
 *
 * @param in tableau lu, @p n éléments
 * @param n nombre d'éléments
 * @param out au moins autant de places que de valeurs positives
 * @param count compteur de valeurs écrites, mis à zéro par l'appelant
 */
template <typename T>
__global__ void __launch_bounds__(kThreadsPerBlock)
    compact_positive(const T* __restrict__ in, std::size_t n, T* __restrict__ out,
                     unsigned* __restrict__ count) {
    const unsigned lane = threadIdx.x % 32;
    const std::size_t warps = static_cast<std::size_t>(gridDim.x) * kWarpsPerBlock;
    const std::size_t first_warp =
        static_cast<std::size_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;
    // La borne de boucle ne dépend que du warp : ses 32 lanes font les mêmes tours.
    for (std::size_t base = first_warp * 32; base < n; base += warps * 32) {
        const std::size_t i = base + lane;
        const T value = i < n ? in[i] : T{};
        const bool keep = value > T{};
        if (!__any_sync(kFullMask, keep)) continue;  // paquet sans valeur positive
        const unsigned kept = __ballot_sync(kFullMask, keep);
        const int leader = __ffs(static_cast<int>(kept)) - 1;
        unsigned start = 0;
        if (static_cast<int>(lane) == leader) start = atomicAdd(count, static_cast<unsigned>(__popc(kept)));
        start = __shfl_sync(kFullMask, start, leader);
        const unsigned lower_lanes = (1u << lane) - 1u;  // lanes de rang inférieur
        if (keep) out[start + static_cast<unsigned>(__popc(kept & lower_lanes))] = value;
    }
}
// --8<-- [end:votes]

/**
 * @brief Lance compact_positive après avoir remis @p count à zéro (asynchrone).
 * @throws std::invalid_argument si @p blocks vaut 0
 */
template <typename T>
void launch_compact_positive(const T* in, std::size_t n, T* out, unsigned* count, unsigned blocks,
                             cudaStream_t stream = nullptr) {
    if (blocks == 0) throw std::invalid_argument("le filtrage demande au moins un bloc");
    NOYAUX_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned), stream));
    compact_positive<T><<<blocks, kThreadsPerBlock, 0, stream>>>(in, n, out, count);
}

}  // namespace noyaux::ressources::warp_primitives
