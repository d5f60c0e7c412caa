// Définitions des noyaux surchargés déclarés dans noyaux.cuh.
#include "noyaux.cuh"

__global__ void fill(int* out, int n, int value) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}

__global__ void fill(float* out, int n, float value) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}
