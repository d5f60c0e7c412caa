/**
 * @file
 * @brief Microbenchmarks du matériel : bande passante mémoire (copie en flux), latence
 *        par poursuite de pointeurs (pointer chasing) et débit des FMA en FP32.
 *
 * Même démarche que les analyses indépendantes (Chips and Cheese, les articles
 * « Dissecting … ») : mesurer soi-même ce que la fiche technique annonce. Les noyaux
 * sont testés pour leur justesse sur l'émulateur ; seuls les benchmarks (bench.cu)
 * mesurent des temps, sur un vrai GPU.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::ressources::microbench {

// --8<-- [start:flux]
/**
 * @brief Copie en flux : dst[i] ← src[i] pour i < n, par vecteurs de 16 octets.
 *
 * Chaque thread lit et écrit un float4 par tour de boucle grid-stride : des accès
 * coalescés de 128 bits (LDG.E.128, STG.E.128), ce qui est le schéma le plus favorable
 * à la bande passante de la mémoire globale.
 *
 * @param src n vecteurs lus en mémoire globale
 * @param dst n vecteurs écrits en mémoire globale
 * @param n   nombre de float4
 */
__global__ void stream_copy(const float4* __restrict__ src, float4* __restrict__ dst,
                            std::size_t n) {
    const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride)
        dst[i] = src[i];
}
// --8<-- [end:flux]

/** @brief Résultat d'une poursuite de pointeurs. */
struct ChaseResult {
    long long cycles;  ///< durée de la partie mesurée, lue par clock64 (cycles du SM)
    unsigned last;     ///< dernier indice atteint : l'écrire empêche d'éliminer la boucle
};

// --8<-- [start:poursuite]
/**
 * @brief Poursuite de pointeurs par un seul thread : j ← next[j], @p steps fois.
 *
 * Chaque chargement dépend du précédent : aucun parallélisme ne peut masquer la
 * latence, et le temps moyen par pas est la latence d'un chargement depuis le niveau
 * de la hiérarchie mémoire où tient le tableau. Les @p warmup_steps premiers pas,
 * hors chronométrage, chargent le tableau dans les caches (le cache L1 ne survit
 * pas d'un lancement à l'autre).
 *
 * @param next         tableau de successeurs : un cycle qui part de l'indice 0
 * @param warmup_steps pas d'échauffement, non chronométrés
 * @param steps        pas chronométrés par clock64
 * @param trace        si non nul, reçoit l'indice atteint à chaque pas chronométré
 *                     (pour les tests ; nul dans les benchmarks)
 * @param result       durée en cycles et dernier indice atteint
 */
__global__ void pointer_chase(const unsigned* __restrict__ next, std::uint64_t warmup_steps,
                              std::uint64_t steps, unsigned* __restrict__ trace,
                              ChaseResult* __restrict__ result) {
    unsigned j = 0;
    for (std::uint64_t s = 0; s < warmup_steps; ++s) j = next[j];
    const long long start = clock64();
    for (std::uint64_t s = 0; s < steps; ++s) {
        j = next[j];  // l'adresse du chargement suivant attend celui-ci
        if (trace != nullptr) trace[s] = j;
    }
    const long long stop = clock64();
    result->cycles = stop - start;
    result->last = j;
}
// --8<-- [end:poursuite]

/** @brief Chaînes de FMA indépendantes par thread, de quoi occuper les unités FP32. */
inline constexpr int kFmaChains = 8;

// --8<-- [start:fma]
/**
 * @brief Débit FP32 : chaque thread itère x ← a·x + b sur kFmaChains chaînes
 *        indépendantes, @p iterations fois, puis écrit la somme des chaînes.
 *
 * Les chaînes indépendantes permettent à l'ordonnanceur d'émettre une FFMA par cycle
 * et par unité malgré la latence de chacune (4 cycles sur Volta d'après Jia et al., 2018). La chaîne k du thread
 * t part de x₀ = (t mod 1024) + k, si bien que le résultat a une forme close :
 * xₙ = aⁿ·x₀ + b·(aⁿ − 1)/(a − 1), et xₙ = x₀ + n·b quand a = 1.
 *
 * @param out        une somme par thread (n'écrire qu'elle suffit à garder tout le calcul)
 * @param iterations nombre de FMA par chaîne
 * @param a          multiplicateur
 * @param b          terme ajouté
 */
__global__ void fma_throughput(float* __restrict__ out, int iterations, float a, float b) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float x[kFmaChains];
#pragma unroll
    for (int k = 0; k < kFmaChains; ++k) x[k] = static_cast<float>((t & 1023u) + k);
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int k = 0; k < kFmaChains; ++k) x[k] = x[k] * a + b;  // une FFMA par chaîne
    }
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kFmaChains; ++k) sum += x[k];
    out[t] = sum;
}
// --8<-- [end:fma]

/** @brief Écart, en éléments de 4 octets, entre deux cases visitées : une ligne de 128 octets. */
inline constexpr std::size_t kChaseStride = 32;

// --8<-- [start:cycle]
/**
 * @brief Tableau de poursuite de @p bytes octets : un cycle aléatoire unique qui passe
 *        une fois par chaque ligne de 128 octets (algorithme de Sattolo).
 *
 * Une case par ligne de cache : chaque pas touche une ligne différente, et l'ordre
 * aléatoire déjoue le préchargement. La case de la ligne i est l'élément i·32 ; les
 * autres éléments valent 0 et ne sont jamais lus.
 *
 * @throws std::invalid_argument si @p bytes n'est pas un multiple de 128 octets ou
 *         compte moins de deux lignes.
 */
