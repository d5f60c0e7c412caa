// Petit projet en plusieurs fichiers, construit comme le ferait un lecteur : par simt-run
// (toutes les sources d'un coup) et par un Makefile qui appelle $(NVCC) (simt-nvcc).
// Les noyaux surchargés sont définis dans noyaux.cu et lancés depuis main.cu ; leurs
// arguments par défaut ne figurent que dans cette déclaration.
#pragma once

#include <cuda_runtime.h>

/// Valeur écrite par fill quand l'appel ne la donne pas.
constexpr int kDefaultFill = 3;

/// Écrit @p value dans les @p n premiers éléments de @p out.
__global__ void fill(int* out, int n, int value = kDefaultFill);
/// Même chose en flottants : une surcharge, lancée sous le même nom.
__global__ void fill(float* out, int n, float value = 0.5f);

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
