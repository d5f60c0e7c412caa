/**
 * @file
 * @brief Logique hôte de l'exemple 3 : l'entrée, les références CPU (somme de chaque bloc,
 *        préfixes en relais, total des producteurs) et les bornes. Sans appel CUDA.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::megakernels::relay {

/** @brief Éléments traités par chaque bloc. */
constexpr unsigned kChunk = 1024;
/** @brief Plus grande grille acceptée par le programme (la co-résidence borne ensuite). */
constexpr unsigned kMaxBlocks = 65535;

/** @brief Valeur de l'élément @p i de l'entrée : petits entiers, sommes exactes. */
inline std::uint32_t input_value(std::size_t i) { return static_cast<std::uint32_t>((i * 2654435761u) >> 24); }

/** @brief L'entrée de @p blocks blocs (blocks × kChunk éléments). */
inline std::vector<std::uint32_t> relay_input(unsigned blocks) {
    std::vector<std::uint32_t> values(static_cast<std::size_t>(blocks) * kChunk);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = input_value(i);
    return values;
}

/** @brief Somme de chaque bloc de kChunk éléments. */
inline std::vector<std::uint32_t> chunk_sums(const std::vector<std::uint32_t>& values) {
    std::vector<std::uint32_t> sums(values.size() / kChunk, 0);
    for (std::size_t i = 0; i < sums.size() * kChunk; ++i) sums[i / kChunk] += values[i];
    return sums;
}

/** @brief Préfixes inclusifs : le bloc b reçoit la somme des blocs 0 à b. */
inline std::vector<std::uint32_t> inclusive_prefixes(const std::vector<std::uint32_t>& sums) {
    std::vector<std::uint32_t> prefixes(sums.size());
    std::uint32_t running = 0;
    for (std::size_t b = 0; b < sums.size(); ++b) prefixes[b] = running += sums[b];
    return prefixes;
}

/**
 * @brief Vérifie une grille : au moins 2 blocs (un producteur et un consommateur), au plus kMaxBlocks.
 * @throws std::invalid_argument sinon
 */
inline void validate_blocks(unsigned blocks) {
    if (blocks < 2 || blocks > kMaxBlocks)
        throw std::invalid_argument("la grille compte de 2 à " + std::to_string(kMaxBlocks) + " blocs (demandé : " +
                                    std::to_string(blocks) + ")");
}

/**
 * @brief Numéro du lancement suivant, pour un état jamais remis à zéro (drapeaux, compteur) qui
 *        vaut @p per_launch × numéro à la fin de chaque lancement.
 *
 * Cet état est un `unsigned` : au-delà de 2³² − 1, il reviendrait à une petite valeur, et les
 * attentes « au moins la cible » ne seraient plus justes. Le lancement qui le ferait déborder
 * est donc refusé avant d'être lancé ; une grille neuve repart de zéro.
 * @param epoch      numéro du dernier lancement (0 : aucun)
 * @param per_launch ce que chaque lancement ajoute à l'état (1 pour un drapeau, le nombre de
 *                   producteurs pour le compteur)
 * @throws std::invalid_argument si @p per_launch vaut 0
 * @throws std::overflow_error si la cible du lancement suivant dépasse 2³² − 1
 */
inline unsigned next_epoch(unsigned epoch, unsigned per_launch) {
    if (per_launch == 0) throw std::invalid_argument("chaque lancement doit faire avancer la cible d'au moins 1");
    constexpr unsigned kLargest = std::numeric_limits<unsigned>::max();
    if (epoch >= kLargest / per_launch)
        throw std::overflow_error("lancement " + std::to_string(epoch + 1ull) + " refusé : sa cible, " +
                                  std::to_string(per_launch) + " × " + std::to_string(epoch + 1ull) +
                                  ", dépasserait " + std::to_string(kLargest) +
                                  ", la plus grande valeur du compteur ; une grille neuve repart de zéro");
    return epoch + 1;
}

}  // namespace noyaux::megakernels::relay
