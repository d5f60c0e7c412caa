/**
 * @file
 * @brief Coalescence des accès : le même noyau lit un élément sur @c stride ; à pas 1, les 32
 *        lectures d'un warp tombent dans 4 secteurs de 32 octets, à pas 8 ou plus dans 32
 *        secteurs, dont chacun n'apporte que 4 octets utiles.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <stdexcept>

namespace noyaux::glossaire::coalescing {

/** @brief Taille d'un secteur, l'unité de transfert entre le L1, le L2 et la mémoire du GPU. */
constexpr std::size_t kSectorBytes = 32;

// --8<-- [start:noyau]
/**
 * @brief out[i] ← in[i · stride] pour i < n (boucle grid-stride).
 *
 * Les threads voisins d'un warp lisent des adresses distantes de stride × 4 octets : le code
 * machine est le même pour tous les pas (LDG puis STG), seules les adresses changent, et avec
 * elles le nombre de secteurs que chaque instruction de chargement fait venir.
 *
 * @param in au moins (n − 1) · stride + 1 éléments
 * @param out n éléments, écrits à pas 1 (toujours coalescés)
 * @param n nombre d'éléments écrits
 * @param stride pas de lecture, en éléments (1 : lecture coalescée)
 */
__global__ void gather_strided(const float* __restrict__ in, float* __restrict__ out, std::size_t n,
                               unsigned stride) {
    const std::size_t step = static_cast<std::size_t>(blockDim.x) * gridDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
        out[i] = in[i * stride];
}
// --8<-- [end:noyau]

// --8<-- [start:secteurs]
/**
 * @brief Secteurs de 32 octets touchés par une instruction de chargement d'un warp complet dont
 *        la lane k lit @p element_bytes octets à l'adresse @p base + k · @p stride · @p element_bytes.
 */
inline std::size_t sectors_per_request(std::uintptr_t base, unsigned stride, std::size_t element_bytes) {
    std::set<std::uintptr_t> sectors;
    for (std::uintptr_t lane = 0; lane < 32; ++lane) {
        const std::uintptr_t first = base + lane * stride * element_bytes;
        for (std::uintptr_t byte = first; byte < first + element_bytes; ++byte) sectors.insert(byte / kSectorBytes);
    }
    return sectors.size();
}

/** @brief Part des octets transférés que le warp utilise vraiment (1 : aucun gaspillage). */
inline double useful_fraction(std::uintptr_t base, unsigned stride, std::size_t element_bytes) {
    return static_cast<double>(32 * element_bytes) /
           static_cast<double>(sectors_per_request(base, stride, element_bytes) * kSectorBytes);
}
// --8<-- [end:secteurs]

/**
 * @brief Lance gather_strided sur une grille de 4 × 256 blocs de 256 threads au plus (asynchrone).
 * @throws std::invalid_argument si @p stride vaut 0
 */
inline void launch_gather_strided(const float* in, float* out, std::size_t n, unsigned stride,
                                  cudaStream_t stream = nullptr) {
    if (stride == 0) throw std::invalid_argument("le pas doit valoir au moins 1");
    if (n == 0) return;
    const std::size_t wanted = (n + 255) / 256;
    const auto blocks = static_cast<unsigned>(wanted < 1024 ? wanted : 1024);
    gather_strided<<<blocks, 256, 0, stream>>>(in, out, n, stride);
}

}  // namespace noyaux::glossaire::coalescing
