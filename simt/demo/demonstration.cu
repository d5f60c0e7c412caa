// Démonstration de simt-run : un fichier CUDA ordinaire, exécuté sur le processeur.
// Il somme 1..n de deux façons : réduction par bloc (mémoire partagée, shuffles,
// atomiques) puis grille coopérative (grid.sync() entre deux phases).
//
//   simt/simt-run simt/demo/demonstration.cu 100000
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                   \
    do {                                                                              \
        const cudaError_t status = (call);                                            \
        if (status != cudaSuccess) {                                                  \
            std::fprintf(stderr, "erreur CUDA %s : %s\n", #call, cudaGetErrorString(status)); \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)

// Somme d'un warp par shuffles : 5 étapes, sans mémoire partagée.
__device__ unsigned long long warp_sum(unsigned long long value) {
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// Chaque bloc somme sa part (boucle grid-stride), puis ajoute son total au résultat.
__global__ void block_sum(const unsigned* values, int n, unsigned long long* total) {
    __shared__ unsigned long long warp_totals[32];
    unsigned long long sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += values[i];
    sum = warp_sum(sum);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_totals[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < int(blockDim.x / 32) ? warp_totals[lane] : 0;
        sum = warp_sum(sum);
        if (lane == 0) atomicAdd(total, sum);
    }
}

// Grille coopérative : phase 1, un total par bloc ; grid.sync() ; phase 2, le bloc 0
// additionne les totaux des blocs. Sans grid.sync(), la phase 2 lirait des totaux absents.
__global__ void cooperative_sum(const unsigned* values, int n, unsigned long long* partial,
                                unsigned long long* total) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ unsigned long long block_total;
    if (block.thread_rank() == 0) block_total = 0;
    block.sync();
    unsigned long long sum = 0;
    for (unsigned long long i = grid.thread_rank(); i < unsigned(n); i += grid.size()) sum += values[i];
    atomicAdd(&block_total, sum);
    block.sync();
    if (block.thread_rank() == 0) partial[blockIdx.x] = block_total;
    grid.sync();
    if (blockIdx.x == 0 && block.thread_rank() == 0) {
        unsigned long long result = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) result += partial[b];
        *total = result;
    }
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 100000;
    if (n <= 0 || n > (1 << 26)) {
        std::fprintf(stderr, "taille invalide : %s (attendu entre 1 et 67108864)\n", argv[1]);
        return 2;
    }
    std::vector<unsigned> host(n);
    for (int i = 0; i < n; ++i) host[i] = unsigned(i + 1);
    const unsigned long long expected = 1ull * n * (n + 1) / 2;

    unsigned* values;
    unsigned long long *total, *partial;
    CHECK(cudaMalloc(&values, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&total, sizeof(unsigned long long)));
    CHECK(cudaMalloc(&partial, 64 * sizeof(unsigned long long)));
    CHECK(cudaMemcpy(values, host.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

    CHECK(cudaMemset(total, 0, sizeof(unsigned long long)));
    block_sum<<<8, 256>>>(values, n, total);
    CHECK(cudaGetLastError());
    unsigned long long by_blocks = 0;
    CHECK(cudaMemcpy(&by_blocks, total, sizeof by_blocks, cudaMemcpyDeviceToHost));

    int blocks = 4;
    void* arguments[] = {&values, const_cast<int*>(&n), &partial, &total};
    CHECK(cudaLaunchCooperativeKernel(cooperative_sum, blocks, 128, arguments));
    unsigned long long by_grid = 0;
    CHECK(cudaMemcpy(&by_grid, total, sizeof by_grid, cudaMemcpyDeviceToHost));

    std::printf("somme de 1 à %d : attendu %llu, par blocs %llu, par grille coopérative %llu\n", n,
                expected, by_blocks, by_grid);
    cudaFree(values);
    cudaFree(total);
    cudaFree(partial);
    return by_blocks == expected && by_grid == expected ? 0 : 1;
}
