/**
 * @file
 * @brief Exemple 5 : un graphe de tâches exécuté par un noyau persistant, à la manière de MPK.
 *        Le warp 0 du bloc 0 est l'ordonnanceur : ses 32 lanes reçoivent en parallèle les fins
 *        de tâches, comptent les déclenchements de chaque événement par une atomique et poussent
 *        dans la file des tâches prêtes celles que libère un événement complet. Les autres blocs,
 *        travailleurs, prennent la tâche suivante de cette file dès qu'ils sont libres :
 *        l'ordonnancement est dynamique.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "graphe.hpp"
#include "megakernels/common/co_residence.cuh"
#include "megakernels/common/decoder_ops.cuh"
#include "megakernels/common/synchronisation.cuh"

#include <cstdint>
#include <span>
#include <vector>

namespace noyaux::megakernels::taskgraph {

/** @brief Pas de tâche : la file est épuisée, le travailleur s'arrête. */
constexpr unsigned int kNoTask = 0xffffffffu;

/** @brief Lanes de l'ordonnanceur : le warp 0 du bloc 0 ; les autres threads de ce bloc sortent. */
constexpr unsigned int kSchedulerLanes = 32;
static_assert(kDecoderThreads >= kSchedulerLanes, "le bloc ordonnanceur doit contenir un warp entier");

/** @brief Mémoire de contrôle d'une exécution : un seul tableau, remis à zéro d'un seul memset. */
struct ControlLayout {
    std::size_t received;   ///< déclenchements reçus par événement (atomiques des lanes de l'ordonnanceur)
    std::size_t releaser;   ///< lane qui a libéré chaque événement, + 1 (0 : jamais libéré)
    std::size_t ready;      ///< file des tâches prêtes : numéro + 1, 0 tant que la case est vide
    std::size_t ready_tail; ///< prochaine case libre de la file des tâches prêtes
    std::size_t finished;   ///< file des fins de tâches : événement déclenché + 1
    std::size_t finished_tail;  ///< prochaine case libre de la file des fins
    std::size_t ticket;     ///< prochaine case de la file des tâches prêtes à prendre
    std::size_t clock;      ///< horloge globale : un tic par début et par fin de tâche
    std::size_t start;      ///< tic du début de chaque tâche
    std::size_t stop;       ///< tic de la fin de chaque tâche
    std::size_t runs;       ///< exécutions de chaque tâche (doit valoir 1)
    std::size_t worker;     ///< bloc qui a exécuté chaque tâche
    std::size_t total;      ///< taille du tableau
    /** @brief Disposition pour @p tasks tâches et @p events événements. */
    static ControlLayout of(std::size_t tasks, std::size_t events) {
        ControlLayout c{};
        std::size_t at = 0;
        auto take = [&](std::size_t n) { const std::size_t here = at; at += n; return here; };
        c.received = take(events);
        c.releaser = take(events);
        c.ready = take(tasks);
        c.ready_tail = take(1);
        c.finished = take(tasks);
        c.finished_tail = take(1);
        c.ticket = take(1);
        c.clock = take(1);
        c.start = take(tasks);
        c.stop = take(tasks);
        c.runs = take(tasks);
        c.worker = take(tasks);
        c.total = at;
        return c;
    }
};

/** @brief Ce que reçoit le noyau. */
struct TaskGraphParams {
    const Task* tasks;          ///< les tâches
    const Event* events;        ///< les événements
    std::uint32_t task_count;   ///< nombre de tâches
    std::uint32_t start;        ///< événement de départ
    unsigned int* control;      ///< mémoire de contrôle (ControlLayout), à zéro au lancement
    ControlLayout layout;       ///< sa disposition
    DecoderOperands operands;   ///< poids et activations
};

// --8<-- [start:ordonnanceur]
/**
 * @brief La lane @p lane libère les tâches de l'événement @p e : elle en réserve les cases dans
 *        la file des tâches prêtes, puis publie chacune.
 */
