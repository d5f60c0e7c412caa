// Sémantique des warps depuis sm_70, et comportements indéfinis que le matériel tolère de
// façon constante : simt les exécute comme le GPU, avec un avertissement par site qui cite
// la règle du guide de programmation, et en fait des erreurs en mode strict (SIMT_STRICT=1).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <string>
#include <vector>

using testing::AllOf;
using testing::HasSubstr;

namespace tolerated {

// Ordonnancement indépendant des threads (sm_70 et après) : les lanes paires et impaires
// se retrouvent à deux __syncwarp différents, ce qui est permis ; l'échange par la mémoire
// partagée est ensuite ordonné.
__global__ void syncwarp_in_both_branches(const int* in, int* out) {
    __shared__ int cells[32];
    const unsigned lane = threadIdx.x;
    cells[lane] = in[lane];
    if (lane % 2 == 0) {
        __syncwarp();
    } else {
        __syncwarp();
    }
    out[lane] = cells[lane ^ 1];
}

// Le motif des échantillons de NVIDIA : les threads en trop quittent avant la barrière.
constexpr int kEarlyReturnLine = __LINE__ + 6;
__global__ void early_return_then_exchange(const int* in, int* out, int n) {
    __shared__ int cells[64];
    const int i = static_cast<int>(threadIdx.x);
    if (i >= n) return;
    cells[i] = in[i];
    __syncthreads();
    out[i] = cells[(i + 1) % n];
}

// __syncthreads_count après la sortie de la moitié du bloc : seuls les threads restants
// comptent.
__global__ void count_after_early_return(int* out) {
    if (threadIdx.x >= 16) return;
    out[threadIdx.x] = __syncthreads_count(threadIdx.x % 2);
}

// Masque plein dans un bloc de 16 threads : un vote ne porte que sur les lanes présentes ;
// un papillon de largeur 16 ne lit que des lanes présentes ; un décalage de 16 lit des
// lanes qui n'existent pas.
constexpr int kAbsentLaneLine = __LINE__ + 7;
__global__ void full_mask_in_block_of_16(const int* in, int* ballot, int* sum, int* shifted) {
    const unsigned lane = threadIdx.x;
    int value = in[lane];
    ballot[lane] = static_cast<int>(__ballot_sync(0xffffffffu, value > 0));
    for (int offset = 8; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
    sum[lane] = value;
    shifted[lane] = __shfl_down_sync(0xffffffffu, in[lane], 16);
}

// Un thread arrête le bloc avant que les autres aient démarré : aucun d'eux ne doit
// s'exécuter (autrefois, la destruction de leur fibre exécutait le noyau sous l'identité
// d'un autre thread, d'où l'erreur intermittente d'UBSan dans Boost.Context).
// Le premier thread repris arrête le bloc ; la condition ne dépend pas de threadIdx, que la
// destruction fautive laissait à la valeur du dernier thread repris.
__global__ void trap_before_others_start(int* trapped, int* counter) {
    if (*trapped == 0) {
        *trapped = 1;
        __trap();
    }
    atomicAdd(counter, 1);
}

}  // namespace tolerated

namespace {

std::string line_of(int line) { return "test_tolerated_behaviour.cu:" + std::to_string(line); }

std::vector<int> read(const int* device, int n) {
    std::vector<int> host(n);
    cudaMemcpy(host.data(), device, n * sizeof(int), cudaMemcpyDeviceToHost);
    return host;
}

}  // namespace

class Tolerated : public testing::Test {
protected:
    void SetUp() override {
        simt::set_strict(false);  // indépendant d'un SIMT_STRICT=1 dans l'environnement
        simt::set_quiet(true);
        simt::clear_diagnostic();
        std::vector<int> host(64);
        for (int i = 0; i < 64; ++i) host[i] = 10 * i + 1;
        ASSERT_EQ(cudaMalloc(&in_, 64 * sizeof(int)), cudaSuccess);
        ASSERT_EQ(cudaMalloc(&out_, 3 * 64 * sizeof(int)), cudaSuccess);
        cudaMemcpy(in_, host.data(), 64 * sizeof(int), cudaMemcpyHostToDevice);
    }
    void TearDown() override {
        cudaDeviceReset();
        simt::set_strict(false);
        simt::set_quiet(false);
        cudaFree(in_);
        cudaFree(out_);
    }
    int* in_ = nullptr;
    int* out_ = nullptr;
};

TEST_F(Tolerated, SyncwarpAtDifferentProgramPointsIsLegal) {
    simt::set_strict(true);  // légal : pas même un avertissement
    tolerated::syncwarp_in_both_branches<<<1, 32>>>(in_, out_);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(simt::last_diagnostic(), "");
    const std::vector<int> out = read(out_, 32);
    for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(out[lane], 10 * (lane ^ 1) + 1) << lane;
}

TEST_F(Tolerated, EarlyReturnBeforeSyncthreadsWarnsOnceAndRunsAsTheGpu) {
    tolerated::early_return_then_exchange<<<1, 64>>>(in_, out_, 40);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("AVERTISSEMENT"),
                      HasSubstr("noyau tolerated::early_return_then_exchange"),
                      HasSubstr("__syncthreads (" + line_of(tolerated::kEarlyReturnLine) + ")"),
                      HasSubstr("le thread (40, 0, 0) a terminé sans l'atteindre"),
                      HasSubstr("condition est la même pour tout le bloc"),
                      HasSubstr("PTX ISA, instruction exit"), HasSubstr("SIMT_STRICT=1")));
    const std::vector<int> out = read(out_, 40);
    for (int i = 0; i < 40; ++i) EXPECT_EQ(out[i], 10 * ((i + 1) % 40) + 1) << i;

    // Une fois par site : le même lancement ne répète pas l'avertissement.
    simt::clear_diagnostic();
    tolerated::early_return_then_exchange<<<2, 64>>>(in_, out_, 40);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(simt::last_diagnostic(), "");
}

