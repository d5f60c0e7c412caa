// mbarrier de PTX appelées en C++ (simt::ptx) : phases et parité, compte de transactions,
// producteur et consommateurs, et les diagnostics (interblocage, transactions incohérentes).
// Sémantique attendue : PTX ISA, « Parallel Synchronization and Communication Instructions:
// mbarrier » (une phase se termine quand il ne reste ni arrivée ni octet attendu ; test_wait
// sur un état rend vrai quand la phase de cet état est terminée ; la parité d'une phase paire
// est 0).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include "quiet_fixture.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using simt::ptx::mbarrier_arrive;
using simt::ptx::mbarrier_arrive_expect_tx;
using simt::ptx::mbarrier_complete_tx;
using simt::ptx::mbarrier_expect_tx;
using simt::ptx::mbarrier_init;
using simt::ptx::mbarrier_test_wait;
using simt::ptx::mbarrier_test_wait_parity;
using simt::ptx::mbarrier_try_wait_parity;
using testing::HasSubstr;

namespace mbarrier_test {

// Un seul thread : chaque observation est rangée dans out, dans l'ordre.
__global__ void phases(int* out) {
    __shared__ std::uint64_t bar;
    int n = 0;
    mbarrier_init(&bar, 2);
    const std::uint64_t first = mbarrier_arrive(&bar);         // 1 arrivée sur 2
    out[n++] = mbarrier_test_wait(&bar, first);                 // 0 : phase 0 en cours
    out[n++] = mbarrier_test_wait_parity(&bar, 0);              // 0
    const std::uint64_t second = mbarrier_arrive(&bar);        // phase 0 terminée
    out[n++] = mbarrier_test_wait(&bar, first);                 // 1
    out[n++] = mbarrier_test_wait(&bar, second);                // 1 : l'arrivée qui termine
    out[n++] = mbarrier_test_wait_parity(&bar, 0);              // 1 : phase paire terminée
    out[n++] = mbarrier_test_wait_parity(&bar, 1);              // 0 : phase 1 en cours
    const std::uint64_t third = mbarrier_arrive(&bar, 2);      // deux d'un coup : phase 1 finie
    out[n++] = mbarrier_test_wait(&bar, third);                 // 1
    out[n++] = mbarrier_test_wait_parity(&bar, 1);              // 1
    out[n++] = mbarrier_test_wait_parity(&bar, 0);              // 0 : phase 2 (paire) en cours
    out[n++] = mbarrier_try_wait_parity(&bar, 1, 1000);         // 1
}

// Transactions : les arrivées ne suffisent pas tant que des octets sont attendus.
__global__ void transactions(int* out) {
    __shared__ std::uint64_t bar;
    int n = 0;
    mbarrier_init(&bar, 1);
    mbarrier_arrive_expect_tx(&bar, 64);               // plus d'arrivée attendue, 64 octets
    out[n++] = mbarrier_test_wait_parity(&bar, 0);      // 0
    mbarrier_complete_tx(&bar, 48);
    out[n++] = mbarrier_test_wait_parity(&bar, 0);      // 0 : 16 octets attendus
    mbarrier_complete_tx(&bar, 16);
    out[n++] = mbarrier_test_wait_parity(&bar, 0);      // 1
    // Octets livrés avant d'être annoncés : permis tant qu'une arrivée manque.
    mbarrier_complete_tx(&bar, 32);
    out[n++] = mbarrier_test_wait_parity(&bar, 1);      // 0
    mbarrier_expect_tx(&bar, 32);
    out[n++] = mbarrier_test_wait_parity(&bar, 1);      // 0 : l'arrivée manque
    mbarrier_arrive(&bar);
    out[n++] = mbarrier_test_wait_parity(&bar, 1);      // 1
}

// arrive.noComplete : des arrivées qui ne terminent pas la phase ; si elles la terminaient
// (complete = 1), le comportement serait indéfini en PTX : diagnostic.
__global__ void no_complete(int* out, int complete) {
    __shared__ std::uint64_t bar;
    mbarrier_init(&bar, 3);
    simt::ptx::mbarrier_arrive_no_complete(&bar, 2 + complete);
    out[0] = mbarrier_test_wait_parity(&bar, 0);  // 0
    mbarrier_arrive(&bar);
    out[1] = mbarrier_test_wait_parity(&bar, 0);  // 1
}

// Le thread 0 produit trois valeurs, une par phase ; les autres attendent chaque phase par
// sa parité, lisent la valeur et l'accumulent.
__global__ void producer_consumers(int* out) {
    __shared__ std::uint64_t full;
    __shared__ std::uint64_t empty;
    __shared__ int value;
    if (threadIdx.x == 0) {
        mbarrier_init(&full, 1);
        mbarrier_init(&empty, blockDim.x - 1);
    }
    __syncthreads();
    int sum = 0;
    for (unsigned phase = 0; phase < 3; ++phase) {
        if (threadIdx.x == 0) {
            if (phase > 0)
                while (!mbarrier_try_wait_parity(&empty, (phase - 1) % 2)) {
                }
            value = 10 * (int(phase) + 1);
            mbarrier_arrive(&full);
        } else {
            while (!mbarrier_try_wait_parity(&full, phase % 2)) {
            }
            sum += value;
            mbarrier_arrive(&empty);
        }
    }
    out[threadIdx.x] = sum;
}

// Interblocage : deux arrivées attendues, une seule viendra.
__global__ void never_completes() {
    __shared__ std::uint64_t bar;
    if (threadIdx.x == 0) mbarrier_init(&bar, 2);
    __syncthreads();
    if (threadIdx.x == 0) mbarrier_arrive_expect_tx(&bar, 128);
    while (!mbarrier_try_wait_parity(&bar, 0)) {
    }
}

// Plus d'octets livrés qu'annoncés quand toutes les arrivées sont là.
__global__ void too_many_bytes() {
    __shared__ std::uint64_t bar;
    mbarrier_init(&bar, 1);
    mbarrier_arrive_expect_tx(&bar, 16);
    mbarrier_complete_tx(&bar, 48);
}

// Plus d'arrivées que le compte d'init, la phase attendant encore des octets.
__global__ void too_many_arrivals() {
    __shared__ std::uint64_t bar;
    mbarrier_init(&bar, 1);
    mbarrier_arrive_expect_tx(&bar, 16);
    mbarrier_arrive(&bar);
}

__global__ void barrier_in_global_memory(std::uint64_t* bar) { mbarrier_init(bar, 1); }

__global__ void bad_count() {
    __shared__ std::uint64_t bar;
    mbarrier_init(&bar, 0);
}

}  // namespace mbarrier_test

