/**
 * @file
 * @brief Logique hôte de l'exemple 07 : en combien de vagues une grille passe sur le GPU, et
 *        quelle part des emplacements de blocs la dernière vague laisse vides. Sans appel CUDA.
 */
#pragma once

#include <cstdint>
#include <stdexcept>

namespace noyaux::glossaire::tail {

/** @brief Découpage d'une grille en vagues de blocs résidents. */
struct Waves {
    std::uint64_t count = 0;       ///< vagues : ceil(blocs / blocs par vague)
    std::uint64_t last_wave = 0;   ///< blocs de la dernière vague
    double efficiency = 0.0;       ///< blocs / (vagues × blocs par vague) : 1 sans queue
};

// --8<-- [start:vagues]
/**
 * @brief Vagues d'une grille de @p blocks blocs de même durée quand @p per_wave blocs
 *        (blocs résidents par SM × nombre de SM) s'exécutent à la fois.
 * @throws std::invalid_argument si @p per_wave vaut 0
 */
inline Waves waves(std::uint64_t blocks, std::uint64_t per_wave) {
    if (per_wave == 0) throw std::invalid_argument("une vague compte au moins un bloc");
    Waves w;
    if (blocks == 0) return w;
    w.count = (blocks + per_wave - 1) / per_wave;
    w.last_wave = blocks - (w.count - 1) * per_wave;
    w.efficiency = static_cast<double>(blocks) / static_cast<double>(w.count * per_wave);
    return w;
}
// --8<-- [end:vagues]

}  // namespace noyaux::glossaire::tail
