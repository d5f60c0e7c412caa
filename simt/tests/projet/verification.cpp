// Du C++ sans syntaxe CUDA, qui inclut pourtant un en-tête CUDA (pour kDefaultFill) : nvcc
// le confie au compilateur de l'hôte, sans les en-têtes CUDA implicites ; simt-nvcc aussi.
#include "verification.hpp"

#include "noyaux.cuh"

// Une fonction de l'hôte au nom d'une intrinsèque du périphérique, comme celle de l'échantillon
// mergeSort de NVIDIA : permise dans un .cpp, que le prélude CUDA n'atteint pas.
static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }

int count_mismatches(const int* ints, int expected_int, const float* floats, float expected_float, int n) {
    int mismatches = 0;
    const int checked = int(umin(unsigned(n), 1u << 30));
    for (int i = 0; i < checked; ++i) mismatches += (ints[i] != expected_int) + (floats[i] != expected_float);
    return mismatches;
}