inline std::vector<unsigned> make_chase_array(std::size_t bytes, std::uint64_t seed) {
    constexpr std::size_t kLineBytes = kChaseStride * sizeof(unsigned);
    if (bytes % kLineBytes != 0 || bytes < 2 * kLineBytes)
        throw std::invalid_argument("la poursuite demande un multiple de 128 octets, au moins 256 (reçu : " +
                                    std::to_string(bytes) + ")");
    const std::size_t lines = bytes / kLineBytes;
    if (lines * kChaseStride > std::size_t{UINT32_MAX})
        throw std::invalid_argument("tableau de poursuite trop grand pour des indices 32 bits");
    std::vector<unsigned> order(lines);
    std::iota(order.begin(), order.end(), 0u);
    // Sattolo : l'échange avec un indice strictement inférieur donne un seul cycle.
    std::mt19937_64 random(seed);
    for (std::size_t i = lines - 1; i > 0; --i) {
        std::uniform_int_distribution<std::size_t> pick(0, i - 1);
        std::swap(order[i], order[pick(random)]);
    }
    std::vector<unsigned> next(bytes / sizeof(unsigned), 0u);
    for (std::size_t i = 0; i < lines; ++i)
        next[i * kChaseStride] = static_cast<unsigned>(order[i] * kChaseStride);
    return next;
}
// --8<-- [end:cycle]

/**
 * @brief Valeur attendue de fma_throughput pour le thread @p t (forme close, en double).
 *
 * Exacte en float pour les cas des tests (a = 1 ou a = 2, petites valeurs) : toutes les
 * valeurs intermédiaires y sont des entiers représentables.
 */
inline double fma_expected(unsigned t, int iterations, double a, double b) {
    double sum = 0.0;
    for (int k = 0; k < kFmaChains; ++k) {
        const double x0 = static_cast<double>((t & 1023u) + static_cast<unsigned>(k));
        double power = 1.0;
        for (int i = 0; i < iterations; ++i) power *= a;
        sum += a == 1.0 ? x0 + iterations * b : power * x0 + b * (power - 1.0) / (a - 1.0);
    }
    return sum;
}

/** @brief Grille des noyaux parallèles : 8 blocs de 256 threads par SM (2048 threads, le maximum). */
struct StreamConfig {
    unsigned blocks;             ///< blocs de la grille
    unsigned threads_per_block;  ///< threads par bloc
};

/** @brief Grille de la copie en flux pour un GPU de @p multiprocessor_count SM. */
inline StreamConfig stream_config(int multiprocessor_count) {
    const unsigned multiprocessors = multiprocessor_count > 0 ? unsigned(multiprocessor_count) : 1u;
    return {8u * multiprocessors, 256u};
}

/**
 * @brief Lance stream_copy sur @p bytes octets (asynchrone).
 * @throws std::invalid_argument si @p bytes n'est pas un multiple de 16 ou si un pointeur
 *         n'est pas aligné sur 16 octets : les float4 l'exigent.
 */
inline void launch_stream_copy(const void* src, void* dst, std::size_t bytes, StreamConfig config,
                               cudaStream_t stream = nullptr) {
    if (bytes % sizeof(float4) != 0)
        throw std::invalid_argument("la copie en flux demande un multiple de 16 octets (reçu : " +
                                    std::to_string(bytes) + ")");
    if (reinterpret_cast<std::uintptr_t>(src) % alignof(float4) != 0 ||
        reinterpret_cast<std::uintptr_t>(dst) % alignof(float4) != 0)
        throw std::invalid_argument("la copie en flux demande des adresses alignées sur 16 octets");
    stream_copy<<<config.blocks, config.threads_per_block, 0, stream>>>(
        static_cast<const float4*>(src), static_cast<float4*>(dst), bytes / sizeof(float4));
}

/** @brief Lance la poursuite sur un seul thread (asynchrone). */
inline void launch_pointer_chase(const unsigned* next, std::uint64_t warmup_steps,
                                 std::uint64_t steps, unsigned* trace, ChaseResult* result,
                                 cudaStream_t stream = nullptr) {
    pointer_chase<<<1, 1, 0, stream>>>(next, warmup_steps, steps, trace, result);
}

/** @brief Lance fma_throughput sur @p blocks blocs de @p threads_per_block threads (asynchrone). */
inline void launch_fma_throughput(float* out, unsigned blocks, unsigned threads_per_block,
                                  int iterations, float a, float b, cudaStream_t stream = nullptr) {
    if (blocks == 0 || threads_per_block == 0 || threads_per_block > 1024)
        throw std::invalid_argument("grille impossible pour le débit FMA");
    fma_throughput<<<blocks, threads_per_block, 0, stream>>>(out, iterations, a, b);
}

/** @brief Opérations flottantes d'un lancement de fma_throughput (une FMA compte pour deux). */
inline double fma_flops(unsigned blocks, unsigned threads_per_block, int iterations) {
    return 2.0 * kFmaChains * iterations * double(blocks) * threads_per_block;
}

}  // namespace noyaux::ressources::microbench
