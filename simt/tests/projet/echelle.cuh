// Noyau modèle défini dans un en-tête (inclus par les seuls fichiers .cu), lancé sans
// arguments de modèle explicites : T se déduit des arguments, comme avec nvcc.
#pragma once

/// Multiplie les @p n premiers éléments par @p factor ; T se déduit des arguments.
template <typename T>
__global__ void scale(T* data, T factor, int n) {
    extern __shared__ unsigned char staging[];  // mémoire partagée dynamique, par bloc
    T* local = reinterpret_cast<T*>(staging);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    local[threadIdx.x] = i < n ? data[i] : T();
    __syncthreads();
    if (i < n) data[i] = local[threadIdx.x] * factor;
}
