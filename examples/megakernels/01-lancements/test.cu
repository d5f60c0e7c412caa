/**
 * @file
 * @brief Tests de l'exemple 1 : la référence de la chaîne, puis chacune des cinq façons de
 *        l'exécuter, au bit près contre elle, sur plusieurs tailles (bloc partiel, tableau plus
 *        grand que la plus grande grille persistante) ; la barrière à compteur resservant d'un
 *        lancement à l'autre sans remise à zéro.
 */
#include "lancements.cuh"

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/stream.cuh"

#include <gtest/gtest.h>

#ifdef SIMT_EMULATOR
#include <simt/control.hpp>
#endif

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace ch = noyaux::megakernels::chain;

TEST(ChainHost, ReferenceReadsTheNeighbourWrittenAtThePreviousStep) {
    const std::vector<float> input = {1.0f, 2.0f, 3.0f};
    const std::vector<float> one = ch::chain_reference(input, 1);
    const ch::Step c0 = ch::step_coefficients(0);
    for (std::size_t i = 0; i < input.size(); ++i)
        EXPECT_EQ(one[i], std::fma(input[ch::neighbour(i, input.size())], c0.a, c0.b)) << i;
    const ch::Step c1 = ch::step_coefficients(1);
    EXPECT_EQ(ch::chain_reference(input, 2)[0], std::fma(one[ch::neighbour(0, 3)], c1.a, c1.b));
    // Le voisin est dans un autre bloc : la dépendance traverse les blocs.
    EXPECT_NE(ch::neighbour(0, 4096) / ch::kThreads, 0u);
}

TEST(ChainHost, RejectsChainsOutOfBounds) {
    EXPECT_THROW(ch::validate_chain(0, 16), std::invalid_argument);
    EXPECT_THROW(ch::validate_chain(ch::kMaxSteps + 1, 16), std::invalid_argument);
    EXPECT_THROW(ch::validate_chain(3, 0), std::invalid_argument);
    EXPECT_THROW(ch::validate_chain(3, ch::kMaxElements + 1), std::invalid_argument);
    EXPECT_NO_THROW(ch::validate_chain(ch::kMaxSteps, ch::kMaxElements));
}

// --8<-- [start:garanties]
// Chaque façon, depuis la même entrée, rend exactement la référence CPU.
void expect_variant_matches_reference(ch::Variant variant) {
    noyaux::Stream stream;
    for (const auto& [n, steps] : {std::pair<std::size_t, int>{1, 3}, {1000, 1}, {1000, 7}, {3000, 24}}) {
        const std::vector<float> input = ch::chain_input(n);
        ch::ChainRunner runner(n, steps);
        runner.upload(input);
        runner.launch(variant, stream.get());
        NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        EXPECT_EQ(runner.download(), ch::chain_reference(input, steps))
            << ch::variant_name(variant) << ", " << n << " éléments, " << steps << " étapes";
    }
}

TEST(ChainVariants, StreamLaunches) { expect_variant_matches_reference(ch::Variant::Stream); }
TEST(ChainVariants, PersistentCounterBarrier) { expect_variant_matches_reference(ch::Variant::PersistentCounter); }
TEST(ChainVariants, PersistentGridSync) { expect_variant_matches_reference(ch::Variant::PersistentGridSync); }

// Au-delà de ce qui tient à la fois sur le GPU, la grille persistante plafonne : chaque thread
// traite alors plusieurs éléments (boucle grid-stride). Trois blocs et 17 éléments de plus que
// la plus grande des deux grilles : la deuxième passe couvre 401 éléments, dont un bloc partiel.
TEST(ChainVariants, PersistentGridSmallerThanTheArray) {
    const auto counter = reinterpret_cast<const void*>(ch::chain_persistent_counter);
    const auto grid_sync = reinterpret_cast<const void*>(ch::chain_persistent_grid_sync);
    const int threads = static_cast<int>(ch::kThreads);
    const int resident = std::max(noyaux::megakernels::max_co_resident_blocks(counter, threads, 0),
                                  noyaux::megakernels::max_co_resident_blocks(grid_sync, threads, 0));
    const std::size_t n = static_cast<std::size_t>(resident + 3) * ch::kThreads + 17;
    const int steps = 2;
    for (const void* kernel : {counter, grid_sync})
        ASSERT_LT(static_cast<std::size_t>(ch::persistent_blocks(kernel, n)) * ch::kThreads, n);  // plus d'une passe
    noyaux::Stream stream;
    const std::vector<float> input = ch::chain_input(n);
    ch::ChainRunner runner(n, steps);
    for (ch::Variant variant : {ch::Variant::PersistentCounter, ch::Variant::PersistentGridSync}) {
        runner.upload(input);
        runner.launch(variant, stream.get());
        NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        EXPECT_EQ(runner.download(), ch::chain_reference(input, steps))
            << ch::variant_name(variant) << ", " << n << " éléments";
    }
}
// --8<-- [end:garanties]

