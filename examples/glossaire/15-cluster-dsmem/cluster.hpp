/**
 * @file
 * @brief Logique hôte de l'exemple 15 : rang d'un bloc dans son cluster, bloc voisin dont il lit
 *        la mémoire partagée, résultat attendu de l'échange, grille admissible. Sans noyau :
 *        testée aussi sur l'émulateur.
 */
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::glossaire::clusters {

/** @brief Blocs par cluster, fixés à la compilation par __cluster_dims__ (8 au plus, portable). */
constexpr unsigned kClusterSize = 4;
/** @brief Threads par bloc ; aussi le nombre de flottants de la mémoire partagée d'un bloc. */
constexpr unsigned kThreads = 128;

// --8<-- [start:voisin]
/**
 * @brief Rang du bloc @p block dans son cluster, pour un cluster de @p cluster blocs le long de x :
 *        les blocs d'un cluster sont consécutifs dans la grille.
 */
constexpr unsigned cluster_rank(unsigned block, unsigned cluster) { return block % cluster; }

/** @brief Le bloc dont @p block lit la mémoire partagée : le rang suivant, dans la même cluster. */
constexpr unsigned neighbour_block(unsigned block, unsigned cluster) {
    return block - cluster_rank(block, cluster) + (cluster_rank(block, cluster) + 1) % cluster;
}
// --8<-- [end:voisin]

/**
 * @brief Vérifie une grille de @p blocks blocs groupés par @p cluster.
 * @throws std::invalid_argument si la grille est vide ou n'est pas un multiple du cluster
 */
inline void validate_grid(unsigned blocks, unsigned cluster) {
    if (blocks == 0 || blocks % cluster != 0)
        throw std::invalid_argument("la grille (" + std::to_string(blocks) +
                                    " blocs) doit compter un nombre entier, non nul, de clusters de " +
                                    std::to_string(cluster) + " blocs");
}

/**
 * @brief Résultat attendu : le thread t du bloc b écrit la valeur que le thread t du bloc
 *        voisin a déposée dans sa mémoire partagée, c'est-à-dire son élément d'entrée.
 */
inline std::vector<float> exchange_reference(const std::vector<float>& input, unsigned blocks, unsigned threads,
                                             unsigned cluster) {
    validate_grid(blocks, cluster);
    if (input.size() != std::size_t{blocks} * threads)
        throw std::invalid_argument("entrée de " + std::to_string(input.size()) + " éléments pour " +
                                    std::to_string(blocks) + " blocs de " + std::to_string(threads) + " threads");
    std::vector<float> output(input.size());
    for (unsigned b = 0; b < blocks; ++b)
        for (unsigned t = 0; t < threads; ++t)
            output[std::size_t{b} * threads + t] = input[std::size_t{neighbour_block(b, cluster)} * threads + t];
    return output;
}

}  // namespace noyaux::glossaire::clusters
