/**
 * @file
 * @brief Détection des barrières et des masques qui ne concordent pas. L'ordonnanceur
 *        (block.cpp) l'appelle quand plus aucune fibre du bloc n'est prête : sur GPU, ce
 *        programme attendrait pour toujours, ou ferait n'importe quoi ; ici, il est arrêté
 *        avec un diagnostic qui nomme les threads et les lignes en cause.
 */
#include "execution.hpp"

#include <cstring>
#include <string>

namespace simt::detail {

namespace {

/** @brief Une opération de warp attend des lanes qui n'y viendront pas : les nomme. */
void report_missing_lanes(Block& block, const ThreadSlot& waiting) {
    const unsigned first = waiting.linear / kWarpSize * kWarpSize;
    std::string missing;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!(waiting.warp.mask >> lane & 1u) || first + lane >= block.threads.size()) continue;
        const ThreadSlot& other = block.threads[first + lane];
        if (other.state != State::at_warp && other.state != State::done)
            missing += " lane " + std::to_string(lane) + " " + state_text(other) + ";";
    }
    fail(block, waiting,
         std::string(warp_request_name(waiting.warp)) + " (" + location(waiting.where) +
             ") : le masque " + mask_text(waiting.warp.mask) +
             " ne correspond pas aux lanes qui participent :" + missing);
}

}  // namespace

bool all_at_same_barrier(Block& block) {
    ThreadSlot* waiting = nullptr;
    ThreadSlot* finished = nullptr;
    ThreadSlot* warp_waiting = nullptr;
    ThreadSlot* warpgroup_waiting = nullptr;
    ThreadSlot* tile_waiting = nullptr;
    for (ThreadSlot& slot : block.threads) {
        if (slot.state == State::done) finished = finished ? finished : &slot;
        else if (slot.state == State::at_warp) warp_waiting = warp_waiting ? warp_waiting : &slot;
        else if (slot.state == State::at_warpgroup) warpgroup_waiting = warpgroup_waiting ? warpgroup_waiting : &slot;
        else if (slot.state == State::at_tile) tile_waiting = tile_waiting ? tile_waiting : &slot;
        else if (!waiting) waiting = &slot;
    }
    if (warp_waiting) {
        if (!report_warp_discord(block)) report_missing_lanes(block, *warp_waiting);
        return false;
    }
    if (warpgroup_waiting) {  // warpgroup.cpp : les warps du groupe qui n'y viennent pas
        report_missing_warps(block, *warpgroup_waiting);
        return false;
    }
    // Une tuile complète est libérée par son dernier arrivé (tiles.cpp) : celle qui attend
    // encore quand le bloc est bloqué attend un thread qui n'y viendra pas.
    if (tile_waiting) {
        report_incomplete_tile(block, *tile_waiting);
        return false;
    }
    if (!waiting) return false;  // tous terminés
    for (ThreadSlot& slot : block.threads) {
        if (slot.state == State::done) continue;
        if (slot.state != waiting->state || slot.where.line() != waiting->where.line() ||
            std::strcmp(slot.where.file_name(), waiting->where.file_name()) != 0) {
            fail(block, *waiting,
                 "barrières divergentes : le thread " + coordinates(waiting->index) + " " +
                     state_text(*waiting) + ", le thread " + coordinates(slot.index) + " " +
                     state_text(slot));
            return false;
        }
    }
    if (finished) {
        const std::string barrier = waiting->state == State::at_grid ? "grid.sync()" : "__syncthreads";
        const std::string problem = barrier + " (" + location(waiting->where) +
                                    ") n'est pas atteint par tous les threads du bloc : le thread " +
                                    coordinates(finished->index) + " a terminé sans l'atteindre";
        // grid.sync() : rien ne dit ce que fait le matériel ; une faute, comme avant.
        if (waiting->state == State::at_grid) {
            fail(block, *waiting, problem);
            return false;
        }
        // Sur GPU, un thread terminé n'est plus attendu : « si les threads qui terminent sont
        // les seuls à ne pas avoir atteint la barrière, elle est libérée » (PTX ISA,
        // instruction exit). Les échantillons de NVIDIA en dépendent (if (i >= n) return;).
        return tolerate(block, *waiting, waiting->where, "barriere-threads-termines",
                        problem + " ; les threads terminés ne sont pas attendus sur GPU (PTX ISA, "
                                  "instruction exit), simt libère la barrière pour les autres",
                        "__syncthreads() n'est permis dans du code conditionnel que si la "
                        "condition est la même pour tout le bloc");
    }
    return true;
}

}  // namespace simt::detail
