// Du C++ sans syntaxe CUDA, qui inclut pourtant un en-tête CUDA (pour kDefaultFill) : nvcc
// le confie au compilateur de l'hôte, simt le compile avec le reste.
#include "verification.hpp"

#include "noyaux.cuh"

int count_mismatches(const int* ints, int expected_int, const float* floats, float expected_float, int n) {
    int mismatches = 0;
    for (int i = 0; i < n; ++i) mismatches += (ints[i] != expected_int) + (floats[i] != expected_float);
    return mismatches;
}