TEST_F(Tolerated, EarlyReturnBeforeSyncthreadsIsAnErrorInStrictMode) {
    simt::set_strict(true);
    tolerated::early_return_then_exchange<<<1, 64>>>(in_, out_, 40);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("__syncthreads (" + line_of(tolerated::kEarlyReturnLine) + ")"),
                      HasSubstr("mode strict"), HasSubstr("condition est la même pour tout le bloc")));
}

TEST_F(Tolerated, BarrierReductionsCountOnlyThreadsThatRemain) {
    tolerated::count_after_early_return<<<1, 32>>>(out_);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<int> out = read(out_, 16);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], 8) << i;
}

TEST_F(Tolerated, FullMaskInABlockOf16Threads) {
    int* ballot = out_;
    int* sum = out_ + 64;
    int* shifted = out_ + 128;
    tolerated::full_mask_in_block_of_16<<<1, 16>>>(in_, ballot, sum, shifted);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    int expected_sum = 0;
    for (int lane = 0; lane < 16; ++lane) expected_sum += 10 * lane + 1;
    const std::vector<int> ballots = read(ballot, 16), sums = read(sum, 16), shifts = read(shifted, 16);
    for (int lane = 0; lane < 16; ++lane) {
        EXPECT_EQ(static_cast<unsigned>(ballots[lane]), 0xffffu) << lane;
        EXPECT_EQ(sums[lane], expected_sum) << lane;
        EXPECT_EQ(shifts[lane], 10 * lane + 1) << lane;  // valeur indéfinie : simt rend la sienne
    }
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("AVERTISSEMENT"),
                      HasSubstr("__shfl_down_sync (" + line_of(tolerated::kAbsentLaneLine) + ")"),
                      HasSubstr("lit la lane 16, qui n'existe pas (bloc de 16 threads)"),
                      HasSubstr("participe activement au shuffle")));
}

TEST_F(Tolerated, FullMaskInABlockOf16ThreadsIsAnErrorInStrictModeOnlyWhereAnAbsentLaneIsRead) {
    simt::set_strict(true);
    tolerated::full_mask_in_block_of_16<<<1, 16>>>(in_, out_, out_ + 64, out_ + 128);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("__shfl_down_sync (" + line_of(tolerated::kAbsentLaneLine) + ")"),
                      HasSubstr("mode strict")));
}

TEST_F(Tolerated, ThreadsOfAnInterruptedBlockThatNeverStartedDoNotRun) {
    int* trapped = out_;
    int* counter = out_ + 1;
    cudaMemset(out_, 0, 2 * sizeof(int));
    tolerated::trap_before_others_start<<<1, 64>>>(trapped, counter);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("__trap()"));
    cudaDeviceReset();
    EXPECT_EQ(read(counter, 1)[0], 0);
}
