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
            report(std::string("simt : noyau ") + launch.kernel_name + " : interblocage, aucun progrès depuis " +
                   std::to_string(int(timeout.count())) +
                   " s (attente active d'un bloc non résident, ou d'une condition jamais remplie)");
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
