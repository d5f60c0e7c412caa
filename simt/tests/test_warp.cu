// Opérations de warp : les quatre shuffles, avec et sans largeur de segment, les votes
// (__ballot_sync, __all_sync, __any_sync, __activemask) et les correspondances
// (__match_any_sync, __match_all_sync), y compris dans un warp incomplet.
#include <gtest/gtest.h>

#include <vector>

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ int warp_sum_down(int value) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(kFullMask, value, offset);
    return value;  // juste dans la lane 0
}

__device__ __forceinline__ double warp_sum_butterfly(double value) {
#pragma unroll
    for (int mask = 16; mask > 0; mask /= 2) value += __shfl_xor_sync(kFullMask, value, mask);
    return value;  // juste dans toutes les lanes
}

__device__ __forceinline__ int inclusive_scan(int value, int width) {
    const int lane = threadIdx.x % width;
    for (int offset = 1; offset < width; offset *= 2) {
        const int before = __shfl_up_sync(kFullMask, value, offset, width);
        if (lane >= offset) value += before;
    }
    return value;
}

// out[4 * t + k] : somme (lane 0), papillon, préfixe, diffusion de la lane 5.
__global__ void full_warp_shuffles(const int* in, int* reduced, double* butterfly, int* scan,
                                   int* broadcast) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int value = in[t];
    const int sum = warp_sum_down(value);
    if (threadIdx.x % warpSize == 0) reduced[t / warpSize] = sum;
    butterfly[t] = warp_sum_butterfly(0.5 * value);
    scan[t] = inclusive_scan(value, warpSize);
    broadcast[t] = __shfl_sync(kFullMask, value, 5);
}

// Les mêmes opérations restreintes à des segments de 8 lanes.
__global__ void segmented_shuffles(const int* in, int* first, int* wrapped, int* scan, int* down,
                                   int* xor_sum) {
    const int t = threadIdx.x;
    const int value = in[t];
    first[t] = __shfl_sync(kFullMask, value, 0, 8);
    wrapped[t] = __shfl_sync(kFullMask, value, 9, 8);  // 9 modulo 8 : la lane 1 du segment
    scan[t] = inclusive_scan(value, 8);
    down[t] = __shfl_down_sync(kFullMask, value, 3, 8);  // reste dans le segment, sinon garde sa valeur
    int sum = value;
    for (int mask = 4; mask > 0; mask /= 2) sum += __shfl_xor_sync(kFullMask, sum, mask, 8);
    xor_sum[t] = sum;
}

// Votes ; un bloc de 40 threads : le second warp n'a que 8 lanes.
__global__ void votes(const int* in, unsigned* ballot, int* all, int* any, unsigned* active,
                      unsigned* partial_ballot) {
    const int t = threadIdx.x;
    const int warp = t / warpSize;
    const unsigned mask = __activemask();
    active[t] = mask;
    const int positive = in[t] > 0;
    ballot[t] = __ballot_sync(mask, positive);
    all[t] = __all_sync(mask, positive);
    any[t] = __any_sync(mask, in[t] > 100);
    // Vote restreint à la moitié basse du premier warp, appelé par elle seule.
    if (warp == 0 && t % warpSize < 16) partial_ballot[t] = __ballot_sync(0x0000ffffu, t % 3 == 0);
}

// Code divergent : seule la moitié basse de chaque warp échange, avec le masque qui la
// désigne exactement ; la moitié haute reste à l'écart.
__global__ void half_warp_exchange(const int* in, int* out) {
    __shared__ int staged[64];
    const unsigned lane = threadIdx.x % warpSize;
    int value = in[threadIdx.x];
    if (lane < 16) {
        value += __shfl_xor_sync(0x0000ffffu, value, 8);  // partenaire dans la même moitié
        staged[threadIdx.x] = value;
        __syncwarp(0x0000ffffu);
        value = staged[threadIdx.x - lane + (lane + 1) % 16];
    }
    out[threadIdx.x] = value;
}

// Correspondances sur des valeurs de 32 bits (int) et de 64 bits (double, long long) ; un bloc
// de 40 threads : le second warp n'a que 8 lanes, que le masque plein désigne seules.
__global__ void matches(unsigned* any32, unsigned* any64, unsigned* all_same, int* all_same_pred,
                        unsigned* all_mixed, int* all_mixed_pred) {
    const int t = threadIdx.x;
    any32[t] = __match_any_sync(0xffffffffu, t % 5);
    any64[t] = __match_any_sync(0xffffffffu, double(t / 8) + 0.5);
    all_same[t] = __match_all_sync(0xffffffffu, 7LL << 40, &all_same_pred[t]);
    all_mixed[t] = __match_all_sync(0xffffffffu, t == 3 ? 1 : 0, &all_mixed_pred[t]);
}