__device__ inline void release_event(const TaskGraphParams& p, std::uint32_t e, unsigned int lane) {
    const Event ev = p.events[e];
    // Relaxed : la réservation ne fait que partager des indices entre lanes ; ce qui compte pour
    // le travailleur est publié par le release de chaque case.
    const unsigned int first = DeviceAtomicRef(p.control[p.layout.ready_tail]).fetch_add(ev.task_count,
                                                                                          cuda::memory_order_relaxed);
    p.control[p.layout.releaser + e] = lane + 1;  // trace pour les tests, lue après le lancement
    // Release : le travailleur qui lit la case (acquire) voit les résultats de toutes les tâches
    // qui ont déclenché l'événement, que cette lane a acquis elle-même ou par « received ».
    for (std::uint32_t k = 0; k < ev.task_count; ++k)
        publish_flag(&p.control[p.layout.ready + first + k], ev.first_task + k + 1);
}

/**
 * @brief L'ordonnanceur, un warp : la lane 0 libère les tâches du départ ; la lane i lit les cases
 *        i, i + 32, i + 64… de la file des fins de tâches ; chaque fin compte pour son événement,
 *        et la lane qui apporte le dernier déclenchement attendu libère les tâches de l'événement.
 *
 * Aucune lane n'attend une autre lane : chacune n'attend que sa case, remplie par un travailleur.
 * Ce travailleur peut toutefois avoir besoin d'une tâche qu'une autre lane doit libérer : il faut
 * donc qu'une lane qui tourne dans son attente n'empêche pas les autres d'avancer. C'est le cas
 * sur GPU depuis Volta (ordonnancement indépendant des threads : les chemins divergents d'un warp
 * progressent chacun) et sur simt (chaque lane est une fibre qui cède la main à chaque
 * chargement atomique et à chaque __nanosleep de l'attente).
 */
__device__ inline void schedule(const TaskGraphParams& p, unsigned int lane) {
    if (lane == 0) release_event(p, p.start, lane);
    for (std::uint32_t slot = lane; slot < p.task_count; slot += kSchedulerLanes) {
        unsigned int* finished = &p.control[p.layout.finished + slot];
        // Acquire : pairé avec le release du travailleur qui a publié cette fin.
        wait_acquire(finished, 1);
        const std::uint32_t e = *finished - 1;
        // Atomique, car plusieurs lanes comptent pour le même événement. Acq_rel : le release
        // transmet ce que cette lane a acquis aux lanes suivantes sur ce compteur ; l'acquire
        // donne à la lane du dernier déclenchement tout ce que les précédentes avaient acquis.
        const unsigned int before =
            DeviceAtomicRef(p.control[p.layout.received + e]).fetch_add(1, cuda::memory_order_acq_rel);
        if (before + 1 == p.events[e].triggers) release_event(p, e, lane);
    }
}
// --8<-- [end:ordonnanceur]

// --8<-- [start:travailleur]
/**
 * @brief Le noyau persistant : bloc 0 ordonnanceur (son premier warp), blocs suivants
 *        travailleurs. Un travailleur prend un ticket (la case suivante de la file des tâches
 *        prêtes), attend qu'elle soit remplie (acquire), exécute la tâche avec tout le bloc, puis
 *        publie sa fin (release).
 */
__global__ void __launch_bounds__(kDecoderThreads) task_graph_kernel(TaskGraphParams p) {
    extern __shared__ float page[];
    if (blockIdx.x == 0) {
        // Le bloc garde la taille commune (un seul noyau) ; seul son premier warp ordonnance.
        if (threadIdx.x < kSchedulerLanes) schedule(p, threadIdx.x);
        return;
    }
    __shared__ unsigned int current;
    unsigned int* c = p.control;
    const ControlLayout& at = p.layout;
    for (;;) {
        if (threadIdx.x == 0) {
            const unsigned int ticket = atomicAdd(&c[at.ticket], 1u);
            unsigned int task = kNoTask;
            if (ticket < p.task_count) {
                wait_acquire(&c[at.ready + ticket], 1);
                task = c[at.ready + ticket] - 1;
                c[at.start + task] = atomicAdd(&c[at.clock], 1u);
                atomicAdd(&c[at.runs + task], 1u);
                c[at.worker + task] = blockIdx.x;
            }
            current = task;
        }
        __syncthreads();
        const unsigned int task = current;
        if (task == kNoTask) return;
        const Task t = p.tasks[task];
        execute_op(t.opcode, p.operands, static_cast<int>(t.layer), static_cast<int>(t.begin),
                   static_cast<int>(t.end), page);
        __syncthreads();  // calcul fini pour tout le bloc ; « current » peut être réécrit
        if (threadIdx.x == 0) {
            c[at.stop + task] = atomicAdd(&c[at.clock], 1u);
            const unsigned int slot = atomicAdd(&c[at.finished_tail], 1u);
            publish_flag(&c[at.finished + slot], t.trigger + 1);
        }
    }
}
// --8<-- [end:travailleur]

