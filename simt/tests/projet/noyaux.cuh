// Petit projet en plusieurs fichiers, construit comme le ferait un lecteur : par simt-run
// (toutes les sources d'un coup) et par un Makefile qui appelle $(NVCC) (simt-nvcc).
// Les noyaux surchargés sont définis dans noyaux.cu et lancés depuis main.cu ; leurs
// arguments par défaut ne figurent que dans cette déclaration. Sans corps de noyau, cet
// en-tête peut être inclus par un .cpp (nvcc le confie alors au compilateur de l'hôte).
#pragma once

#include <cuda_runtime.h>

/// Valeur écrite par fill quand l'appel ne la donne pas.
constexpr int kDefaultFill = 3;

/// Écrit @p value dans les @p n premiers éléments de @p out.
__global__ void fill(int* out, int n, int value = kDefaultFill);
/// Même chose en flottants : une surcharge, lancée sous le même nom.
__global__ void fill(float* out, int n, float value = 0.5f);
