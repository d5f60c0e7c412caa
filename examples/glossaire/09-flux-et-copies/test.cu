/**
 * @file
 * @brief Tests de l'exemple 09. Partout (émulateur compris) : découpage en lots et référence.
 *        Sur GPU : le pipeline à plusieurs flux rend le même résultat qu'un seul flux et que la
 *        référence, ses tampons hôtes sont épinglés, ses entrées invalides refusées.
 */
#include "decoupage.hpp"

#ifndef SIMT_EMULATOR
#include "flux-et-copies.cuh"

#include "common/cuda_check.cuh"
#endif

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

namespace st = noyaux::glossaire::streams;

}  // namespace

TEST(StreamsHost, ChunksCoverEverythingOnce) {
    for (std::size_t n : {1, 7, 100, 1000003}) {
        for (std::size_t chunks : {1, 3, 7}) {
            if (chunks > n) continue;
            const std::vector<st::Chunk> plan = st::split_into_chunks(n, chunks, 4);
            ASSERT_EQ(plan.size(), chunks);
            std::size_t next = 0;
            for (const st::Chunk& c : plan) {
                EXPECT_EQ(c.offset, next);
                EXPECT_GE(c.count, n / chunks);
                EXPECT_LE(c.count, n / chunks + 1);
                next += c.count;
            }
            EXPECT_EQ(next, n);
        }
    }
}

TEST(StreamsHost, ChunksGoToStreamsInTurn) {
    const std::vector<st::Chunk> plan = st::split_into_chunks(10, 5, 2);
    std::vector<unsigned> streams;
    for (const st::Chunk& c : plan) streams.push_back(c.stream);
    EXPECT_EQ(streams, (std::vector<unsigned>{0, 1, 0, 1, 0}));
}

TEST(StreamsHost, RejectsImpossiblePlans) {
    EXPECT_THROW(st::split_into_chunks(10, 0, 1), std::invalid_argument);
    EXPECT_THROW(st::split_into_chunks(10, 2, 0), std::invalid_argument);
    EXPECT_THROW(st::split_into_chunks(3, 4, 1), std::invalid_argument);
}

TEST(StreamsHost, ReferenceIsARepeatedFma) {
    EXPECT_EQ(st::repeated_fma_reference(2.0f, 3.0f, 1.0f, 0), 2.0f);
    EXPECT_EQ(st::repeated_fma_reference(2.0f, 3.0f, 1.0f, 2), 22.0f);  // (2·3 + 1)·3 + 1
}

#ifndef SIMT_EMULATOR
namespace {

std::vector<float> pipeline(unsigned streams, const std::vector<float>& values, std::size_t chunks, int iterations) {
    st::PinnedBuffer in(values.size());
    st::PinnedBuffer out(values.size());
    std::copy(values.begin(), values.end(), in.data());
    st::StreamSet set(streams);
    const float ms = set.run(in.data(), out.data(), values.size(), chunks, 0.999f, 0.001f, iterations);
    EXPECT_GE(ms, 0.0f);
    return {out.data(), out.data() + values.size()};
}

}  // namespace

TEST(StreamsDevice, ManyStreamsGiveTheReferenceResult) {
    std::vector<float> values(100003);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 977) * 0.01f - 4.0f;
    std::vector<float> expected(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) expected[i] = st::repeated_fma_reference(values[i], 0.999f, 0.001f, 50);
    for (unsigned streams : {1u, 2u, 4u, 8u})
        for (std::size_t chunks : {1, 7, 64}) EXPECT_EQ(pipeline(streams, values, chunks, 50), expected)
            << streams << " flux, " << chunks << " lots";
}

TEST(StreamsDevice, HostBuffersArePinned) {
    st::PinnedBuffer buffer(16);
    cudaPointerAttributes attributes{};
    NOYAUX_CUDA_CHECK(cudaPointerGetAttributes(&attributes, buffer.data()));
    EXPECT_EQ(attributes.type, cudaMemoryTypeHost);
}

TEST(StreamsDevice, RejectsMoreChunksThanElements) {
    st::PinnedBuffer in(4), out(4);
    st::StreamSet set(2);
    EXPECT_THROW(set.run(in.data(), out.data(), 4, 5, 1.0f, 0.0f, 1), std::invalid_argument);
}
#endif
