/**
 * @file
 * @brief Tests de l'exemple 4. Partout : construction du programme, validateur d'ordonnancement
 *        (programmes valides et invalides), référence CPU. Sur l'émulateur et sur GPU : le
 *        megakernel rend le même résultat que les noyaux séparés, proche de la référence ; ses
 *        compteurs finissent aux valeurs prévues ; deux exécutions de suite donnent le même
 *        résultat, et sans remise à zéro la vérification finale le signale ; une grille trop
 *        grande est refusée ; le graphe CUDA des noyaux séparés rend le même résultat.
 */
#include "megakernels/common/decoder_step.hpp"
#include "ordonnancement.hpp"
#include "programme.hpp"

#include "megakernel-interpreteur.cuh"

#include "common/cuda_check.cuh"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

namespace mk = noyaux::megakernels;
namespace mi = noyaux::megakernels::interpreter;

/** Le message de l'erreur levée par @p f, ou « aucune erreur ». */
template <typename F>
std::string schedule_error(F&& f) {
    try {
        f();
    } catch (const mi::ScheduleError& error) {
        return error.what();
    }
    return "aucune erreur";
}

mi::Instruction op(std::uint32_t wait, std::uint32_t target, std::uint32_t signal) {
    return {mk::Opcode::kNop, 0, 0, 0, wait, target, signal, 1};
}

constexpr mk::DecoderShape kSmall{64, 128, 2, 16};

}  // namespace

TEST(MegakernelInterpreterHost, ProgramHasOneInstructionPerOperationAndSlice) {
    const mi::Program program = mi::build_decoder_program(kSmall, 3);
    EXPECT_EQ(program.queue_count(), 3);
    EXPECT_EQ(program.instructions.size(), 2u * (1 + 128 / 16 + 64 / 16));
    EXPECT_EQ(program.counter_count, 6u);
    // Tour de rôle : les files diffèrent d'au plus une instruction.
    for (int q = 0; q < 3; ++q) {
        const auto size = program.queue_begin[q + 1] - program.queue_begin[q];
        EXPECT_GE(size, 8u);
        EXPECT_LE(size, 9u);
    }
    EXPECT_THROW(mi::build_decoder_program(kSmall, 0), std::invalid_argument);
    EXPECT_THROW(mi::build_decoder_program({64, 128, 2, 24}, 2), std::invalid_argument);  // 24 ne divise pas 64
}

TEST(MegakernelInterpreterHost, ValidatorAcceptsBuiltProgramsAndPredictsCounters) {
    for (int queues : {1, 2, 3, 7, 132}) {
        const mk::DecoderShape shape{256, 1024, 4, 64};
        const mi::ScheduleReport report = mi::validate_schedule(mi::build_decoder_program(shape, queues));
        ASSERT_EQ(report.final_counters.size(), 12u);
        for (int layer = 0; layer < 4; ++layer) {
            EXPECT_EQ(report.final_counters[mi::counter_of(mk::Opcode::kRmsNorm, layer)], 1u);
            EXPECT_EQ(report.final_counters[mi::counter_of(mk::Opcode::kUpSilu, layer)], 16u);
            EXPECT_EQ(report.final_counters[mi::counter_of(mk::Opcode::kDownResidual, layer)], 4u);
        }
        EXPECT_GE(report.rounds, 1) << queues << " files";
    }
}

TEST(MegakernelInterpreterHost, ValidatorFollowsWaitsAcrossQueues) {
    // La file 0 attend ce que la file 1 signale après avoir elle-même attendu la file 0.
    const mi::Program program = mi::flatten({{op(mi::kNoCounter, 0, 0), op(1, 1, 2)}, {op(0, 1, 1)}}, 3);
    const mi::ScheduleReport report = mi::validate_schedule(program);
    EXPECT_EQ(report.final_counters, (std::vector<std::uint32_t>{1, 1, 1}));
    EXPECT_GE(report.rounds, 2);
}

TEST(MegakernelInterpreterHost, ValidatorRejectsWaitNeverSatisfied) {
    mi::Program program = mi::build_decoder_program(kSmall, 2);
    program.instructions.back().wait_target = 9;  // 8 tranches montantes seulement
    const std::string message = schedule_error([&] { mi::validate_schedule(program); });
    EXPECT_NE(message.find("attente jamais satisfaite"), std::string::npos) << message;
    EXPECT_NE(message.find("ne lui envoie que 8 signaux"), std::string::npos) << message;
}

TEST(MegakernelInterpreterHost, ValidatorRejectsCycles) {
    // Deux files qui s'attendent l'une l'autre.
    const mi::Program crossed = mi::flatten({{op(1, 1, 0)}, {op(0, 1, 1)}}, 2);
    std::string message = schedule_error([&] { mi::validate_schedule(crossed); });
    EXPECT_NE(message.find("interblocage (cycle)"), std::string::npos) << message;
    // Une seule file dont une instruction attend un signal placé derrière elle.
    mi::Program single = mi::build_decoder_program(kSmall, 1);
    std::swap(single.instructions[0], single.instructions[1]);  // une tranche avant sa RMSNorm
    message = schedule_error([&] { mi::validate_schedule(single); });
    EXPECT_NE(message.find("interblocage (cycle) : file 0, instruction 0"), std::string::npos) << message;
}

