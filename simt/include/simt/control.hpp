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

/** @brief Dernier diagnostic émis (vide si aucun), en français. */
std::string last_diagnostic();

/** @brief Efface le dernier diagnostic. */
void clear_diagnostic();

/** @brief N'écrit plus les diagnostics sur la sortie d'erreur (ils restent consultables). */
void set_quiet(bool quiet);

}  // namespace simt
