/**
 * @file
 * @brief Détection des courses de données (mode SIMT_ORDRES=N) : le lancement est rejoué
 *        dans N ordres de threads (croissant, décroissant, puis mélanges) à partir de la même
 *        mémoire du périphérique. Un résultat qui dépend de l'ordre trahit un accès concurrent
 *        non synchronisé ; le plus souvent, un __syncthreads manque.
 */
#include "execution.hpp"
#include "internal.hpp"

#include <string>

namespace simt::detail {

namespace {

/** @brief Premier octet qui diffère entre deux images de la mémoire. */
std::string first_difference(const MemorySnapshot& a, const MemorySnapshot& b) {
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        const auto& left = a[i].second;
        const auto& right = b[i].second;
        for (std::size_t offset = 0; offset < left.size() && offset < right.size(); ++offset)
            if (left[offset] != right[offset])
                return "allocation " + std::to_string(i) + ", octet " + std::to_string(offset);
    }
    return "";
}

}  // namespace

void run_in_several_orders(const char* name, const LaunchShape& shape, unsigned resident_blocks,
                           const ThreadBody& body, int orders) {
    const MemorySnapshot before = snapshot_device_memory();
    run_grid(name, shape, resident_blocks, body, 0, true);
    const MemorySnapshot reference = snapshot_device_memory();
    for (int order = 1; order < orders && sticky_error() == cudaSuccess; ++order) {
        restore_device_memory(before);
        run_grid(name, shape, resident_blocks, body, order, true);
        const MemorySnapshot other = snapshot_device_memory();
        if (const std::string where = first_difference(reference, other); !where.empty()) {
            report(std::string("simt : noyau ") + name +
                   " : le résultat dépend de l'ordre d'exécution des threads (" + where +
                   ", ordre " + std::to_string(order) +
                   ") : accès concurrent non synchronisé, une barrière (__syncthreads) manque probablement");
            set_sticky_error(cudaErrorLaunchFailure);
            break;
        }
    }
    restore_device_memory(reference);
}

}  // namespace simt::detail
