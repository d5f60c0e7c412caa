/**
 * @file
 * @brief Le modèle de conflits de banc de l'étape 7, commun aux étapes qui le vérifient : banc
 *        de chaque mot touché par les 32 lanes d'un warp, phases, passes, degré de conflit ; et
 *        le parcours de tous les warps et de tous les pas d'un accès. Calcul sur l'hôte,
 *        évaluable à la compilation.
 */
#pragma once

#include <algorithm>
#include <array>

namespace noyaux::gemm::bank_model {

// --8<-- [start:analyse]
inline constexpr int warp_size = 32;   ///< lanes d'un warp
inline constexpr int bank_count = 32;  ///< bancs de 4 octets de la mémoire partagée

/** @brief Accès d'un warp à la mémoire partagée : premier mot (4 octets) de chaque lane. */
struct WarpAccess {
    std::array<int, warp_size> word{};  ///< indice, en flottants, du premier mot de chaque lane
    int width = 1;                      ///< mots par lane : 1 (32 bits) ou 4 (128 bits)
};

/** @brief Banc du premier mot de chaque lane : (adresse / 4) mod 32. */
constexpr std::array<int, warp_size> banks(const WarpAccess& access) {
    std::array<int, warp_size> result{};
    for (int lane = 0; lane < warp_size; ++lane) result[lane] = access.word[lane] % bank_count;
    return result;
}

/**
 * @brief Passes nécessaires à une phase d'un accès : le plus grand nombre de mots distincts
 *        qu'un même banc doit y servir (1 : aucun conflit).
 * @param access l'accès du warp
 * @param first première lane de la phase
 *
 * Modèle : une passe transfère au plus 128 octets, un mot par banc. Un accès de 32 bits
 * forme une seule phase de 32 lanes ; un accès de 128 bits, quatre phases de 8 lanes
 * consécutives. Un mot lu par plusieurs lanes est diffusé : il ne compte qu'une fois.
 */
constexpr int phase_passes(const WarpAccess& access, int first) {
    std::array<int, bank_count> words_per_bank{};
    std::array<int, warp_size> seen{};  // mots de la phase déjà comptés
    int seen_count = 0, most = 1;
    for (int lane = first; lane < first + warp_size / access.width; ++lane)
        for (int i = 0; i < access.width; ++i) {
            const int word = access.word[lane] + i;
            if (std::find(seen.begin(), seen.begin() + seen_count, word) != seen.begin() + seen_count)
                continue;
            seen[seen_count++] = word;
            most = std::max(most, ++words_per_bank[word % bank_count]);
        }
    return most;
}

/** @brief Degré de conflit d'un accès : le pire nombre de passes de ses phases (1 : aucun). */
constexpr int conflict_degree(const WarpAccess& access) {
    int degree = 1;
    for (int first = 0; first < warp_size; first += warp_size / access.width)
        degree = std::max(degree, phase_passes(access, first));
    return degree;
}

/** @brief Passes d'un accès, toutes phases comprises : 1 au mieux en 32 bits, 4 en 128 bits. */
constexpr int passes(const WarpAccess& access) {
    int total = 0;
    for (int first = 0; first < warp_size; first += warp_size / access.width)
        total += phase_passes(access, first);
    return total;
}
// --8<-- [end:analyse]

/**
 * @brief L'accès du warp @p warp au pas @p step d'un accès d'une étape : `Access` décrit
 *        l'accès par ses membres statiques `name`, `threads` (threads du bloc), `steps` (pas par
 *        tuile de K : composantes, passes, pas kk…), `width` (1 ou 4 mots par lane) et
 *        `word(tid, step)`, le premier mot que touche le thread @p tid du bloc, calculé par les
 *        fonctions d'indice mêmes du noyau.
 */
template <typename Access>
constexpr WarpAccess warp_access_of(int warp, int step) {
    WarpAccess access;
    access.width = Access::width;
    for (int lane = 0; lane < warp_size; ++lane) access.word[lane] = Access::word(warp * warp_size + lane, step);
    return access;
}

/** @brief Pire degré de conflit de l'accès @p Access, sur tous les warps du bloc et tous les pas. */
template <typename Access>
constexpr int worst_degree() {
    int worst = 1;
    for (int warp = 0; warp < Access::threads / warp_size; ++warp)
        for (int step = 0; step < Access::steps; ++step)
            worst = std::max(worst, conflict_degree(warp_access_of<Access>(warp, step)));
    return worst;
}

}  // namespace noyaux::gemm::bank_model
