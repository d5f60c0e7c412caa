/**
 * @file
 * @brief Tests de l'exemple 3 : le relais de drapeaux et le compteur producteurs/consommateurs
 *        contre le CPU, sur plusieurs grilles et plusieurs lancements sans remise à zéro ; le
 *        refus, avant tout lancement, d'une grille qui ne tient pas entière sur le GPU ; le
 *        nombre de blocs co-résidents confronté au lanceur coopératif.
 */
#include "synchronisation-blocs.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace rl = noyaux::megakernels::relay;
namespace mk = noyaux::megakernels;

TEST(RelayHost, ReferencesAndBounds) {
    EXPECT_EQ(rl::inclusive_prefixes({3, 4, 5}), (std::vector<std::uint32_t>{3, 7, 12}));
    const std::vector<std::uint32_t> sums = rl::chunk_sums(rl::relay_input(2));
    ASSERT_EQ(sums.size(), 2u);
    std::uint32_t first = 0;
    for (std::size_t i = 0; i < rl::kChunk; ++i) first += rl::input_value(i);
    EXPECT_EQ(sums[0], first);
    EXPECT_THROW(rl::validate_blocks(1), std::invalid_argument);
    EXPECT_THROW(rl::validate_blocks(rl::kMaxBlocks + 1), std::invalid_argument);
}

// Drapeaux et compteur ne sont jamais remis à zéro : le lancement dont la cible dépasserait
// 2³² − 1 est refusé, au lieu de laisser le compteur revenir à une petite valeur.
TEST(RelayHost, LaunchIsRefusedBeforeTheCounterWrapsAround) {
    constexpr unsigned kLargest = std::numeric_limits<unsigned>::max();
    EXPECT_EQ(rl::next_epoch(0, 1), 1u);
    EXPECT_EQ(rl::next_epoch(kLargest - 1, 1), kLargest);  // un drapeau porte le numéro lui-même
    EXPECT_THROW(rl::next_epoch(kLargest, 1), std::overflow_error);
    const unsigned producers = 3;
    const unsigned last = kLargest / producers;  // dernier lancement dont la cible tient
    EXPECT_EQ(rl::next_epoch(last - 1, producers), last);
    EXPECT_LT(producers * (last + 1), producers * last);  // ce que le refus évite : le compteur repart de bas
    try {
        rl::next_epoch(last, producers);
        FAIL() << "la cible " << producers << " × " << last + 1ull << " ne tient pas dans un unsigned";
    } catch (const std::overflow_error& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("lancement " + std::to_string(last + 1ull) + " refusé"), std::string::npos) << message;
        EXPECT_NE(message.find("grille neuve"), std::string::npos) << message;
    }
    EXPECT_THROW(rl::next_epoch(0, 0), std::invalid_argument);
}

// --8<-- [start:garanties]
TEST(RelayDevice, FlagsAndCounterAcrossLaunchesWithoutReset) {
    for (unsigned blocks : {2u, 5u, static_cast<unsigned>(rl::largest_co_resident_grid())}) {
        rl::RelayGrid grid(blocks);
        const std::vector<std::uint32_t> sums = rl::chunk_sums(rl::relay_input(blocks));
        std::uint32_t produced = 0;
        for (unsigned p = 0; p < grid.producers(); ++p) produced += sums[p];
        for (unsigned launch = 1; launch <= 3; ++launch) {
            grid.run_relay();
            grid.run_fan_in();
            NOYAUX_CHECK_LAUNCH();
            EXPECT_EQ(grid.prefixes(), rl::inclusive_prefixes(sums)) << blocks << " blocs, lancement " << launch;
            EXPECT_EQ(grid.totals(), std::vector<std::uint32_t>(grid.consumers(), produced)) << blocks << " blocs";
            EXPECT_EQ(grid.flags(), std::vector<unsigned>(blocks, launch));  // chaque drapeau porte le lancement
            EXPECT_EQ(grid.ready(), grid.producers() * launch);               // cible monotone
        }
    }
}

