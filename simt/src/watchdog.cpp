/**
 * @file
 * @brief Détection des interblocages : un chien de garde surveille le compteur de progrès
 *        d'un lancement (barrière libérée, thread ou bloc terminé). Sans progrès pendant
 *        SIMT_DELAI secondes (60 par défaut), le lancement est déclaré interbloqué : le cas
 *        d'une attente active sur un bloc qui n'est pas résident, ou d'une condition qu'aucun
 *        thread ne remplira.
 */
#include "execution.hpp"
#include "internal.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace simt::detail {

namespace {

double deadlock_timeout_seconds() {
    const char* text = std::getenv("SIMT_DELAI");
    const double value = text ? std::atof(text) : 0.0;
    return value > 0.0 ? value : 60.0;
}

/** @brief « 1 bloc … » ou « N blocs … » : @p one et @p many sont les deux accords. */
std::string count_text(unsigned count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

/**
 * @brief Le diagnostic d'un lancement sans progrès : quand des blocs de la grille n'ont pas pu
 *        démarrer faute de place, la cause la plus probable est qu'un bloc résident attend l'un
 *        d'eux, ce qui ne se débloque pas plus sur GPU.
 */
std::string deadlock_text(Launch& launch, double seconds) {
    std::string text = std::string("simt : noyau ") + launch.kernel_name +
                       " : interblocage, aucun progrès depuis " + std::to_string(int(seconds)) + " s";
    // Une barrière de cluster qu'un bloc n'atteint pas : la nommer, et dire les mbarrier
    // qu'attendent ses threads s'il y en a (un pipeline de TMA multidiffusée mal réglé bloque
    // ainsi : la barrière du cluster de fin n'est que la conséquence).
    const std::string mbarriers = mbarrier_waits_text(launch);
    if (const std::string clusters = cluster_deadlock_text(launch); !clusters.empty())
        return text + clusters + mbarriers;
    const unsigned started = std::min(launch.next_block.load(), launch.block_count);
    const unsigned running = started - std::min(started, launch.finished_blocks.load());
    const unsigned not_started = launch.block_count - started;
    if (not_started == 0 && !mbarriers.empty()) return text + mbarriers;
    if (not_started == 0)
        return text + " (attente active d'un bloc non résident, ou d'une condition jamais remplie)";
    return text + " : " + count_text(running, "bloc résident attend", "blocs résidents attendent") + " ; " +
           count_text(not_started, "bloc de la grille n'a pas encore démarré faute de place",
                      "blocs de la grille n'ont pas encore démarré faute de place") +
           " : interblocage de co-résidence (une grille persistante doit tenir en entier sur le GPU ; "
           "voir cudaOccupancyMaxActiveBlocksPerMultiprocessor)";
}

}  // namespace

void watch_for_deadlock(Launch& launch, const std::atomic<unsigned>& finished, unsigned workers) {
    const auto timeout = std::chrono::duration<double>(deadlock_timeout_seconds());
    auto last_progress = launch.progress.load();
    auto since = std::chrono::steady_clock::now();
    while (finished.load() < workers) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const auto progress = launch.progress.load();
        if (progress != last_progress) {
            last_progress = progress;
            since = std::chrono::steady_clock::now();
        } else if (std::chrono::steady_clock::now() - since > timeout && !launch.aborted) {
            report(deadlock_text(launch, timeout.count()));
            set_sticky_error(cudaErrorLaunchTimeout);
            launch.aborted = true;
            if (launch.grid_barrier) launch.grid_barrier->wake_all();
            since = std::chrono::steady_clock::now();
        } else if (launch.aborted && std::chrono::steady_clock::now() - since > std::chrono::seconds(5)) {
            // Une fibre ne s'interrompt qu'à un point d'attente : celle qui n'en atteint
            // plus aucun ne se déroulera jamais, et ne peut qu'être abandonnée avec le processus.
            std::fputs("simt : un thread reste bloqué dans une boucle sans point d'attente ; arrêt du programme.\n", stderr);
            std::_Exit(3);
        }
    }
}

}  // namespace simt::detail
