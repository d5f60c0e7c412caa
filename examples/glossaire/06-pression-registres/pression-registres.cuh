/**
 * @file
 * @brief Un tableau local écrit et lu à des indices connus seulement à l'exécution ne peut pas
 *        vivre dans les registres (ils ne s'indexent pas) : le compilateur le range en mémoire
 *        locale (STL, puis LDL). Le même calcul, écrit pour que chaque indice soit une constante
 *        après déroulage, reste entièrement en registres.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>

namespace noyaux::glossaire::register_pressure {

/** @brief Taille du tableau local de chaque thread. */
constexpr int kLength = 16;

/**
 * @brief Charge la colonne @p i des kLength lignes de @p in (ligne k : in[k·n + i]) et la
 *        remplace par ses sommes préfixes : a[k] = in[0·n+i] + … + in[k·n+i].
 */
__device__ __forceinline__ void load_prefix_sums(float (&a)[kLength], const float* __restrict__ in,
                                                 std::size_t n, std::size_t i) {
#pragma unroll
    for (int k = 0; k < kLength; ++k) a[k] = in[static_cast<std::size_t>(k) * n + i];
#pragma unroll
    for (int k = 1; k < kLength; ++k) a[k] += a[k - 1];
}

/** @brief Cases incrémentées par thread, à des positions tirées d'une suite pseudo-aléatoire. */
constexpr int kSteps = 4;

/** @brief Position suivante de la suite (générateur congruentiel, arithmétique modulo 2^32). */
__device__ __host__ __forceinline__ unsigned next_position(unsigned j) { return j * 1103515245u + 12345u; }

// --8<-- [start:dynamique]
/**
 * @brief Incrémente kSteps cases du tableau choisies à l'exécution, puis rend la case finale :
 *        out[i] = a[j mod 16]. Les indices viennent de la mémoire : le tableau part en mémoire
 *        locale (le test sass exige STL et LDL).
 * @param in kLength lignes de @p n flottants
 * @param pick la graine de la suite de positions de chaque colonne
 * @param out n résultats
 * @param n nombre de colonnes
 */
__global__ void pick_dynamic_index(const float* __restrict__ in, const unsigned* __restrict__ pick,
                                   float* __restrict__ out, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a[kLength];
    load_prefix_sums(a, in, n, i);
    unsigned j = pick[i];
#pragma unroll 1
    for (int step = 0; step < kSteps; ++step) {
        a[j % kLength] += 1.0f;  // écriture à un indice inconnu à la compilation
        j = next_position(j);
    }
    out[i] = a[j % kLength];
}
// --8<-- [end:dynamique]

// --8<-- [start:deroule]
/**
 * @brief Même résultat que pick_dynamic_index, mais chaque a[k] n'est touché qu'avec un k
 *        constant (boucle intérieure déroulée) : chaque accès devient une comparaison et une
 *        sélection, tout reste en registres (le test sass exige l'absence de LDL et de STL).
 */
__global__ void pick_unrolled(const float* __restrict__ in, const unsigned* __restrict__ pick,
                              float* __restrict__ out, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a[kLength];
    load_prefix_sums(a, in, n, i);
    unsigned j = pick[i];
#pragma unroll 1
    for (int step = 0; step < kSteps; ++step) {
        const unsigned position = j % kLength;
#pragma unroll
        for (int k = 0; k < kLength; ++k)
            if (position == static_cast<unsigned>(k)) a[k] += 1.0f;  // k constant après déroulage
        j = next_position(j);
    }
    const unsigned last = j % kLength;
    float result = a[0];
#pragma unroll
    for (int k = 1; k < kLength; ++k) result = last == static_cast<unsigned>(k) ? a[k] : result;
    out[i] = result;
}
// --8<-- [end:deroule]

/**
 * @brief Référence CPU de la colonne @p i : mêmes opérations dans le même ordre, donc mêmes
 *        arrondis que les deux noyaux.
 */
inline float reference_column(const float* in, unsigned pick, std::size_t n, std::size_t i) {
    float a[kLength];
    for (int k = 0; k < kLength; ++k) a[k] = in[static_cast<std::size_t>(k) * n + i];
    for (int k = 1; k < kLength; ++k) a[k] += a[k - 1];
    unsigned j = pick;
    for (int step = 0; step < kSteps; ++step) {
        a[j % kLength] += 1.0f;
        j = next_position(j);
    }
    return a[j % kLength];
}

/** @brief Les deux façons d'indexer le tableau. */
enum class Variant {
    dynamic_index,  ///< a[pick] : mémoire locale
    unrolled,       ///< sélections à indices constants : registres
};

/**
 * @brief Lance la variante @p variant sur @p n colonnes, blocs de 256 threads (asynchrone).
 * @throws std::invalid_argument si @p n dépasse 2^31 colonnes (grille trop grande)
 */
inline void launch_pick(Variant variant, const float* in, const unsigned* pick, float* out, std::size_t n,
                        cudaStream_t stream = nullptr) {
    if (n == 0) return;
    if (n > (std::size_t{1} << 31)) throw std::invalid_argument("au plus 2^31 colonnes");
    const auto blocks = static_cast<unsigned>((n + 255) / 256);
    if (variant == Variant::dynamic_index)
        pick_dynamic_index<<<blocks, 256, 0, stream>>>(in, pick, out, n);
    else
        pick_unrolled<<<blocks, 256, 0, stream>>>(in, pick, out, n);
}

}  // namespace noyaux::glossaire::register_pressure