TEST(MegakernelInterpreterHost, ValidatorRejectsUndersizedCounters) {
    mi::Program program = mi::build_decoder_program(kSmall, 2);
    program.counter_count = 5;  // il en faut 3 par couche
    const std::string message = schedule_error([&] { mi::validate_schedule(program); });
    EXPECT_NE(message.find("compteur mal dimensionné"), std::string::npos) << message;
    EXPECT_NE(message.find("n'en déclare que 5"), std::string::npos) << message;
    program.counter_count = 6;
    program.queue_begin.back() -= 1;  // une instruction hors de toute file
    EXPECT_THROW(mi::validate_schedule(program), mi::ScheduleError);
}

TEST(MegakernelInterpreterHost, ReferenceOfOneScalarLayer) {
    mk::DecoderWeights w{{1, 1, 1, 1}, {2.0f}, {0.5f}, {0.25f}, {3.0f}};
    const double x = 4.0;
    const double normed = x / std::sqrt(x * x + mk::kRmsEpsilon) * 2.0;
    const double up = 0.5 * normed + 0.25;
    const double expected = x + 3.0 * up / (1.0 + std::exp(-up));
    EXPECT_NEAR(mk::decoder_reference(w, {4.0f})[0], expected, 1e-5);
    EXPECT_THROW(mk::validate_shape({0, 8, 1, 1}), std::invalid_argument);
    EXPECT_THROW(mk::validate_shape({8, 8, mk::kMaxLayers + 1, 1}), std::invalid_argument);
}

namespace {

struct Fixture {
    mk::DecoderWeights weights = mk::make_weights(kSmall);
    std::vector<float> input = mk::make_input(kSmall.hidden);
    mk::DecoderDeviceState state{weights, input};
    noyaux::Stream stream;

    std::vector<float> separate() {
        mi::allow_page(kSmall);
        mi::launch_separate(state, stream.get());
        NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        return state.result();
    }
};

}  // namespace

TEST(MegakernelInterpreterDevice, MatchesSeparateKernelsAndReference) {
    Fixture f;
    const std::vector<float> expected = mk::decoder_reference(f.weights, f.input);
    const std::vector<float> separate = f.separate();
    EXPECT_LE(mk::max_relative_error(separate, expected), mk::kDecoderTolerance);
    for (int queues : {1, 3, 4}) {
        mi::Megakernel megakernel(mi::build_decoder_program(kSmall, queues), kSmall);
        megakernel.launch(f.state, f.stream.get());
        NOYAUX_CUDA_CHECK(cudaStreamSynchronize(f.stream.get()));
        // Mêmes fonctions de bloc, même ordre d'additions : égalité au bit près.
        EXPECT_EQ(f.state.result(), separate) << queues << " files";
        const mi::KernelStatus status = megakernel.status();
        EXPECT_EQ(status.finished_blocks, static_cast<unsigned>(queues));
        EXPECT_EQ(status.mismatches, 0u);
        EXPECT_EQ(megakernel.counters(), megakernel.report().final_counters);
    }
}

TEST(MegakernelInterpreterDevice, TwoRunsResetTheCounters) {
    Fixture f;
    mi::Megakernel megakernel(mi::build_decoder_program(kSmall, 4), kSmall);
    megakernel.launch(f.state, f.stream.get());
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(f.stream.get()));
    const std::vector<float> first = f.state.result();
    megakernel.launch(f.state, f.stream.get());
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(f.stream.get()));
    EXPECT_EQ(f.state.result(), first);
    EXPECT_EQ(megakernel.status().mismatches, 0u);
    EXPECT_EQ(megakernel.counters(), megakernel.report().final_counters);
}

TEST(MegakernelInterpreterDevice, RelaunchWithoutResetIsCaughtByTheFinalCheck) {
    Fixture f;
    mi::Megakernel megakernel(mi::build_decoder_program(kSmall, 2), kSmall);
    megakernel.launch(f.state, f.stream.get());
    // Sans remise à zéro, chaque attente est satisfaite d'avance : l'ordre n'est plus garanti.
    megakernel.launch(f.state, f.stream.get(), /*reset_counters=*/false);
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(f.stream.get()));
    const std::vector<std::uint32_t>& expected = megakernel.report().final_counters;
    std::vector<std::uint32_t> doubled(expected);
    for (auto& value : doubled) value *= 2;
    EXPECT_EQ(megakernel.counters(), doubled);
    EXPECT_EQ(megakernel.status().mismatches, static_cast<unsigned>(expected.size()));
}

TEST(MegakernelInterpreterDevice, RefusesGridThatIsNotCoResident) {
    mi::allow_page(kSmall);
    const int resident = mk::max_co_resident_blocks(mi::decoder_megakernel, static_cast<int>(mk::kDecoderThreads),
                                                    mk::page_bytes(kSmall));
    ASSERT_GE(resident, 1);
    ASSERT_LT(resident, mi::kMaxQueues);
    EXPECT_THROW(mi::Megakernel(mi::build_decoder_program(kSmall, resident + 1), kSmall), mk::CoResidencyError);
}

TEST(MegakernelInterpreterDevice, CapturedGraphMatchesSeparateKernels) {
    Fixture f;
    const std::vector<float> separate = f.separate();
    const noyaux::CapturedGraph graph(f.stream.get(), [&](cudaStream_t s) { mi::launch_separate(f.state, s); });
    EXPECT_EQ(graph.node_count(), 1u + 3u * static_cast<unsigned>(kSmall.layers));  // copie + 3 noyaux par couche
    graph.launch(f.stream.get());
    graph.launch(f.stream.get());  // chaque relance repart de l'entrée
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(f.stream.get()));
    EXPECT_EQ(f.state.result(), separate);
}