class Mbarrier : public QuietDiagnostics {
protected:
    void SetUp() override {
        QuietDiagnostics::SetUp();
        ASSERT_EQ(cudaMalloc(&out_, 64 * sizeof(int)), cudaSuccess);
        cudaMemset(out_, 0xff, 64 * sizeof(int));
    }
    void TearDown() override {
        QuietDiagnostics::TearDown();
        cudaFree(out_);
    }
    std::vector<int> output(int count) const {
        std::vector<int> host(count);
        cudaMemcpy(host.data(), out_, count * sizeof(int), cudaMemcpyDeviceToHost);
        return host;
    }
    int* out_ = nullptr;
};

TEST_F(Mbarrier, PhasesAndParity) {
    mbarrier_test::phases<<<1, 1>>>(out_);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    EXPECT_EQ(output(10), (std::vector<int>{0, 0, 1, 1, 1, 0, 1, 1, 0, 1}));
}

TEST_F(Mbarrier, TransactionBytesHoldThePhase) {
    mbarrier_test::transactions<<<1, 1>>>(out_);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    EXPECT_EQ(output(6), (std::vector<int>{0, 0, 1, 0, 0, 1}));
}

TEST_F(Mbarrier, NoCompleteArrivalsLeaveThePhaseOpen) {
    mbarrier_test::no_complete<<<1, 1>>>(out_, 0);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    EXPECT_EQ(output(2), (std::vector<int>{0, 1}));
    mbarrier_test::no_complete<<<1, 1>>>(out_, 1);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("mbarrier.arrive.noComplete terminerait la phase"));
}

TEST_F(Mbarrier, ProducerAndConsumersThroughThreePhases) {
    mbarrier_test::producer_consumers<<<1, 64>>>(out_);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << simt::last_diagnostic();
    const std::vector<int> sums = output(64);
    EXPECT_EQ(sums[0], 0);
    for (int t = 1; t < 64; ++t) EXPECT_EQ(sums[t], 60) << t;
}

TEST_F(Mbarrier, WaitThatCannotCompleteIsADeadlockWithTheBarrierState) {
    setenv("SIMT_DELAI", "2", /*overwrite=*/0);
    mbarrier_test::never_completes<<<1, 32>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau mbarrier_test::never_completes : interblocage"),
                      HasSubstr("bloc (0, 0, 0), thread (0, 0, 0) : attend la fin de la phase de parité 0 de la mbarrier"),
                      HasSubstr("test_mbarrier.cu:"),
                      HasSubstr("phase en cours de parité 0, 1 arrivée restante sur 2 attendues, "
                                "128 octets de transaction attendus"),
                      HasSubstr("et 28 autres threads")));
}

TEST_F(Mbarrier, InconsistentTransactionsAreReported) {
    mbarrier_test::too_many_bytes<<<1, 1>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau mbarrier_test::too_many_bytes, bloc (0, 0, 0), thread (0, 0, 0)"),
                      HasSubstr("complete_tx : transactions incohérentes : 32 octets livrés de plus qu'annoncé"),
                      HasSubstr("0 arrivée restante sur 1 attendue, 16 octets de transaction attendus")));
    cudaDeviceReset();
    simt::clear_diagnostic();
    mbarrier_test::too_many_arrivals<<<1, 1>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                HasSubstr("mbarrier.arrive : 1 arrivée alors qu'il n'en reste que 0 dans la phase"));
}

TEST_F(Mbarrier, InitCountOutOfRangeIsReported) {
    mbarrier_test::bad_count<<<1, 1>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("mbarrier.init avec un compte de 0 arrivées, hors de [1, 2^20 - 1]"));
}

TEST_F(Mbarrier, BarrierOutsideSharedMemoryIsReported) {
    std::uint64_t* bar;
    ASSERT_EQ(cudaMalloc(&bar, sizeof *bar), cudaSuccess);
    mbarrier_test::barrier_in_global_memory<<<1, 1>>>(bar);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("une mbarrier doit être dans la mémoire partagée du bloc"));
    cudaFree(bar);
}