TEST(CoResidency, GridThatCannotBeResidentIsRefusedBeforeLaunch) {
    const int threads = static_cast<int>(rl::kThreads);
    const int relay = mk::max_co_resident_blocks(rl::relay_prefixes, threads, 0);
    const int fan_in = mk::max_co_resident_blocks(rl::fan_in_counter, threads, 0);
    ASSERT_GT(std::min(relay, fan_in), 0);
    EXPECT_EQ(rl::largest_co_resident_grid(), std::min(relay, fan_in));  // tient pour les deux noyaux
    EXPECT_NO_THROW(mk::require_co_resident(rl::relay_prefixes, relay, threads, 0));
    try {
        mk::require_co_resident(rl::relay_prefixes, relay + 1, threads, 0);
        FAIL() << "une grille de " << relay + 1 << " blocs ne tient pas entière";
    } catch (const mk::CoResidencyError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find(std::to_string(relay + 1) + " blocs demandés"), std::string::npos) << message;
        EXPECT_NE(message.find("au plus " + std::to_string(relay)), std::string::npos) << message;
        EXPECT_NE(message.find("interblocage"), std::string::npos) << message;
    }
    // Un bloc de plus que ce que tient le plus accommodant des deux : chaque lancement est refusé.
    const unsigned too_many = static_cast<unsigned>(std::max(relay, fan_in)) + 1;
    rl::RelayGrid grid(too_many);
    EXPECT_THROW(grid.run_relay(), mk::CoResidencyError);
    EXPECT_THROW(grid.run_fan_in(), mk::CoResidencyError);
    NOYAUX_CHECK_LAUNCH();
    EXPECT_EQ(grid.flags(), std::vector<unsigned>(too_many, 0u));  // rien lancé
    EXPECT_EQ(grid.ready(), 0u);
}
// --8<-- [end:garanties]

// Une valeur que la formule n'a pas calculée : le lanceur coopératif (le pilote sur GPU, le
// moteur sur simt) refuse une grille d'un bloc de plus que max_co_resident_blocks, sans rien
// lancer, et accepte la grille de max_co_resident_blocks blocs, qui rend les bons préfixes.
TEST(CoResidency, CooperativeLauncherAcceptsExactlyTheCoResidentGrid) {
    int device = 0;
    int cooperative = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    NOYAUX_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    if (!cooperative) GTEST_SKIP() << "ce GPU n'accepte pas le lancement coopératif";
    const int threads = static_cast<int>(rl::kThreads);
    const int resident = mk::max_co_resident_blocks(rl::relay_prefixes, threads, 0);
    ASSERT_GT(resident, 0);
    const auto blocks = static_cast<unsigned>(resident);
    noyaux::DeviceBuffer<std::uint32_t> input(std::span<const std::uint32_t>(rl::relay_input(blocks + 1)));
    noyaux::DeviceBuffer<std::uint32_t> prefixes(blocks + 1);
    noyaux::DeviceBuffer<unsigned> flags(blocks + 1);
    NOYAUX_CUDA_CHECK(cudaMemset(flags.data(), 0, flags.bytes()));
    const std::uint32_t* in = input.data();
    std::uint32_t* out = prefixes.data();
    unsigned* flag = flags.data();
    unsigned epoch = 1;
    void* arguments[] = {&in, &out, &flag, &epoch};
    EXPECT_EQ(cudaLaunchCooperativeKernel(rl::relay_prefixes, dim3(blocks + 1), dim3(rl::kThreads), arguments, 0,
                                          nullptr),
              cudaErrorCooperativeLaunchTooLarge);
    (void)cudaGetLastError();  // erreur de configuration, non collante : effacée
    EXPECT_EQ(flags.download(), std::vector<unsigned>(blocks + 1, 0u));  // rien lancé
    NOYAUX_CUDA_CHECK(
        cudaLaunchCooperativeKernel(rl::relay_prefixes, dim3(blocks), dim3(rl::kThreads), arguments, 0, nullptr));
    NOYAUX_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<std::uint32_t> computed = prefixes.download();
    computed.resize(blocks);
    EXPECT_EQ(computed, rl::inclusive_prefixes(rl::chunk_sums(rl::relay_input(blocks))));
    EXPECT_THROW(mk::require_co_resident(rl::relay_prefixes, 0, threads, 0), mk::CoResidencyError);
}

}  // namespace