/** @brief Ce qu'une exécution a laissé dans la mémoire de contrôle, pour les vérifications. */
struct RunTrace {
    std::vector<unsigned int> received;  ///< déclenchements reçus par événement
    std::vector<unsigned int> releaser;  ///< lane qui a libéré chaque événement, + 1 (0 : jamais)
    std::vector<unsigned int> start;     ///< tic de début de chaque tâche
    std::vector<unsigned int> stop;      ///< tic de fin de chaque tâche
    std::vector<unsigned int> runs;      ///< exécutions de chaque tâche
    std::vector<unsigned int> worker;    ///< bloc travailleur de chaque tâche
};

/** @brief Le graphe validé et copié sur le GPU, prêt à lancer sur 1 + @p workers blocs. */
class TaskGraphRunner {
public:
    /**
     * @brief Valide @p graph (TaskGraphError sinon), vérifie que l'ordonnanceur et les
     *        @p workers travailleurs tiennent ensemble sur le GPU (CoResidencyError sinon).
     */
    TaskGraphRunner(const TaskGraph& graph, const DecoderShape& shape, int workers)
        : report_(validate_task_graph(graph)), graph_(graph), shape_(shape), blocks_(workers + 1),
          layout_(ControlLayout::of(graph.tasks.size(), graph.events.size())),
          tasks_(std::span<const Task>(graph.tasks)), events_(std::span<const Event>(graph.events)),
          control_(layout_.total) {
        if (workers < 1) throw std::invalid_argument("il faut au moins un bloc travailleur");
        const int bytes = static_cast<int>(page_bytes(shape_));
        NOYAUX_CUDA_CHECK(cudaFuncSetAttribute(task_graph_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
        require_co_resident(task_graph_kernel, blocks_, static_cast<int>(kDecoderThreads), page_bytes(shape_));
    }

    // --8<-- [start:lancement]
    /** @brief Une étape : entrée recopiée, contrôle remis à zéro, un lancement (asynchrone). */
    void launch(DecoderDeviceState& state, cudaStream_t stream) {
        state.reset_input(stream);
        NOYAUX_CUDA_CHECK(cudaMemsetAsync(control_.data(), 0, control_.bytes(), stream));
        const TaskGraphParams params{tasks_.data(), events_.data(), static_cast<std::uint32_t>(graph_.tasks.size()),
                                     graph_.start, control_.data(), layout_, state.operands()};
        task_graph_kernel<<<blocks_, kDecoderThreads, page_bytes(shape_), stream>>>(params);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
    }
    // --8<-- [end:lancement]

    /** @brief La trace de la dernière exécution (après synchronisation). */
    RunTrace trace() const {
        const std::vector<unsigned int> all = control_.download();
        auto part = [&](std::size_t offset, std::size_t count) {
            return std::vector<unsigned int>(all.begin() + static_cast<std::ptrdiff_t>(offset),
                                             all.begin() + static_cast<std::ptrdiff_t>(offset + count));
        };
        const std::size_t n = graph_.tasks.size();
        return {part(layout_.received, graph_.events.size()), part(layout_.releaser, graph_.events.size()),
                part(layout_.start, n), part(layout_.stop, n),
                part(layout_.runs, n), part(layout_.worker, n)};
    }
    /** @brief Arêtes producteur → consommateur du graphe (rapport du validateur). */
    const GraphReport& report() const { return report_; }
    /** @brief Le graphe. */
    const TaskGraph& graph() const { return graph_; }

private:
    GraphReport report_;
    TaskGraph graph_;
    DecoderShape shape_;
    int blocks_;
    ControlLayout layout_;
    DeviceBuffer<Task> tasks_;
    DeviceBuffer<Event> events_;
    DeviceBuffer<unsigned int> control_;
};

/** @brief Nombre de violations de l'ordre : arêtes (p, c) où c a commencé avant la fin de p. */
inline std::size_t order_violations(const GraphReport& report, const RunTrace& trace) {
    std::size_t violations = 0;
    for (const auto& [producer, consumer] : report.edges)
        if (trace.stop[producer] >= trace.start[consumer]) ++violations;
    return violations;
}

}  // namespace noyaux::megakernels::taskgraph
