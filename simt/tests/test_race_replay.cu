// Mode « courses de données » (SIMT_ORDRES) : chaque ordre repart de la même mémoire, y
// compris les variables __device__ et la mémoire hôte épinglée ; un écart dû seulement à
// l'ordre des atomiques est signalé comme tel, sans erreur.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include "quiet_fixture.hpp"

#include <string>

using testing::AllOf;
using testing::HasSubstr;
using testing::Not;

namespace replay {

__device__ int launches_counted;
__device__ __managed__ int managed_counted;

__global__ void count_threads(int* pinned) {
    atomicAdd(&launches_counted, 1);
    atomicAdd(&managed_counted, 1);
    atomicAdd(pinned, 1);
}


// Somme flottante par atomicAdd : l'ordre des additions change l'arrondi.
__global__ void float_sum(const float* values, float* sum) {
    atomicAdd(sum, values[blockIdx.x * blockDim.x + threadIdx.x]);
}

// Une vraie course, sur une variable __device__ : chaque thread y écrit son indice.
__device__ int last_writer;
__global__ void write_own_index() { last_writer = static_cast<int>(threadIdx.x); }

// Réduction « warp-synchrone » d'avant Volta : les lanes du premier warp échangent par la
// mémoire partagée sans __syncwarp, en comptant sur l'exécution en phase du warp. simt ne la
// reproduit pas (une lane va jusqu'au bout avant la suivante) ; le mode SIMT_ORDRES la signale.
__global__ void warp_synchronous_sum(const unsigned* in, unsigned* out) {
    __shared__ unsigned cells[64];  // non signé : dans le mauvais ordre, les sommes débordent
    const unsigned t = threadIdx.x;
    cells[t] = in[t];
    __syncthreads();
    if (t < 32) {
        volatile unsigned* v = cells;
        for (unsigned offset = 32; offset > 0; offset /= 2) v[t] = v[t] + v[t + offset];
    }
    if (t == 0) *out = cells[0];
}

}  // namespace replay

class RaceReplay : public QuietDiagnostics {
protected:
    void SetUp() override {
        QuietDiagnostics::SetUp();
        simt::set_thread_orders(3);
    }
};

TEST_F(RaceReplay, DeviceGlobalsAndPinnedMemoryAreRestoredBetweenOrders) {
    int* pinned = nullptr;
    ASSERT_EQ(cudaMallocHost(&pinned, sizeof(int)), cudaSuccess);
    *pinned = 0;
    const int zero = 0;
    ASSERT_EQ(cudaMemcpyToSymbol(replay::launches_counted, &zero, sizeof zero), cudaSuccess);
    replay::managed_counted = 0;

    replay::count_threads<<<2, 64>>>(pinned);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    int counted = 0;
    ASSERT_EQ(cudaMemcpyFromSymbol(&counted, replay::launches_counted, sizeof counted), cudaSuccess);
    EXPECT_EQ(counted, 128);  // et non 3 × 128 : un compteur par ordre rejoué
    EXPECT_EQ(replay::managed_counted, 128);
    EXPECT_EQ(*pinned, 128);
    EXPECT_EQ(simt::last_diagnostic(), "");  // entiers : même somme dans tous les ordres
    cudaFreeHost(pinned);
}

TEST_F(RaceReplay, FloatSumByAtomicsIsReportedAsAtomicNonDeterminism) {
    constexpr int kCount = 256;
    float host[kCount];
    // 1e8 d'abord : chaque 1 ajouté ensuite se perd dans l'arrondi ; en dernier : 1e8 + 255.
    for (int i = 0; i < kCount; ++i) host[i] = i == 0 ? 1.0e8f : 1.0f;
    float *values, *sum;
    cudaMalloc(&values, sizeof host);
    cudaMalloc(&sum, sizeof(float));
    cudaMemcpy(values, host, sizeof host, cudaMemcpyHostToDevice);
    cudaMemset(sum, 0, sizeof(float));
    replay::float_sum<<<1, kCount>>>(values, sum);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("AVERTISSEMENT"), HasSubstr("noyau replay::float_sum"),
                      HasSubstr("non-déterminisme par atomiques"), Not(HasSubstr("barrière"))));
    cudaFree(values);
    cudaFree(sum);
}

TEST_F(RaceReplay, RaceOnADeviceGlobalNamesTheVariable) {
    replay::write_own_index<<<1, 64>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau replay::write_own_index"),
                      HasSubstr("variable replay::last_writer, octet 0"),
                      HasSubstr("le résultat dépend de l'ordre d'exécution des threads")));
}

TEST_F(RaceReplay, WarpSynchronousCodeIsReportedWithSyncwarpAdvice) {
    unsigned host[64];
    for (unsigned i = 0; i < 64; ++i) host[i] = i + 1;
    unsigned *in, *out;
    cudaMalloc(&in, sizeof host);
    cudaMalloc(&out, sizeof(unsigned));
    cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
    replay::warp_synchronous_sum<<<1, 64>>>(in, out);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau replay::warp_synchronous_sum"),
                      HasSubstr("le résultat dépend de l'ordre d'exécution des threads"),
                      HasSubstr("un __syncwarp entre les lanes d'un même warp")));
    cudaFree(in);
    cudaFree(out);
}
