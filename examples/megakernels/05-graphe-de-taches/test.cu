/**
 * @file
 * @brief Tests de l'exemple 5. Partout : construction du graphe de tâches et validateur
 *        (graphes valides et invalides). Sur l'émulateur et sur GPU : chaque tâche est exécutée
 *        exactement une fois, chaque tâche commence après la fin de toutes celles dont elle
 *        dépend (horloge globale), chaque événement reçoit tous ses déclenchements, le résultat
 *        est celui de la référence CPU, et une deuxième exécution donne le même ; avec plus de
 *        fins de tâches que de lanes, les 32 lanes du warp ordonnanceur libèrent des événements.
 */
#include "graphe.hpp"

#include "graphe-de-taches.cuh"

#include "common/cuda_check.cuh"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

namespace mk = noyaux::megakernels;
namespace tg = noyaux::megakernels::taskgraph;

constexpr mk::DecoderShape kSmall{64, 128, 2, 16};

std::string graph_error(const tg::TaskGraph& graph) {
    try {
        tg::validate_task_graph(graph);
    } catch (const tg::TaskGraphError& error) {
        return error.what();
    }
    return "aucune erreur";
}

/** Deux tâches en chaîne : départ → tâche 0 → événement 1 → tâche 1 → événement 2. */
tg::TaskGraph chain() {
    return {{{mk::Opcode::kNop, 0, 0, 0, 1}, {mk::Opcode::kNop, 0, 0, 0, 2}}, {{0, 0, 1}, {1, 1, 1}, {1, 2, 0}}, 0};
}

}  // namespace

TEST(TaskGraphHost, DecoderGraphHasOneTaskPerOperationAndSlice) {
    const tg::TaskGraph graph = tg::build_decoder_graph(kSmall);
    EXPECT_EQ(graph.tasks.size(), 2u * (1 + 8 + 4));
    EXPECT_EQ(graph.events.size(), 1u + 3u * 2u);
    const tg::GraphReport report = tg::validate_task_graph(graph);
    // RMSNorm → 8 tranches montantes → 4 descendantes (8 × 4 arêtes) → RMSNorm suivante, par couche.
    EXPECT_EQ(report.edges.size(), 2u * (8 + 8 * 4) + 4u);
    EXPECT_EQ(graph.events.back().task_count, 0u);  // le dernier événement ne libère rien
}

TEST(TaskGraphHost, ValidatorAcceptsAChain) {
    const tg::GraphReport report = tg::validate_task_graph(chain());
    ASSERT_EQ(report.edges.size(), 1u);
    EXPECT_EQ(report.edges[0], (std::pair<std::uint32_t, std::uint32_t>{0, 1}));
}

TEST(TaskGraphHost, ValidatorRejectsBrokenGraphs) {
    tg::TaskGraph graph = chain();
    graph.tasks[1].trigger = 7;
    EXPECT_NE(graph_error(graph).find("déclenche l'événement 7, qui n'existe pas"), std::string::npos);

    graph = chain();
    graph.events[1].triggers = 2;  // un seul déclencheur existe
    EXPECT_NE(graph_error(graph).find("il ne se produirait jamais"), std::string::npos) << graph_error(graph);

    graph = chain();
    graph.events[2].task_count = 1;  // libère la tâche 2, qui n'existe pas
    EXPECT_NE(graph_error(graph).find("libère des tâches qui n'existent pas"), std::string::npos);

    graph = chain();
    graph.events[0].task_count = 2;  // la tâche 1 serait libérée deux fois
    EXPECT_NE(graph_error(graph).find("la tâche 1 est libérée deux fois"), std::string::npos);

    graph = chain();
    graph.events[1].task_count = 0;  // la tâche 1 n'est plus libérée par personne
    EXPECT_NE(graph_error(graph).find("n'est libérée par aucun événement"), std::string::npos);
}

TEST(TaskGraphHost, ValidatorRejectsCycles) {
    // Départ → tâche 0 ; la tâche 1 est libérée par l'événement 1, qu'elle seule déclenche.
    const tg::TaskGraph cycle{{{mk::Opcode::kNop, 0, 0, 0, 2}, {mk::Opcode::kNop, 0, 0, 0, 1}},
                              {{0, 0, 1}, {1, 1, 1}, {1, 2, 0}},
                              0};
    EXPECT_NE(graph_error(cycle).find("interblocage (cycle) : la tâche 1 attend l'événement 1"), std::string::npos)
        << graph_error(cycle);
}

namespace {

struct DecoderRun {
    mk::DecoderWeights weights = mk::make_weights(kSmall);
    std::vector<float> input = mk::make_input(kSmall.hidden);
    mk::DecoderDeviceState state{weights, input};
    cudaStream_t stream = nullptr;
};

}  // namespace