// Ordonnancement indépendant des threads (sm_70 et après) : les lanes 0 et 31 échangent dans
// une branche ; la lane 5 arrive à la réduction du warp entier pendant que la lane 0 attend
// encore la lane 31 dans la branche. Ce n'est pas une discordance : la lane 0 viendra.
__global__ void branch_then_whole_warp(int* out) {
    const unsigned lane = threadIdx.x;
    int value = int(lane);
    if (lane == 0 || lane == 31) value += __shfl_xor_sync(0x80000001u, value, 31);
    out[lane] = __reduce_add_sync(0xffffffffu, value);
}

}  // namespace

TEST(Warp, WholeWarpOperationWaitsForLanesStillInABranch) {
    int* out = nullptr;
    ASSERT_EQ(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
    branch_then_whole_warp<<<1, 32>>>(out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int> result(32);
    cudaMemcpy(result.data(), out, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    // 0 + 1 + … + 31, plus 31 pour la lane 0 et 0 pour la lane 31.
    EXPECT_EQ(result, std::vector<int>(32, 496 + 31));
    cudaFree(out);
}

TEST(Warp, MatchAnyAndMatchAll) {
    const int n = 40;
    unsigned *any32, *any64, *all_same, *all_mixed;
    int *same_pred, *mixed_pred;
    cudaMalloc(&any32, n * sizeof(unsigned));
    cudaMalloc(&any64, n * sizeof(unsigned));
    cudaMalloc(&all_same, n * sizeof(unsigned));
    cudaMalloc(&all_mixed, n * sizeof(unsigned));
    cudaMalloc(&same_pred, n * sizeof(int));
    cudaMalloc(&mixed_pred, n * sizeof(int));
    matches<<<1, n>>>(any32, any64, all_same, same_pred, all_mixed, mixed_pred);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<unsigned> a32(n), a64(n), same(n), mixed(n);
    std::vector<int> spred(n), mpred(n);
    cudaMemcpy(a32.data(), any32, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(a64.data(), any64, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(same.data(), all_same, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(mixed.data(), all_mixed, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(spred.data(), same_pred, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(mpred.data(), mixed_pred, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int t = 0; t < n; ++t) {
        const int base = t / 32 * 32, lanes = t < 32 ? 32 : 8;
        unsigned expected32 = 0, expected64 = 0;
        for (int lane = 0; lane < lanes; ++lane) {
            if ((base + lane) % 5 == t % 5) expected32 |= 1u << lane;
            if ((base + lane) / 8 == t / 8) expected64 |= 1u << lane;
        }
        const unsigned present = lanes == 32 ? 0xffffffffu : 0xffu;
        EXPECT_EQ(a32[t], expected32) << t;
        EXPECT_EQ(a64[t], expected64) << t;
        EXPECT_EQ(same[t], present) << t;
        EXPECT_EQ(spred[t], 1) << t;
        EXPECT_EQ(mixed[t], t < 32 ? 0u : present) << t;  // seul le premier warp contient t == 3
        EXPECT_EQ(mpred[t], t < 32 ? 0 : 1) << t;
    }
    for (void* p : {static_cast<void*>(any32), static_cast<void*>(any64), static_cast<void*>(all_same),
                    static_cast<void*>(all_mixed), static_cast<void*>(same_pred), static_cast<void*>(mixed_pred)})
        cudaFree(p);
}

TEST(Warp, FullWarpReductionScanAndBroadcast) {
    const int warps = 4, n = warps * 32;
    std::vector<int> host(n);
    for (int i = 0; i < n; ++i) host[i] = (i * 37) % 23 - 7;
    int *in, *reduced, *scan, *broadcast;
    double* butterfly;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&reduced, warps * sizeof(int));
    cudaMalloc(&butterfly, n * sizeof(double));
    cudaMalloc(&scan, n * sizeof(int));
    cudaMalloc(&broadcast, n * sizeof(int));
    cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    full_warp_shuffles<<<2, 64>>>(in, reduced, butterfly, scan, broadcast);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

    std::vector<int> r(warps), s(n), b(n);
    std::vector<double> x(n);
    cudaMemcpy(r.data(), reduced, warps * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(x.data(), butterfly, n * sizeof(double), cudaMemcpyDeviceToHost);
    cudaMemcpy(s.data(), scan, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(b.data(), broadcast, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int w = 0; w < warps; ++w) {
        int sum = 0;
        for (int lane = 0; lane < 32; ++lane) {
            const int i = w * 32 + lane;
            sum += host[i];
            EXPECT_EQ(s[i], sum) << i;
            EXPECT_EQ(b[i], host[w * 32 + 5]) << i;
        }
        EXPECT_EQ(r[w], sum) << "warp " << w;
        for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(x[w * 32 + lane], 0.5 * sum) << w << ", " << lane;
    }
    cudaFree(in);
    cudaFree(reduced);
    cudaFree(butterfly);
    cudaFree(scan);
    cudaFree(broadcast);
}

TEST(Warp, ShufflesWithinSegmentsOfWidth8) {
    const int n = 64;
    std::vector<int> host(n);
    for (int i = 0; i < n; ++i) host[i] = i * i % 17 + 1;
    int* buffers[6];
    for (int*& buffer : buffers) cudaMalloc(&buffer, n * sizeof(int));
    cudaMemcpy(buffers[0], host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    segmented_shuffles<<<1, n>>>(buffers[0], buffers[1], buffers[2], buffers[3], buffers[4], buffers[5]);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<std::vector<int>> result(6, std::vector<int>(n));
    for (int k = 1; k < 6; ++k)
        cudaMemcpy(result[k].data(), buffers[k], n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int t = 0; t < n; ++t) {
        const int base = t / 8 * 8, lane = t % 8;
        int prefix = 0, segment_sum = 0;
        for (int k = 0; k < 8; ++k) {
            if (k <= lane) prefix += host[base + k];
            segment_sum += host[base + k];
        }
        EXPECT_EQ(result[1][t], host[base]) << t;
        EXPECT_EQ(result[2][t], host[base + 1]) << t;
        EXPECT_EQ(result[3][t], prefix) << t;
        EXPECT_EQ(result[4][t], lane + 3 < 8 ? host[t + 3] : host[t]) << t;
        EXPECT_EQ(result[5][t], segment_sum) << t;
    }
    for (int* buffer : buffers) cudaFree(buffer);
}

TEST(Warp, VotesOnFullAndPartialWarps) {
    const int n = 40;  // un warp complet, puis un warp de 8 lanes
    std::vector<int> host(n);
    for (int i = 0; i < n; ++i) host[i] = i % 5 == 4 ? -i : i + 1;  // négatifs : 4, 9, 14…
    host[3] = 1000;  // un seul grand nombre, dans le premier warp
    int *in, *all, *any;
    unsigned *ballot, *active, *partial;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&all, n * sizeof(int));
    cudaMalloc(&any, n * sizeof(int));
    cudaMalloc(&ballot, n * sizeof(unsigned));
    cudaMalloc(&active, n * sizeof(unsigned));
    cudaMalloc(&partial, 16 * sizeof(unsigned));
    cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    votes<<<1, n>>>(in, ballot, all, any, active, partial);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

    std::vector<unsigned> b(n), a(n), p(16);
    std::vector<int> al(n), an(n);
    cudaMemcpy(b.data(), ballot, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(a.data(), active, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(p.data(), partial, 16 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(al.data(), all, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(an.data(), any, n * sizeof(int), cudaMemcpyDeviceToHost);

    unsigned expected_ballot[2] = {0, 0};
    for (int i = 0; i < n; ++i)
        if (host[i] > 0) expected_ballot[i / 32] |= 1u << (i % 32);
    unsigned expected_partial = 0;
    for (int lane = 0; lane < 16; ++lane)
        if (lane % 3 == 0) expected_partial |= 1u << lane;
    for (int i = 0; i < n; ++i) {
        const int warp = i / 32;
        EXPECT_EQ(a[i], warp == 0 ? 0xffffffffu : 0x000000ffu) << i;
        EXPECT_EQ(b[i], expected_ballot[warp]) << i;
        EXPECT_EQ(al[i], 0) << i;  // chaque warp a des négatifs
        EXPECT_EQ(an[i] != 0, warp == 0) << i;
    }
    for (int lane = 0; lane < 16; ++lane) EXPECT_EQ(p[lane], expected_partial) << lane;
    cudaFree(in);
    cudaFree(all);
    cudaFree(any);
    cudaFree(ballot);
    cudaFree(active);
    cudaFree(partial);
}

TEST(Warp, PartialMaskInDivergentCode) {
    const int n = 64;
    std::vector<int> host(n);
    for (int i = 0; i < n; ++i) host[i] = i * 3 + 1;
    int *in, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    half_warp_exchange<<<1, n>>>(in, out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int> result(n);
    cudaMemcpy(result.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int t = 0; t < n; ++t) {
        const int lane = t % 32, base = t - lane;
        if (lane >= 16) {
            EXPECT_EQ(result[t], host[t]) << t;
        } else {
            const int neighbour = base + (lane + 1) % 16;
            EXPECT_EQ(result[t], host[neighbour] + host[neighbour ^ 8]) << t;
        }
    }
    cudaFree(in);
    cudaFree(out);
}
