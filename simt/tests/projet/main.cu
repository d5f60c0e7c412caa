// Lance les noyaux de noyaux.cu (surcharges, arguments par défaut) et le modèle de
// echelle.cuh (arguments de modèle déduits), puis vérifie le résultat dans verification.cpp.
#include <cstdio>
#include <cstdlib>

#include "echelle.cuh"
#include "noyaux.cuh"
#include "verification.hpp"

#define CHECK(call)                                                                          \
    do {                                                                                     \
        const cudaError_t status = (call);                                                   \
        if (status != cudaSuccess) {                                                         \
            std::fprintf(stderr, "%s : %s\n", #call, cudaGetErrorString(status));            \
            return EXIT_FAILURE;                                                             \
        }                                                                                    \
    } while (0)

int main() {
    constexpr int kCount = 1000;
    constexpr int kThreads = 128;
    constexpr int kBlocks = (kCount + kThreads - 1) / kThreads;
    int* ints = nullptr;
    float* floats = nullptr;
    CHECK(cudaMallocManaged(&ints, kCount * sizeof(int)));
    CHECK(cudaMallocManaged(&floats, kCount * sizeof(float)));

    fill<<<kBlocks, kThreads>>>(ints, kCount);    // int, valeur par défaut
    fill<<<kBlocks, kThreads>>>(floats, kCount);  // float, valeur par défaut
    CHECK(cudaGetLastError());
    scale<<<kBlocks, kThreads, kThreads * sizeof(float)>>>(floats, 4.0f, kCount);  // T = float
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    const int mismatches = count_mismatches(ints, kDefaultFill, floats, 2.0f, kCount);
    std::printf("projet en plusieurs fichiers : %d écart(s) sur %d éléments\n", mismatches, 2 * kCount);
    CHECK(cudaFree(ints));
    CHECK(cudaFree(floats));
    return mismatches == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
