// Écrit un élément au-delà d'une allocation cudaMalloc. Construit seulement avec le preset
// sanitize : AddressSanitizer doit arrêter le programme en nommant l'accès fautif.
#include <cstdio>

__global__ void write_one_past_the_end(float* values, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) values[i] = 1.0f;  // faute volontaire : « <= » au lieu de « < »
}

int main() {
    constexpr int n = 100;
    float* values = nullptr;
    cudaMalloc(&values, n * sizeof(float));
    write_one_past_the_end<<<1, 128>>>(values, n);
    cudaDeviceSynchronize();
    cudaFree(values);
    std::puts("aucune écriture hors limites détectée");
    return 0;
}
