/**
 * @file
 * @brief Logique hôte de l'exemple 09 : découpage d'un tableau en lots, attribution des lots
 *        aux flux, référence CPU du calcul. Sans appel CUDA : testée aussi sur l'émulateur.
 */
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace noyaux::glossaire::streams {

/** @brief Un lot : une tranche contiguë du tableau et le flux qui la traite. */
struct Chunk {
    std::size_t offset;  ///< premier élément
    std::size_t count;   ///< nombre d'éléments
    unsigned stream;     ///< indice du flux, de 0 à streams − 1
};

// --8<-- [start:decoupage]
/**
 * @brief Découpe @p n éléments en @p chunks lots de tailles égales à un élément près (les premiers
 *        lots prennent le reste), attribués aux @p streams flux à tour de rôle.
 * @throws std::invalid_argument si @p chunks ou @p streams vaut 0, ou si @p chunks dépasse @p n
 */
inline std::vector<Chunk> split_into_chunks(std::size_t n, std::size_t chunks, unsigned streams) {
    if (chunks == 0) throw std::invalid_argument("il faut au moins un lot");
    if (streams == 0) throw std::invalid_argument("il faut au moins un flux");
    if (chunks > n) throw std::invalid_argument("plus de lots que d'éléments");
    std::vector<Chunk> result;
    result.reserve(chunks);
    const std::size_t base = n / chunks;
    const std::size_t remainder = n % chunks;
    std::size_t offset = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
        const std::size_t count = base + (c < remainder ? 1 : 0);
        result.push_back({offset, count, static_cast<unsigned>(c % streams)});
        offset += count;
    }
    return result;
}
// --8<-- [end:decoupage]

/** @brief Référence CPU de repeated_fma pour un élément : même suite de FMA, même arrondi. */
inline float repeated_fma_reference(float x, float a, float b, int iterations) {
    for (int k = 0; k < iterations; ++k) x = std::fma(x, a, b);
    return x;
}

}  // namespace noyaux::glossaire::streams
