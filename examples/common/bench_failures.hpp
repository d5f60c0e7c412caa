/**
 * @file
 * @brief Les contrôles qu'un benchmark a vu échouer (un résultat faux, par exemple) : chacun
 *        est affiché tout de suite, la mesure fautive est marquée en échec, les autres
 *        continuent, et le programme se termine en échec (bench_main.cu). Une session de GPU
 *        prêtée pour quelques minutes ne perd pas toutes ses mesures pour un noyau faux.
 */
#pragma once

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace noyaux {

/** @brief Les échecs signalés depuis le début du programme. */
inline std::vector<std::string>& bench_failures() {
    static std::vector<std::string> failures;
    return failures;
}

/** @brief Affiche @p message sur la sortie d'erreur et le garde pour le code de sortie. */
inline void report_bench_failure(std::string message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    bench_failures().push_back(std::move(message));
}

}  // namespace noyaux
