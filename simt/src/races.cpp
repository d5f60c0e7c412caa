/**
 * @file
 * @brief Détection des courses de données (mode SIMT_ORDRES=N) : le lancement est rejoué
 *        dans N ordres de threads (croissant, décroissant, puis mélanges) à partir de la même
 *        mémoire : les allocations du périphérique, les variables globales du programme
 *        (`__device__`, `__managed__`) et les régions de l'hôte enregistrées (mémoire
 *        épinglée), voir replay_memory.cpp. Un résultat qui dépend de l'ordre trahit un accès
 *        concurrent non synchronisé ; le plus souvent, un __syncthreads manque. Un écart
 *        limité aux octets écrits par des atomiques n'en est pas un : c'est le
 *        non-déterminisme des atomiques (l'ordre d'une somme flottante), signalé comme tel.
 */
#include "execution.hpp"
#include "internal.hpp"

#include <string>

namespace simt::detail {

namespace {

/** @brief Image de toute la mémoire que le noyau peut écrire. */
struct Image {
    MemorySnapshot device;
    std::vector<std::vector<std::byte>> regions;
};

Image take(const std::vector<ReplayRegion>& regions) {
    return {snapshot_device_memory(), snapshot_regions(regions)};
}

void put(const Image& image, const std::vector<ReplayRegion>& regions) {
    restore_device_memory(image.device);
    restore_regions(regions, image.regions);
}

/** @brief Premier octet qui diffère, de préférence hors des atomiques. */
struct Difference {
    std::string where;           // vide : aucune différence
    bool only_atomics = true;    // toutes les différences sont dans des octets d'atomiques
};

void compare_bytes(const std::vector<std::byte>& left, const std::vector<std::byte>& right,
                   const std::byte* base, const std::string& name, const AtomicFootprint& atomics,
                   Difference& difference) {
    for (std::size_t offset = 0; offset < left.size() && offset < right.size(); ++offset) {
        if (left[offset] == right[offset]) continue;
        const bool atomic = atomics.covers(base + offset);
        if (difference.where.empty() || (!atomic && difference.only_atomics))
            difference.where = name + ", octet " + std::to_string(offset);
        if (!atomic) {
            difference.only_atomics = false;
            return;
        }
    }
}

Difference first_difference(const Image& a, const Image& b, const std::vector<ReplayRegion>& regions,
                            const AtomicFootprint& atomics) {
    Difference difference;
    for (std::size_t i = 0; i < a.device.size() && i < b.device.size() && difference.only_atomics; ++i)
        compare_bytes(a.device[i].second, b.device[i].second, static_cast<const std::byte*>(a.device[i].first),
                      "allocation " + std::to_string(i), atomics, difference);
    for (std::size_t i = 0; i < regions.size() && difference.only_atomics; ++i)
        compare_bytes(a.regions[i], b.regions[i], regions[i].begin, regions[i].name, atomics, difference);
    return difference;
}

}  // namespace

void run_in_several_orders(const char* name, const LaunchShape& shape, unsigned resident_blocks,
                           const ThreadBody& body, int orders) {
    const std::vector<ReplayRegion> regions = replay_regions();
    const Image before = take(regions);
    AtomicFootprint atomics;
    run_grid(name, shape, resident_blocks, body, 0, true, &atomics);
    const Image reference = take(regions);
    std::string atomic_difference;
    for (int order = 1; order < orders && sticky_error() == cudaSuccess; ++order) {
        put(before, regions);
        run_grid(name, shape, resident_blocks, body, order, true, &atomics);
        const Difference difference = first_difference(reference, take(regions), regions, atomics);
        if (difference.where.empty()) continue;
        if (difference.only_atomics) {
            if (atomic_difference.empty())
                atomic_difference = difference.where + ", ordre " + std::to_string(order);
            continue;
        }
        report(std::string("simt : noyau ") + name +
               " : le résultat dépend de l'ordre d'exécution des threads (" + difference.where +
               ", ordre " + std::to_string(order) +
               ") : accès concurrent non synchronisé, une barrière (__syncthreads) manque "
               "probablement, ou un __syncwarp entre les lanes d'un même warp (simt n'exécute "
               "pas un warp en synchronie implicite, voir « Exécuter sans GPU »)");
        set_sticky_error(cudaErrorLaunchFailure);
        atomic_difference.clear();
        break;
    }
    if (!atomic_difference.empty())
        report(std::string("simt : AVERTISSEMENT : noyau ") + name +
               " : le résultat dépend de l'ordre d'exécution des threads, mais seulement dans des "
               "octets écrits par des atomiques (" + atomic_difference +
               ") : non-déterminisme par atomiques (l'ordre d'une somme flottante par atomicAdd, "
               "par exemple), pas une course de données");
    put(reference, regions);
}

}  // namespace simt::detail
