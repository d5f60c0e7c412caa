/**
 * @file
 * @brief Tests des chaînes de FMA : chaque variante rend, au bit près, sa référence CPU ;
 *        entrées impossibles refusées avant tout lancement.
 */
#include "ilp.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

namespace ilp = noyaux::glossaire::ilp;

}  // namespace

TEST(IlpChains, EveryVariantMatchesItsReference) {
    const unsigned blocks = 3;
    const unsigned threads = 128;
    for (int chains : {1, 2, 4, 8}) {
        for (int fma_count : {0, 8, 64, 1000}) {
            noyaux::DeviceBuffer<float> out(blocks * threads);
            ilp::launch_fma_chains(chains, out.data(), fma_count, blocks, threads);
            NOYAUX_CHECK_LAUNCH();
            const std::vector<float> result = out.download();
            for (unsigned t = 0; t < blocks * threads; ++t)
                ASSERT_EQ(result[t], ilp::fma_chains_reference(chains, t, fma_count))
                    << chains << " chaînes, " << fma_count << " FMA, thread " << t;
        }
    }
}

TEST(IlpChains, OneChainIsAPlainRepeatedFma) {
    // Une chaîne de 2 FMA depuis 0 : (0·a + b)·a + b.
    EXPECT_EQ(ilp::fma_chains_reference(1, 0, 2), std::fma(std::fma(0.0f, ilp::kA, ilp::kB), ilp::kA, ilp::kB));
}

TEST(IlpChains, RejectsImpossibleInputs) {
    noyaux::DeviceBuffer<float> out(32);
    EXPECT_THROW(ilp::launch_fma_chains(3, out.data(), 9, 1, 32), std::invalid_argument);
    EXPECT_THROW(ilp::launch_fma_chains(4, out.data(), 10, 1, 32), std::invalid_argument);
    EXPECT_THROW(ilp::launch_fma_chains(1, out.data(), -1, 1, 32), std::invalid_argument);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
