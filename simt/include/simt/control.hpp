/**
 * @file
 * @brief Réglages et diagnostics de l'émulateur, pour les tests et simt-run.
 */
#pragma once

#include <string>

namespace simt {

/**
 * @brief Mode qui expose les courses de données : chaque lancement est rejoué dans
 *        @p orders ordres de threads différents (croissant, décroissant, puis mélanges) à
 *        partir de la même mémoire, et les résultats sont comparés. 1 : désactivé.
 *        Aussi réglable par la variable d'environnement SIMT_ORDRES.
 */
void set_thread_orders(int orders);

/**
 * @brief Mode strict : les comportements indéfinis que simt tolère par défaut comme le GPU
 *        (threads terminés avant un __syncthreads, shuffle qui lit une lane terminée ou
 *        absente) deviennent des erreurs. Aussi réglable par la variable d'environnement
 *        SIMT_STRICT=1.
 */
void set_strict(bool strict);

/** @brief Dernier diagnostic émis (vide si aucun), en français. */
std::string last_diagnostic();

/** @brief Efface le dernier diagnostic. */
void clear_diagnostic();

/** @brief N'écrit plus les diagnostics sur la sortie d'erreur (ils restent consultables). */
void set_quiet(bool quiet);

}  // namespace simt
