/**
 * @file
 * @brief Validateur d'ordonnancement (partie hôte, sans CUDA) : avant tout lancement, simule les
 *        files du programme jusqu'au point fixe pour prouver qu'aucune attente ne bloque, et
 *        calcule la valeur finale de chaque compteur, que le megakernel vérifie à la fin.
 */
#pragma once

#include "programme.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::megakernels::interpreter {

/** @brief Programme refusé : le message, en français, nomme la file, l'instruction et le compteur. */
class ScheduleError : public std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

/** @brief Ce que prouve la validation. */
struct ScheduleReport {
    std::vector<std::uint32_t> final_counters;  ///< valeur de chaque compteur après le programme
    int rounds = 0;                             ///< passes de simulation jusqu'au point fixe
};

namespace detail {

/** @brief « file @p queue, instruction @p index » : le lieu d'une erreur, pour les messages. */
inline std::string where(int queue, std::uint32_t index) {
    return "file " + std::to_string(queue) + ", instruction " + std::to_string(index);
}

}  // namespace detail

// --8<-- [start:validateur]
/**
 * @brief Valide @p program. Les compteurs ne font que croître : exécuter une instruction prête
 *        ne rend jamais une autre instruction non prête. Exécuter en boucle toutes les têtes de
 *        file prêtes jusqu'au point fixe suffit donc : si une file n'est pas vide à la fin,
 *        aucun ordre d'exécution sur le GPU ne la viderait non plus.
 * @throws ScheduleError si un compteur sort du tableau, si une attente ne peut jamais être
 *         satisfaite (le programme entier ne signale pas assez son compteur), ou si des files
 *         s'attendent l'une l'autre (cycle)
 */
inline ScheduleReport validate_schedule(const Program& program) {
    const int queues = program.queue_count();
    if (queues < 1 || program.queue_begin.front() != 0 || program.queue_begin.back() != program.instructions.size())
        throw ScheduleError("programme mal formé : les bornes des files ne couvrent pas les instructions");
    // 1. Chaque compteur nommé existe ; total des signaux reçus par chacun.
    std::vector<std::uint64_t> total(program.counter_count, 0);
    for (int q = 0; q < queues; ++q) {
        for (std::uint32_t i = program.queue_begin[q]; i < program.queue_begin[q + 1]; ++i) {
            const Instruction& ins = program.instructions[i];
            const std::uint32_t local = i - program.queue_begin[q];
            for (std::uint32_t c : {ins.wait_counter, ins.signal_counter})
                if (c != kNoCounter && c >= program.counter_count)
                    throw ScheduleError("compteur mal dimensionné : " + detail::where(q, local) + " nomme le compteur " +
                                        std::to_string(c) + ", mais le programme n'en déclare que " +
                                        std::to_string(program.counter_count));
            if (ins.signal_counter != kNoCounter) total[ins.signal_counter] += ins.signal_amount;
        }
    }
    for (std::uint64_t t : total)
        if (t > 0xffffffffull) throw ScheduleError("compteur mal dimensionné : plus de 2^32 - 1 signaux sur un compteur");
    // 2. Simulation jusqu'au point fixe.
    ScheduleReport report{std::vector<std::uint32_t>(program.counter_count, 0), 0};
    std::vector<std::uint32_t> head(program.queue_begin.begin(), program.queue_begin.end() - 1);
    for (bool progress = true; progress;) {
        progress = false;
        ++report.rounds;
        for (int q = 0; q < queues; ++q) {
            for (; head[q] < program.queue_begin[q + 1]; ++head[q]) {
                const Instruction& ins = program.instructions[head[q]];
                if (ins.wait_counter != kNoCounter && report.final_counters[ins.wait_counter] < ins.wait_target) break;
                if (ins.signal_counter != kNoCounter) report.final_counters[ins.signal_counter] += ins.signal_amount;
                progress = true;
            }
        }
    }
    // 3. Une file non vidée : attente impossible, ou cycle entre files.
    for (int q = 0; q < queues; ++q) {
        if (head[q] == program.queue_begin[q + 1]) continue;
        const Instruction& ins = program.instructions[head[q]];
        const std::string place = detail::where(q, head[q] - program.queue_begin[q]);
        if (total[ins.wait_counter] < ins.wait_target)
            throw ScheduleError("attente jamais satisfaite : " + place + " attend que le compteur " +
                                std::to_string(ins.wait_counter) + " atteigne " + std::to_string(ins.wait_target) +
                                ", mais tout le programme ne lui envoie que " +
                                std::to_string(total[ins.wait_counter]) + " signaux");
        throw ScheduleError("interblocage (cycle) : " + place + " attend que le compteur " +
                            std::to_string(ins.wait_counter) + " atteigne " + std::to_string(ins.wait_target) +
                            " (valeur bloquée à " + std::to_string(report.final_counters[ins.wait_counter]) +
                            ") ; les signaux qui manquent sont placés derrière d'autres attentes bloquées");
    }
    return report;
}
// --8<-- [end:validateur]

}  // namespace noyaux::megakernels::interpreter
