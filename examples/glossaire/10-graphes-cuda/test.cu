/**
 * @file
 * @brief Tests de l'exemple 10, sur GPU et sur l'émulateur : la référence de la chaîne et ses
 *        bornes ; le graphe capturé compte un nœud par noyau, rend le même résultat que les
 *        lancements directs et que la référence, et chaque relance rejoue la chaîne.
 */
#include "chaine.hpp"
#include "graphes-cuda.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

namespace gr = noyaux::glossaire::graphs;

}  // namespace

TEST(GraphsHost, ReferenceAppliesEveryStepInOrder) {
    EXPECT_EQ(gr::chain_reference(2.0f, 0), 2.0f);
    const gr::Step s0 = gr::step_coefficients(0);
    const gr::Step s1 = gr::step_coefficients(1);
    EXPECT_EQ(gr::chain_reference(2.0f, 2), std::fma(std::fma(2.0f, s0.a, s0.b), s1.a, s1.b));
    // Les étapes ne commutent pas : l'ordre des noyaux se voit dans le résultat.
    EXPECT_NE(std::fma(std::fma(2.0f, s0.a, s0.b), s1.a, s1.b), std::fma(std::fma(2.0f, s1.a, s1.b), s0.a, s0.b));
}

TEST(GraphsHost, RejectsChainsOutOfBounds) {
    EXPECT_THROW(gr::validate_chain(0, 16), std::invalid_argument);
    EXPECT_THROW(gr::validate_chain(gr::kMaxSteps + 1, 16), std::invalid_argument);
    EXPECT_THROW(gr::validate_chain(4, 0), std::invalid_argument);
    EXPECT_THROW(gr::validate_chain(4, gr::kMaxElements + 1), std::invalid_argument);
    EXPECT_NO_THROW(gr::validate_chain(gr::kMaxSteps, gr::kMaxElements));
}

namespace {

std::vector<float> sample(std::size_t n) {
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<float>(i % 313) * 0.03f - 4.0f;
    return values;
}

}  // namespace

TEST(GraphsDevice, GraphMatchesDirectLaunchesAndReference) {
    const std::vector<float> input = sample(1000);  // pas un multiple de 256 : bloc partiel
    gr::Stream stream;
    noyaux::DeviceBuffer<float> data(input.size());
    for (int steps : {1, 7, 64}) {
        data.upload(input);
        gr::launch_chain(data.data(), input.size(), steps, stream.get());
        NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        const std::vector<float> direct = data.download();
        data.upload(input);
        const gr::ChainGraph graph(data.data(), input.size(), steps, stream.get());
        EXPECT_EQ(graph.node_count(), static_cast<std::size_t>(steps));
        graph.launch(stream.get());
        NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        EXPECT_EQ(direct, gr::chain_reference(input, steps)) << steps << " noyaux";
        EXPECT_EQ(data.download(), direct) << steps << " noyaux";
    }
}

TEST(GraphsDevice, CaptureExecutesNothingAndEachRelaunchReplaysTheChain) {
    const std::vector<float> input = sample(300);
    gr::Stream stream;
    noyaux::DeviceBuffer<float> data(input);
    const gr::ChainGraph graph(data.data(), input.size(), 5, stream.get());
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    EXPECT_EQ(data.download(), input);  // la capture n'a rien exécuté
    graph.launch(stream.get());
    graph.launch(stream.get());
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    EXPECT_EQ(data.download(), gr::chain_reference(gr::chain_reference(input, 5), 5));
}

TEST(GraphsDevice, RejectedChainLeavesTheStreamUsable) {
    gr::Stream stream;
    noyaux::DeviceBuffer<float> data(16);
    EXPECT_THROW(gr::ChainGraph(data.data(), 16, 0, stream.get()), std::invalid_argument);
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
    NOYAUX_CUDA_CHECK(cudaStreamIsCapturing(stream.get(), &status));
    EXPECT_EQ(status, cudaStreamCaptureStatusNone);
    EXPECT_THROW(gr::launch_chain(data.data(), 0, 3, stream.get()), std::invalid_argument);
}
