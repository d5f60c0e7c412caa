/**
 * @file
 * @brief Le graphe de tâches de l'exemple 5 (partie hôte, sans CUDA), à la manière de MPK :
 *        des tâches (une opération sur une tranche) et des événements. Chaque tâche déclenche
 *        un événement à sa fin ; un événement se produit quand tous ses déclencheurs l'ont
 *        déclenché, et libère alors ses tâches (un intervalle contigu du tableau des tâches).
 *        Le validateur vérifie, avant lancement, que chaque tâche sera exécutée exactement une fois.
 */
#pragma once

#include "megakernels/common/decoder_step.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace noyaux::megakernels::taskgraph {

// --8<-- [start:graphe]
/** @brief Une tâche : une opération de l'étape sur une tranche, et l'événement qu'elle déclenche. */
struct Task {
    Opcode opcode;               ///< opération
    std::uint32_t layer;         ///< couche
    std::uint32_t begin;         ///< première ligne de sortie
    std::uint32_t end;           ///< ligne après la dernière
    std::uint32_t trigger;       ///< événement déclenché à la fin de la tâche
};

/** @brief Un événement : combien de déclencheurs il attend, quelles tâches il libère. */
struct Event {
    std::uint32_t triggers;      ///< déclenchements attendus (0 : l'événement de départ)
    std::uint32_t first_task;    ///< première tâche libérée
    std::uint32_t task_count;    ///< nombre de tâches libérées (contiguës)
};

/** @brief Le graphe : tâches, événements, et l'événement de départ (produit au lancement). */
struct TaskGraph {
    std::vector<Task> tasks;     ///< toutes les tâches
    std::vector<Event> events;   ///< tous les événements
    std::uint32_t start = 0;     ///< événement de départ
};
// --8<-- [end:graphe]

/** @brief Graphe refusé ; le message, en français, nomme la tâche ou l'événement fautif. */
class TaskGraphError : public std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

/**
 * @brief Le graphe d'une étape de décodeur : départ → RMSNorm(0) → tranches montantes(0) →
 *        tranches descendantes(0) → RMSNorm(1) → … ; le dernier événement ne libère rien.
 * @throws std::invalid_argument si @p shape sort des bornes
 */
inline TaskGraph build_decoder_graph(const DecoderShape& shape) {
    validate_shape(shape);
    TaskGraph graph;
    const auto rows = static_cast<std::uint32_t>(shape.slice_rows);
    auto add_event = [&](std::uint32_t triggers, std::uint32_t count) {
        graph.events.push_back({triggers, static_cast<std::uint32_t>(graph.tasks.size()), count});
        return static_cast<std::uint32_t>(graph.events.size() - 1);
    };
    std::uint32_t event = add_event(0, 1);  // départ : libère la RMSNorm de la couche 0
    graph.start = event;
    for (int layer = 0; layer < shape.layers; ++layer) {
        const auto l = static_cast<std::uint32_t>(layer);
        const auto up = static_cast<std::uint32_t>(up_slices(shape));
        const auto down = static_cast<std::uint32_t>(down_slices(shape));
        // Chaque événement est créé au moment où ses tâches vont être ajoutées (intervalle contigu).
        graph.tasks.push_back({Opcode::kRmsNorm, l, 0, static_cast<std::uint32_t>(shape.hidden),
                               static_cast<std::uint32_t>(graph.events.size())});
        event = add_event(1, up);
        for (std::uint32_t s = 0; s < up; ++s)
            graph.tasks.push_back({Opcode::kUpSilu, l, s * rows, (s + 1) * rows, event + 1});
        event = add_event(up, down);
        for (std::uint32_t s = 0; s < down; ++s)
            graph.tasks.push_back({Opcode::kDownResidual, l, s * rows, (s + 1) * rows, event + 1});
        add_event(down, layer + 1 < shape.layers ? 1u : 0u);
    }
    return graph;
}

/** @brief Ce que prouve la validation : les arêtes producteur → consommateur, pour les tests. */
struct GraphReport {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;  ///< (tâche qui déclenche, tâche libérée)
};