TEST(ChainVariants, CounterBarrierIsReusedWithoutReset) {
    noyaux::Stream stream;
    const std::size_t n = 2000;
    const int steps = 9;
    const std::vector<float> input = ch::chain_input(n);
    ch::ChainRunner runner(n, steps);
    for (int launch = 0; launch < 3; ++launch) {
        runner.upload(input);
        runner.launch(ch::Variant::PersistentCounter, stream.get());
        NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        EXPECT_EQ(runner.download(), ch::chain_reference(input, steps)) << "lancement " << launch;
    }
    noyaux::megakernels::GridBarrier state{};
    NOYAUX_CUDA_CHECK(cudaMemcpy(&state, runner.barrier(), sizeof state, cudaMemcpyDeviceToHost));
    EXPECT_EQ(state.count, 0u);                   // revenu à zéro après chaque ouverture
    EXPECT_EQ(state.generation, 3u * steps);      // une ouverture par étape et par lancement
}

TEST(ChainVariants, PersistentGridIsCappedByCoResidency) {
    const int resident = noyaux::megakernels::max_co_resident_blocks(ch::chain_persistent_counter,
                                                                      static_cast<int>(ch::kThreads), 0);
    ASSERT_GT(resident, 0);
    const std::size_t huge = static_cast<std::size_t>(resident + 5) * ch::kThreads;
    EXPECT_EQ(ch::persistent_blocks(reinterpret_cast<const void*>(ch::chain_persistent_counter), huge),
              static_cast<unsigned>(resident));
    EXPECT_EQ(ch::persistent_blocks(reinterpret_cast<const void*>(ch::chain_persistent_counter), 200), 2u);
}

#ifdef SIMT_EMULATOR
// Ce que la vérification de co-résidence évite : une grille d'un bloc de trop, lancée sans elle,
// attend à la barrière des blocs qui ne démarreront jamais. Sur GPU, le noyau ne finirait pas ;
// l'émulateur arrête le lancement (chien de garde, SIMT_DELAI) et nomme l'interblocage.
TEST(ChainVariants, WithoutTheCoResidencyCheckTheEmulatorReportsADeadlock) {
    const int resident = noyaux::megakernels::max_co_resident_blocks(ch::chain_persistent_counter,
                                                                      static_cast<int>(ch::kThreads), 0);
    const std::size_t n = static_cast<std::size_t>(resident + 1) * ch::kThreads;
    noyaux::DeviceBuffer<float> buffers(2 * n);
    noyaux::DeviceBuffer<noyaux::megakernels::GridBarrier> barrier(1);
    NOYAUX_CUDA_CHECK(cudaMemset(barrier.data(), 0, barrier.bytes()));
    simt::set_quiet(true);
    ch::chain_persistent_counter<<<resident + 1, ch::kThreads>>>(buffers.data(), buffers.data() + n, n, 2,
                                                                 barrier.data());
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    EXPECT_NE(simt::last_diagnostic().find("interblocage de co-résidence"), std::string::npos)
        << simt::last_diagnostic();
    simt::set_quiet(false);
    cudaDeviceReset();  // l'erreur est collante, comme sur GPU
}
#endif

TEST(ChainVariants, CapturedGraph) {
    expect_variant_matches_reference(ch::Variant::Graph);
    noyaux::Stream stream;
    ch::ChainRunner runner(500, 12);
    const noyaux::CapturedGraph graph(stream.get(), [&](cudaStream_t s) { runner.launch_stream(s); });
    EXPECT_EQ(graph.node_count(), 12u);  // un nœud par étape
}

TEST(ChainVariants, ProgrammaticDependentLaunch) {
    try {
        ch::require_pdl();
    } catch (const noyaux::UnsupportedArchitectureError& error) {
        GTEST_SKIP() << error.what();  // GPU antérieur à sm_90
    }
    expect_variant_matches_reference(ch::Variant::Pdl);
}

}  // namespace
