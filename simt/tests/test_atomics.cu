// Atomiques en mémoire globale et partagée (entiers signés et non signés, flottants),
// __threadfence, et les atomiques de libcu++ (cuda::atomic_ref, cuda::std::atomic).
#include <gtest/gtest.h>

#include <cuda/atomic>
#include <cuda/std/atomic>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace {

constexpr int kBins = 16;

// Histogramme en deux temps : par bloc en mémoire partagée, puis fusion en mémoire globale.
__global__ void histogram(const unsigned char* values, int n, unsigned* bins) {
    __shared__ unsigned local[kBins];
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[values[i] % kBins], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

__global__ void count_threads(int* counter, unsigned long long* total) {
    atomicAdd(counter, 1);
    atomicAdd(total, 1ull << 32);
}

// Une opération de chaque sorte par thread, sur des cases communes à toute la grille.
__global__ void integer_operations(int* cells, unsigned* ucells) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicSub(&cells[0], 2);
    atomicMin(&cells[1], 50 - t);
    atomicMax(&cells[2], t * 3 - 40);
    atomicMin(&ucells[0], 1000u + t);
    atomicMax(&ucells[1], unsigned(t) * 7u);
    atomicInc(&ucells[2], 9u);  // compte de 0 à 9, puis revient à 0
    atomicDec(&ucells[3], 9u);  // décompte ; de 0, repart à 9
    atomicOr(&ucells[4], 1u << (t % 32));
    atomicAnd(&ucells[5], ~(1u << (t % 16)));
    atomicXor(&ucells[6], 1u << (t % 8));
}

// Chaque thread dépose son numéro : les anciennes valeurs rendues, plus la dernière
// restée en place, sont une permutation de {-1, 0, …, n-1}.
__global__ void exchange_chain(int* slot, int* previous) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    previous[t] = atomicExch(slot, t);
}

// Incrément par boucle de compare-and-swap, la forme générale de toute atomique.
__global__ void cas_increment(unsigned long long* counter, int repeats) {
    for (int r = 0; r < repeats; ++r) {
        unsigned long long old = *counter, assumed;
        do {
            assumed = old;
            old = atomicCAS(counter, assumed, assumed + 1);
        } while (old != assumed);
    }
}

// Maximum de flottants sans atomicMax flottant : compare-and-swap sur la représentation.
__device__ float atomic_max_float(float* address, float value) {
    int* bits = reinterpret_cast<int*>(address);
    int old = *bits, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value) break;
        old = atomicCAS(bits, assumed, __float_as_int(value));
    } while (old != assumed);
    return __int_as_float(old);
}

__global__ void float_operations(const float* values, int n, float* sum, float* maximum) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(sum, values[i]);
        atomic_max_float(maximum, values[i]);
    }
}