TEST(TaskGraphDevice, EveryTaskOnceInDependencyOrderAndReferenceResult) {
    DecoderRun r;
    const std::vector<float> expected = mk::decoder_reference(r.weights, r.input);
    std::vector<float> first;
    for (int workers : {1, 3}) {
        tg::TaskGraphRunner runner(tg::build_decoder_graph(kSmall), kSmall, workers);
        for (int run = 0; run < 2; ++run) {  // deux exécutions : la remise à zéro du contrôle
            runner.launch(r.state, r.stream);
            NOYAUX_CUDA_CHECK(cudaStreamSynchronize(r.stream));
            const tg::RunTrace trace = runner.trace();
            EXPECT_EQ(trace.runs, std::vector<unsigned>(runner.graph().tasks.size(), 1u)) << workers << " travailleurs";
            EXPECT_EQ(tg::order_violations(runner.report(), trace), 0u);
            for (std::size_t e = 0; e < runner.graph().events.size(); ++e)
                EXPECT_EQ(trace.received[e], runner.graph().events[e].triggers) << "événement " << e;
            for (unsigned w : trace.worker) {
                EXPECT_GE(w, 1u);  // le bloc 0 ordonnance, il n'exécute rien
                EXPECT_LE(w, static_cast<unsigned>(workers));
            }
            const std::vector<float> result = r.state.result();
            EXPECT_LE(mk::max_relative_error(result, expected), mk::kDecoderTolerance);
            if (first.empty()) first = result;
            EXPECT_EQ(result, first);  // mêmes opérations, même ordre d'additions : au bit près
        }
    }
}

namespace {

/**
 * Graphe large : départ → @p width tâches indépendantes → un événement qui les attend toutes →
 * @p width tâches, chacune seule à déclencher son propre événement final (qui ne libère rien).
 */
tg::TaskGraph wide(std::uint32_t width) {
    tg::TaskGraph graph;
    graph.events.push_back({0, 0, width});      // 0 : départ
    graph.events.push_back({width, width, width});  // 1 : toutes les premières sont finies
    for (std::uint32_t t = 0; t < width; ++t) graph.tasks.push_back({mk::Opcode::kNop, 0, 0, 0, 1});
    for (std::uint32_t t = 0; t < width; ++t) {
        graph.tasks.push_back({mk::Opcode::kNop, 0, 0, 0, 2 + t});
        graph.events.push_back({1, 2 * width, 0});
    }
    return graph;
}

}  // namespace

// Plus de fins que de lanes : chaque lane lit plusieurs cases, les 40 déclenchements de
// l'événement 1 sont comptés par toutes les lanes, et les 40 événements finaux sont libérés
// par la lane qui a lu la fin correspondante. Un ordonnanceur à un seul thread libérerait tout
// depuis la même lane : ce test exige que les 32 lanes aient chacune libéré un événement.
TEST(TaskGraphDevice, SchedulerWarpSpreadsEventsOverAllLanes) {
    constexpr std::uint32_t kWidth = 40;
    static_assert(kWidth > tg::kSchedulerLanes);
    DecoderRun r;
    tg::TaskGraphRunner runner(wide(kWidth), kSmall, 3);
    ASSERT_EQ(runner.report().edges.size(), kWidth * kWidth);
    for (int run = 0; run < 2; ++run) {
        runner.launch(r.state, r.stream);
        NOYAUX_CUDA_CHECK(cudaStreamSynchronize(r.stream));
        const tg::RunTrace trace = runner.trace();
        EXPECT_EQ(trace.runs, std::vector<unsigned>(2 * kWidth, 1u));
        EXPECT_EQ(tg::order_violations(runner.report(), trace), 0u);
        EXPECT_EQ(trace.received[1], kWidth);
        EXPECT_EQ(trace.releaser[0], 1u);  // le départ : la lane 0
        std::vector<bool> lanes(tg::kSchedulerLanes, false);
        for (std::size_t e = 0; e < runner.graph().events.size(); ++e) {
            ASSERT_GE(trace.releaser[e], 1u) << "événement " << e << " jamais libéré";
            ASSERT_LE(trace.releaser[e], tg::kSchedulerLanes) << "événement " << e;
            if (e >= 2) lanes[trace.releaser[e] - 1] = true;
        }
        for (std::uint32_t lane = 0; lane < tg::kSchedulerLanes; ++lane)
            EXPECT_TRUE(lanes[lane]) << "la lane " << lane << " n'a libéré aucun événement final";
    }
}

TEST(TaskGraphDevice, OrderCheckCatchesASwappedTrace) {
    DecoderRun r;
    tg::TaskGraphRunner runner(tg::build_decoder_graph(kSmall), kSmall, 2);
    runner.launch(r.state, r.stream);
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(r.stream));
    tg::RunTrace trace = runner.trace();
    ASSERT_EQ(tg::order_violations(runner.report(), trace), 0u);
    std::swap(trace.start[0], trace.start[1]);  // la RMSNorm « commencée » après sa première tranche
    std::swap(trace.stop[0], trace.stop[1]);
    EXPECT_GT(tg::order_violations(runner.report(), trace), 0u);
}

TEST(TaskGraphDevice, RefusesGridThatIsNotCoResident) {
    const int resident = mk::max_co_resident_blocks(tg::task_graph_kernel, static_cast<int>(mk::kDecoderThreads),
                                                    mk::page_bytes(kSmall));
    ASSERT_GE(resident, 2);
    EXPECT_THROW(tg::TaskGraphRunner(tg::build_decoder_graph(kSmall), kSmall, resident), mk::CoResidencyError);
}
