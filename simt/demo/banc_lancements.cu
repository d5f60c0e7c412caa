// Banc d'essai du moteur de simt sur les grands lancements : une addition de vecteurs (aucun
// point d'attente : chaque thread s'exécute d'un trait) puis un noyau à trois __syncthreads
// (chaque thread change de fibre à chaque barrière), sur N éléments, blocs de 256 threads.
// Il imprime la durée de chacun (temps écoulé et temps processeur) et vérifie les résultats.
//     simt/simt-run simt/demo/banc_lancements.cu [N]        (N = 16 Mi par défaut)
// Ce sont des durées de l'émulateur sur le processeur : elles ne disent rien d'un GPU.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                    \
    do {                                                                                   \
        const cudaError_t status = (call);                                                \
        if (status != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s : %s\n", #call, cudaGetErrorString(status));         \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int kBlock = 256;

__global__ void add(const float* a, const float* b, float* c, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

/** Retourne chaque bloc et double ses valeurs, en passant par la mémoire partagée. */
__global__ void reverse_and_double(const float* in, float* out, int n) {
    __shared__ float tile[kBlock];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    const float mirrored = tile[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
    tile[threadIdx.x] = 2.0f * mirrored;
    __syncthreads();
    if (i < n) out[i] = tile[threadIdx.x];
}

namespace {

double processor_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

/** Lance @p launch, attend la fin, imprime les durées par thread. */
template <typename Launch>
void measure(const char* name, int n, Launch launch) {
    const double cpu = processor_seconds();
    const auto start = std::chrono::steady_clock::now();
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-22s %8.3f s écoulées (%6.0f ns par thread), %8.3f s de processeur\n", name, elapsed,
                elapsed * 1e9 / n, processor_seconds() - cpu);
}

}  // namespace

int main(int argc, char** argv) {
    const long requested = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1L << 24;
    if (requested < 1 || requested > (1L << 28)) {
        std::fprintf(stderr, "banc_lancements : N doit être entre 1 et 268435456\n");
        return 2;
    }
    const int n = int(requested);
    const auto count = std::size_t(n);
    const std::size_t bytes = count * sizeof(float);
    std::vector<float> a(count), b(count, 1.0f), sum(count), mirrored(count);
    for (std::size_t i = 0; i < count; ++i) a[i] = float(i % 1000);
    float *da = nullptr, *db = nullptr, *dc = nullptr, *dd = nullptr;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMalloc(&dd, bytes));
    CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
    const int blocks = (n + kBlock - 1) / kBlock;
    measure("addition", n, [&] { add<<<blocks, kBlock>>>(da, db, dc, n); });
    measure("trois __syncthreads", n, [&] { reverse_and_double<<<blocks, kBlock>>>(da, dd, n); });
    CHECK(cudaMemcpy(sum.data(), dc, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(mirrored.data(), dd, bytes, cudaMemcpyDeviceToHost));
    int errors = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t block_start = i / kBlock * kBlock;
        const std::size_t source = block_start + (kBlock - 1 - (i - block_start));
        const float expected = source < count ? 2.0f * a[source] : 0.0f;
        errors += sum[i] != a[i] + 1.0f || mirrored[i] != expected;
    }
    std::printf("banc_lancements : %d écart(s) sur %d éléments\n", errors, n);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    CHECK(cudaFree(dd));
    return errors == 0 ? 0 : 1;
}