// Réduction en un seul lancement : le dernier bloc à finir additionne les sommes partielles.
// __threadfence rend la somme partielle visible avant que le compteur ne l'annonce.
__global__ void sum_with_last_block(const int* values, int* partial, unsigned* finished, int* total) {
    __shared__ int block_sum;
    __shared__ bool is_last;
    if (threadIdx.x == 0) block_sum = 0;
    __syncthreads();
    atomicAdd(&block_sum, values[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = block_sum;
        __threadfence();
        is_last = atomicInc(finished, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (is_last && threadIdx.x == 0) {
        int sum = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
        *total = sum;
    }
}

// libcu++ : une référence atomique sur un entier ordinaire, et un atomique à part entière.
__global__ void libcudacxx_counters(int* plain, cuda::std::atomic<int>* counter, int* maximum) {
    cuda::atomic_ref<int, cuda::thread_scope_device> ref(*plain);
    ref.fetch_add(2, cuda::std::memory_order_relaxed);
    counter->fetch_add(1);
    cuda::atomic_ref<int, cuda::thread_scope_device> best(*maximum);
    const int candidate = static_cast<int>((blockIdx.x * 131 + threadIdx.x * 17) % 1000);
    int seen = best.load();
    while (seen < candidate && !best.compare_exchange_weak(seen, candidate)) {
    }
}

// Drapeau passé d'un bloc à l'autre : le bloc 0 publie ses données puis lève le drapeau
// (release) ; le bloc 1 attend le drapeau (acquire), sans __nanosleep, puis lit les données.
__global__ void flag_handoff(int* data, int* flag, int* copy) {
    cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
    if (blockIdx.x == 0) {
        data[threadIdx.x] = static_cast<int>(threadIdx.x) * 7 + 1;
        __syncthreads();
        if (threadIdx.x == 0) ready.store(1, cuda::memory_order_release);
    } else {
        if (threadIdx.x == 0)
            while (ready.load(cuda::memory_order_acquire) == 0) {
            }
        __syncthreads();
        copy[threadIdx.x] = data[threadIdx.x];
    }
}

// Dans un même bloc : le thread 0, repris le premier, attend ce que publie le dernier thread.
// Les deux sont des fibres du même thread du système : l'attente doit céder la main.
__global__ void spin_inside_block(int* flag, int* out) {
    cuda::std::atomic_ref<int> ready(*flag);
    if (threadIdx.x == 0) {
        while (ready.load(cuda::std::memory_order_acquire) == 0) {
        }
        out[0] = 1;
    } else if (threadIdx.x == blockDim.x - 1) {
        ready.store(1, cuda::std::memory_order_release);
    }
}

// wait/notify : le thread 0 dort sur la valeur 0 jusqu'à ce que le dernier thread la change.
__global__ void wait_and_notify(int* flag, int* out) {
    cuda::atomic_ref<int, cuda::thread_scope_block> value(*flag);
    if (threadIdx.x == 0) {
        value.wait(0, cuda::memory_order_acquire);
        out[0] = value.load(cuda::memory_order_relaxed);
    } else if (threadIdx.x == blockDim.x - 1) {
        value.store(5, cuda::memory_order_release);
        value.notify_all();
    }
}

// Compteur de tickets : chaque bloc en prend un (acq_rel) ; le dernier arrivé, qui voit
// tous les autres, vérifie que chacun a publié sa part avant son ticket.
__global__ void ticket_counter(unsigned* tickets, int* parts, int* last_sum) {
    if (threadIdx.x != 0) return;
    parts[blockIdx.x] = static_cast<int>(blockIdx.x) + 1;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> counter(*tickets);
    const unsigned ticket = counter.fetch_add(1, cuda::memory_order_acq_rel);
    if (ticket == gridDim.x - 1) {
        int sum = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) sum += parts[b];
        *last_sum = sum;
    }
}

// Compteur partagé par un lancement, sous l'autre nom de libcu++ (cuda::atomic).
__global__ void release_counter(cuda::atomic<int, cuda::thread_scope_device>* counter) {
    counter->fetch_add(1, cuda::memory_order_release);
}

template <typename T>
std::vector<T> to_host(const T* device, std::size_t count) {
    std::vector<T> host(count);
    cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
}

}  // namespace

TEST(Atomics, HistogramInSharedThenGlobalMemory) {
    const int n = 5000;
    std::vector<unsigned char> host(n);
    for (int i = 0; i < n; ++i) host[i] = static_cast<unsigned char>((i * 7919) % 256);
    unsigned char* values;
    unsigned* bins;
    cudaMalloc(&values, n);
    cudaMalloc(&bins, kBins * sizeof(unsigned));
    cudaMemcpy(values, host.data(), n, cudaMemcpyHostToDevice);
    cudaMemset(bins, 0, kBins * sizeof(unsigned));
    histogram<<<8, 128>>>(values, n, bins);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<unsigned> expected(kBins, 0);
    for (unsigned char v : host) ++expected[v % kBins];
    EXPECT_EQ(to_host(bins, kBins), expected);
    cudaFree(values);
    cudaFree(bins);
}

TEST(Atomics, CounterIncrementedByManyBlocks) {
    int* counter;
    unsigned long long* total;
    cudaMalloc(&counter, sizeof(int));
    cudaMalloc(&total, sizeof(unsigned long long));
    cudaMemset(counter, 0, sizeof(int));
    cudaMemset(total, 0, sizeof(unsigned long long));
    count_threads<<<48, 256>>>(counter, total);  // plus de blocs que le périphérique n'en loge
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(to_host(counter, 1)[0], 48 * 256);
    EXPECT_EQ(to_host(total, 1)[0], (48ull * 256) << 32);
    cudaFree(counter);
    cudaFree(total);
}

TEST(Atomics, IntegerOperationsOnSignedAndUnsigned) {
    const int blocks = 3, threads = 64, n = blocks * threads;  // 192 threads
    const int cells_init[3] = {1000, 0, 0};
    const unsigned ucells_init[7] = {5000, 0, 0, 0, 0, 0xffffffffu, 0};
    int* cells;
    unsigned* ucells;
    cudaMalloc(&cells, sizeof cells_init);
    cudaMalloc(&ucells, sizeof ucells_init);
    cudaMemcpy(cells, cells_init, sizeof cells_init, cudaMemcpyHostToDevice);
    cudaMemcpy(ucells, ucells_init, sizeof ucells_init, cudaMemcpyHostToDevice);
    integer_operations<<<blocks, threads>>>(cells, ucells);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    const std::vector<int> c = to_host(cells, 3);
    const std::vector<unsigned> u = to_host(ucells, 7);
    EXPECT_EQ(c[0], 1000 - 2 * n);
    EXPECT_EQ(c[1], 50 - (n - 1));
    EXPECT_EQ(c[2], (n - 1) * 3 - 40);
    EXPECT_EQ(u[0], 1000u);
    EXPECT_EQ(u[1], unsigned(n - 1) * 7u);
    EXPECT_EQ(u[2], unsigned(n % 10));
    EXPECT_EQ(u[3], unsigned((10 - n % 10) % 10));
    EXPECT_EQ(u[4], 0xffffffffu);
    EXPECT_EQ(u[5], 0xffff0000u);
    EXPECT_EQ(u[6], 0u);  // chaque bit basculé 24 fois
    cudaFree(cells);
    cudaFree(ucells);
}

TEST(Atomics, ExchangeAndCompareAndSwap) {
    const int blocks = 4, threads = 32, n = blocks * threads;
    int *slot, *previous;
    cudaMalloc(&slot, sizeof(int));
    cudaMalloc(&previous, n * sizeof(int));
    const int initial = -1;
    cudaMemcpy(slot, &initial, sizeof(int), cudaMemcpyHostToDevice);
    exchange_chain<<<blocks, threads>>>(slot, previous);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<int> seen = to_host(previous, n);
    seen.push_back(to_host(slot, 1)[0]);
    std::sort(seen.begin(), seen.end());
    std::vector<int> expected(n + 1);
    std::iota(expected.begin(), expected.end(), -1);
    EXPECT_EQ(seen, expected);

    unsigned long long* counter;
    cudaMalloc(&counter, sizeof(unsigned long long));
    cudaMemset(counter, 0, sizeof(unsigned long long));
    cas_increment<<<blocks, threads>>>(counter, 10);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(to_host(counter, 1)[0], 10ull * n);
    cudaFree(slot);
    cudaFree(previous);
    cudaFree(counter);
}

TEST(Atomics, FloatAddAndLockFreeMaximum) {
    const int n = 3000;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = 0.25f * static_cast<float>((i * 53) % 97) - 8.0f;
    float *values, *sum, *maximum;
    cudaMalloc(&values, n * sizeof(float));
    cudaMalloc(&sum, sizeof(float));
    cudaMalloc(&maximum, sizeof(float));
    cudaMemcpy(values, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    const float zero = 0.0f, lowest = -INFINITY;
    cudaMemcpy(sum, &zero, sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(maximum, &lowest, sizeof(float), cudaMemcpyHostToDevice);
    float_operations<<<6, 128>>>(values, n, sum, maximum);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    // Quarts d'entiers petits : chaque somme partielle est exacte, quel que soit l'ordre.
    float expected_sum = 0.0f;
    for (float v : host) expected_sum += v;
    EXPECT_EQ(to_host(sum, 1)[0], expected_sum);
    EXPECT_EQ(to_host(maximum, 1)[0], *std::max_element(host.begin(), host.end()));
    cudaFree(values);
    cudaFree(sum);
    cudaFree(maximum);
}

TEST(Atomics, ThreadfenceLastBlockReduction) {
    const int blocks = 10, threads = 64, n = blocks * threads;
    std::vector<int> host(n);
    for (int i = 0; i < n; ++i) host[i] = i % 13 - 6;
    int *values, *partial, *total;
    unsigned* finished;
    cudaMalloc(&values, n * sizeof(int));
    cudaMalloc(&partial, blocks * sizeof(int));
    cudaMalloc(&total, sizeof(int));
    cudaMalloc(&finished, sizeof(unsigned));
    cudaMemcpy(values, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(finished, 0, sizeof(unsigned));
    cudaMemset(total, 0xff, sizeof(int));
    sum_with_last_block<<<blocks, threads>>>(values, partial, finished, total);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(to_host(total, 1)[0], std::accumulate(host.begin(), host.end(), 0));
    EXPECT_EQ(to_host(finished, 1)[0], 0u);  // atomicInc est revenu à 0 après le dernier bloc
    cudaFree(values);
    cudaFree(partial);
    cudaFree(total);
    cudaFree(finished);
}

TEST(Atomics, LibcudacxxAtomicRefAndAtomic) {
    const int blocks = 5, threads = 64;
    int *plain, *maximum;
    cuda::std::atomic<int>* counter;
    cudaMalloc(&plain, sizeof(int));
    cudaMalloc(&maximum, sizeof(int));
    cudaMalloc(&counter, sizeof(cuda::std::atomic<int>));
    cudaMemset(plain, 0, sizeof(int));
    cudaMemset(maximum, 0, sizeof(int));
    cudaMemset(counter, 0, sizeof(cuda::std::atomic<int>));
    libcudacxx_counters<<<blocks, threads>>>(plain, counter, maximum);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    int expected_maximum = 0;
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < threads; ++t) expected_maximum = std::max(expected_maximum, (b * 131 + t * 17) % 1000);
    int count = 0;
    cudaMemcpy(&count, counter, sizeof(int), cudaMemcpyDeviceToHost);
    EXPECT_EQ(to_host(plain, 1)[0], 2 * blocks * threads);
    EXPECT_EQ(count, blocks * threads);
    EXPECT_EQ(to_host(maximum, 1)[0], expected_maximum);
    cudaFree(plain);
    cudaFree(maximum);
    cudaFree(counter);
}

TEST(Atomics, AtomicRefReleaseAcquireHandoffBetweenBlocks) {
    int *data, *flag, *copy;
    cudaMalloc(&data, 64 * sizeof(int));
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&copy, 64 * sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    flag_handoff<<<2, 64>>>(data, flag, copy);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<int> result = to_host(copy, 64);
    for (int t = 0; t < 64; ++t) EXPECT_EQ(result[t], t * 7 + 1) << t;
    cudaFree(data);
    cudaFree(flag);
    cudaFree(copy);
}

TEST(Atomics, AtomicRefSpinAndWaitYieldInsideABlock) {
    int *flag, *out;
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    cudaMemset(out, 0, sizeof(int));
    spin_inside_block<<<1, 64>>>(flag, out);  // sans point d'attente, le thread 0 tournerait sans fin
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(to_host(out, 1)[0], 1);
    cudaMemset(flag, 0, sizeof(int));
    wait_and_notify<<<1, 64>>>(flag, out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(to_host(out, 1)[0], 5);
    cudaFree(flag);
    cudaFree(out);
}

TEST(Atomics, AtomicRefTicketCounterOverManyBlocks) {
    const unsigned blocks = 200;
    unsigned* tickets;
    int *parts, *last_sum;
    cuda::atomic<int, cuda::thread_scope_device>* counter;
    cudaMalloc(&tickets, sizeof(unsigned));
    cudaMalloc(&parts, blocks * sizeof(int));
    cudaMalloc(&last_sum, sizeof(int));
    cudaMalloc(&counter, sizeof(*counter));
    cudaMemset(tickets, 0, sizeof(unsigned));
    cudaMemset(last_sum, 0, sizeof(int));
    cudaMemset(counter, 0, sizeof(*counter));
    ticket_counter<<<blocks, 32>>>(tickets, parts, last_sum);
    release_counter<<<blocks, 32>>>(counter);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(to_host(tickets, 1)[0], blocks);
    EXPECT_EQ(to_host(last_sum, 1)[0], int(blocks * (blocks + 1) / 2));
    int count = 0;
    cudaMemcpy(&count, counter, sizeof(int), cudaMemcpyDeviceToHost);
    EXPECT_EQ(count, int(blocks * 32));
    cudaFree(tickets);
    cudaFree(parts);
    cudaFree(last_sum);
    cudaFree(counter);
}