// --8<-- [start:validateur]
/**
 * @brief Valide @p graph : chaque événement nommé existe ; chaque tâche est libérée par
 *        exactement un événement ; chaque événement attend exactement le nombre de tâches qui le
 *        déclenchent ; une simulation depuis l'événement de départ exécute toutes les tâches
 *        (sinon, des événements s'attendent en cycle).
 * @throws TaskGraphError sinon, avec un message qui nomme le fautif
 */
inline GraphReport validate_task_graph(const TaskGraph& graph) {
    const auto task_count = static_cast<std::uint32_t>(graph.tasks.size());
    const auto event_count = static_cast<std::uint32_t>(graph.events.size());
    if (graph.start >= event_count) throw TaskGraphError("l'événement de départ n'existe pas");
    std::vector<std::uint32_t> released_by(task_count, UINT32_MAX);
    for (std::uint32_t e = 0; e < event_count; ++e) {
        const Event& ev = graph.events[e];
        if (ev.first_task + ev.task_count > task_count || ev.first_task + ev.task_count < ev.first_task)
            throw TaskGraphError("l'événement " + std::to_string(e) + " libère des tâches qui n'existent pas");
        for (std::uint32_t t = ev.first_task; t < ev.first_task + ev.task_count; ++t) {
            if (released_by[t] != UINT32_MAX)
                throw TaskGraphError("la tâche " + std::to_string(t) + " est libérée deux fois (événements " +
                                     std::to_string(released_by[t]) + " et " + std::to_string(e) + ")");
            released_by[t] = e;
        }
    }
    std::vector<std::uint32_t> declared(event_count, 0);
    for (std::uint32_t t = 0; t < task_count; ++t) {
        if (released_by[t] == UINT32_MAX)
            throw TaskGraphError("la tâche " + std::to_string(t) + " n'est libérée par aucun événement");
        if (graph.tasks[t].trigger >= event_count)
            throw TaskGraphError("la tâche " + std::to_string(t) + " déclenche l'événement " +
                                 std::to_string(graph.tasks[t].trigger) + ", qui n'existe pas");
        ++declared[graph.tasks[t].trigger];
    }
    for (std::uint32_t e = 0; e < event_count; ++e) {
        const std::uint32_t wanted = e == graph.start ? 0 : graph.events[e].triggers;
        if (declared[e] != wanted || (e == graph.start && graph.events[e].triggers != 0))
            throw TaskGraphError("l'événement " + std::to_string(e) + " attend " +
                                 std::to_string(graph.events[e].triggers) + " déclencheurs, mais " +
                                 std::to_string(declared[e]) + " tâches le déclenchent" +
                                 (declared[e] < wanted ? " : il ne se produirait jamais" : " : il se produirait trop tôt"));
    }
    // Simulation : départ, puis chaque tâche libérée s'exécute et déclenche son événement.
    GraphReport report;
    std::vector<std::uint32_t> received(event_count, 0), ready;
    std::vector<bool> done(task_count, false);
    auto release = [&](std::uint32_t e) {
        for (std::uint32_t t = 0; t < graph.events[e].task_count; ++t) ready.push_back(graph.events[e].first_task + t);
    };
    release(graph.start);
    std::uint32_t executed = 0;
    while (!ready.empty()) {
        const std::uint32_t t = ready.back();
        ready.pop_back();
        done[t] = true;
        ++executed;
        const std::uint32_t e = graph.tasks[t].trigger;
        const Event& ev = graph.events[e];
        for (std::uint32_t c = ev.first_task; c < ev.first_task + ev.task_count; ++c) report.edges.emplace_back(t, c);
        if (++received[e] == ev.triggers) release(e);
    }
    if (executed != task_count) {
        std::uint32_t stuck = 0;
        while (done[stuck]) ++stuck;
        throw TaskGraphError("interblocage (cycle) : la tâche " + std::to_string(stuck) + " attend l'événement " +
                             std::to_string(released_by[stuck]) + ", qui attend lui-même des tâches jamais libérées");
    }
    return report;
}
// --8<-- [end:validateur]

}  // namespace noyaux::megakernels::taskgraph
