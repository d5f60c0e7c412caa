/**
 * @file
 * @brief Puzzles GPU : les solutions des quatorze exercices, du noyau le plus simple (un
 *        thread par élément) au produit de matrices par tuiles en mémoire partagée.
 *
 * L'idée d'apprendre CUDA par petits puzzles vient de srush/GPU-Puzzles (Python, avec
 * Numba) et de modular/mojo-gpu-puzzles (en Mojo) ; les énoncés et le code sont écrits à
 * neuf, en CUDA C++. Chaque solution a son squelette de même signature dans squelettes.cuh.
 * Les données sont des flottants à valeurs entières : toute somme est exacte, quel que soit
 * l'ordre des additions, et le harnais (harnais.cuh) compare au bit près.
 */
#pragma once

#include <cuda_runtime.h>

namespace noyaux::puzzles {

/** @brief Threads par bloc des puzzles 6 (blocs) et 7 (mémoire partagée). */
constexpr int kBlockThreads = 8;
/** @brief Threads du bloc unique du puzzle 8 (fenêtre glissante) ; n ≤ kPoolThreads. */
constexpr int kPoolThreads = 16;
/** @brief Threads du bloc unique du puzzle 9 (produit scalaire), une puissance de deux. */
constexpr int kDotThreads = 64;
/** @brief Threads par bloc du puzzle 10 (convolution 1D). */
constexpr int kConvThreads = 32;
/** @brief Largeur maximale du filtre du puzzle 10. */
constexpr int kConvMaxWidth = 8;
/** @brief Threads par bloc (et longueur d'un segment) du puzzle 11 (somme préfixe). */
constexpr int kScanThreads = 32;
/** @brief Threads par bloc du puzzle 12 (somme par ligne), une puissance de deux. */
constexpr int kAxisThreads = 32;
/** @brief Côté d'une tuile du puzzle 13 (produit de matrices) : blocs de kTile × kTile threads. */
constexpr int kTile = 16;

/** @brief Les solutions ; leurs squelettes, de mêmes noms, sont dans noyaux::puzzles::squelette. */
namespace solution {

// --8<-- [start:puzzle-01-map]
/** @brief Puzzle 1 : out[i] = a[i] + 10, lancé avec exactement n threads dans un bloc. */
__global__ void map_add_ten(float* out, const float* a, int n) {
    (void)n;  // autant de threads que d'éléments : aucun test nécessaire
    const int i = threadIdx.x;
    out[i] = a[i] + 10.0f;
}
// --8<-- [end:puzzle-01-map]

// --8<-- [start:puzzle-02-zip]
/** @brief Puzzle 2 : out[i] = a[i] + b[i], n threads dans un bloc. */
__global__ void zip_add(float* out, const float* a, const float* b, int n) {
    (void)n;
    const int i = threadIdx.x;
    out[i] = a[i] + b[i];
}
// --8<-- [end:puzzle-02-zip]

// --8<-- [start:puzzle-03-gardes]
/** @brief Puzzle 3 : out[i] = a[i] + 10, avec plus de threads que d'éléments. */
__global__ void guard_add_ten(float* out, const float* a, int n) {
    const int i = threadIdx.x;
    if (i < n) out[i] = a[i] + 10.0f;  // les threads en trop ne touchent à rien
}
// --8<-- [end:puzzle-03-gardes]

// --8<-- [start:puzzle-04-map-2d]
/** @brief Puzzle 4 : out[l][c] = a[l][c] + 10 sur une matrice size × size, bloc 2D plus grand. */
__global__ void map_2d_add_ten(float* out, const float* a, int size) {
    const int col = threadIdx.x;
    const int row = threadIdx.y;
    if (row < size && col < size) out[row * size + col] = a[row * size + col] + 10.0f;
}
// --8<-- [end:puzzle-04-map-2d]

// --8<-- [start:puzzle-05-diffusion]
/** @brief Puzzle 5 : out[l][c] = a[l] + b[c] (a colonne de rows, b ligne de cols). */
__global__ void broadcast_add(float* out, const float* a, const float* b, int rows, int cols) {
    const int col = threadIdx.x;
    const int row = threadIdx.y;
    if (row < rows && col < cols) out[row * cols + col] = a[row] + b[col];
}
// --8<-- [end:puzzle-05-diffusion]

// --8<-- [start:puzzle-06-blocs]
/** @brief Puzzle 6 : out[i] = a[i] + 10, plusieurs blocs de kBlockThreads threads. */
__global__ void blocks_add_ten(float* out, const float* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;  // indice global
    if (i < n) out[i] = a[i] + 10.0f;
}
// --8<-- [end:puzzle-06-blocs]

// --8<-- [start:puzzle-07-memoire-partagee]
/**
 * @brief Puzzle 7 : out[i] = a[i] + 10, en passant par la mémoire partagée du bloc.
 *
 * Chaque thread dépose son élément dans la tuile, le bloc se synchronise, puis chaque
 * thread relit sa case. Ici, chacun ne relit que ce qu'il a écrit ; la barrière devient
 * indispensable dès qu'un thread lit la case d'un autre (puzzles 8 à 13).
 */
__global__ void shared_add_ten(float* out, const float* a, int n) {
    __shared__ float tile[kBlockThreads];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) tile[threadIdx.x] = a[i];
    __syncthreads();  // hors de tout if : tous les threads du bloc doivent l'atteindre
    if (i < n) out[i] = tile[threadIdx.x] + 10.0f;
}
// --8<-- [end:puzzle-07-memoire-partagee]

// --8<-- [start:puzzle-08-fenetre]
/** @brief Puzzle 8 : out[i] = a[i-2] + a[i-1] + a[i] (termes d'indice négatif omis), un bloc. */
__global__ void pooling_sum3(float* out, const float* a, int n) {
    __shared__ float tile[kPoolThreads];
    const int i = threadIdx.x;
    if (i < n) tile[i] = a[i];  // une seule lecture globale par élément
    __syncthreads();
    if (i < n) {
        float sum = tile[i];
        if (i >= 1) sum += tile[i - 1];
        if (i >= 2) sum += tile[i - 2];
        out[i] = sum;
    }
}
// --8<-- [end:puzzle-08-fenetre]

// --8<-- [start:puzzle-09-produit-scalaire]
/**
 * @brief Puzzle 9 : out[0] = Σ a[i]·b[i], un bloc de kDotThreads threads, n ≤ kDotThreads.
 *
 * Réduction en arbre : à chaque tour, la moitié basse des threads ajoute la moitié haute ;
 * log2(kDotThreads) tours, une barrière entre deux tours.
 */
__global__ void dot_product(float* out, const float* a, const float* b, int n) {
    __shared__ float partial[kDotThreads];
    const int i = threadIdx.x;
    partial[i] = i < n ? a[i] * b[i] : 0.0f;  // zéro neutre pour les threads sans élément
    __syncthreads();
    for (int half = kDotThreads / 2; half > 0; half /= 2) {
        if (i < half) partial[i] += partial[i + half];
        __syncthreads();
    }
    if (i == 0) out[0] = partial[0];
}
// --8<-- [end:puzzle-09-produit-scalaire]

// --8<-- [start:puzzle-10-convolution-1d]
/**
 * @brief Puzzle 10 : out[i] = Σ_{j<width} a[i+j]·w[j] (a vaut 0 au-delà de n), plusieurs blocs.
 *
 * Le bloc charge ses kConvThreads éléments plus un halo de width − 1 éléments à droite,
 * et le filtre : chaque élément de a est lu une fois par bloc au lieu de width fois.
 */
__global__ void convolution_1d(float* out, const float* a, const float* w, int n, int width) {
    __shared__ float tile[kConvThreads + kConvMaxWidth - 1];
    __shared__ float filter[kConvMaxWidth];
    const int local = threadIdx.x;
    const int i = blockIdx.x * kConvThreads + local;
    tile[local] = i < n ? a[i] : 0.0f;
    if (local < width - 1) {  // le halo : les premiers threads chargent la suite
        const int j = i + kConvThreads;
        tile[kConvThreads + local] = j < n ? a[j] : 0.0f;
    }
    if (local < width) filter[local] = w[local];
    __syncthreads();
    if (i < n) {
        float sum = 0.0f;
        for (int j = 0; j < width; ++j) sum += tile[local + j] * filter[j];
        out[i] = sum;
    }
}
// --8<-- [end:puzzle-10-convolution-1d]

// --8<-- [start:puzzle-11-somme-prefixe]
/**
 * @brief Puzzle 11 : somme préfixe inclusive de chaque segment de kScanThreads éléments.
 *
 * Schéma de Hillis et Steele : au tour d, chaque élément ajoute celui situé d cases plus à
 * gauche, d doublant à chaque tour. Lire puis écrire dans la même tuile exige deux barrières
 * par tour : l'une avant d'écrire (tout le monde a lu), l'autre avant le tour suivant.
 */
__global__ void block_prefix_sum(float* out, const float* a, int n) {
    __shared__ float tile[kScanThreads];
    const int local = threadIdx.x;
    const int i = blockIdx.x * kScanThreads + local;
    tile[local] = i < n ? a[i] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < kScanThreads; offset *= 2) {
        const float left = local >= offset ? tile[local - offset] : 0.0f;
        __syncthreads();
        tile[local] += left;
        __syncthreads();
    }
    if (i < n) out[i] = tile[local];
}
// --8<-- [end:puzzle-11-somme-prefixe]

// --8<-- [start:puzzle-12-somme-par-ligne]
/**
 * @brief Puzzle 12 : out[l] = Σ_c a[l][c], un bloc de kAxisThreads threads par ligne.
 *
 * La ligne peut être plus longue que le bloc : chaque thread accumule d'abord les colonnes
 * c ≡ threadIdx.x (mod kAxisThreads), puis le bloc réduit ses kAxisThreads sommes en arbre.
 */
__global__ void axis_sum(float* out, const float* a, int rows, int cols) {
    __shared__ float partial[kAxisThreads];
    const int row = blockIdx.x;
    const int local = threadIdx.x;
    float sum = 0.0f;
    if (row < rows)
        for (int col = local; col < cols; col += kAxisThreads) sum += a[row * cols + col];
    partial[local] = sum;
    __syncthreads();
    for (int half = kAxisThreads / 2; half > 0; half /= 2) {
        if (local < half) partial[local] += partial[local + half];
        __syncthreads();
    }
    if (local == 0 && row < rows) out[row] = partial[0];
}
// --8<-- [end:puzzle-12-somme-par-ligne]

// --8<-- [start:puzzle-13-produit-matrices]
/**
 * @brief Puzzle 13 : c = a·b pour des matrices carrées n × n, par tuiles de kTile × kTile.
 *
 * Chaque bloc calcule une tuile de c. Il parcourt la dimension commune tuile par tuile :
 * il copie une tuile de a et une de b en mémoire partagée (zéro hors de la matrice), puis
 * chaque thread accumule kTile produits. Chaque élément lu en mémoire globale sert kTile fois.
 */
__global__ void matrix_multiply(float* c, const float* a, const float* b, int n) {
    __shared__ float a_tile[kTile][kTile];
    __shared__ float b_tile[kTile][kTile];
    const int row = blockIdx.y * kTile + threadIdx.y;
    const int col = blockIdx.x * kTile + threadIdx.x;
    float sum = 0.0f;
    for (int k0 = 0; k0 < n; k0 += kTile) {
        const int a_col = k0 + threadIdx.x;
        const int b_row = k0 + threadIdx.y;
        a_tile[threadIdx.y][threadIdx.x] = row < n && a_col < n ? a[row * n + a_col] : 0.0f;
        b_tile[threadIdx.y][threadIdx.x] = b_row < n && col < n ? b[b_row * n + col] : 0.0f;
        __syncthreads();  // les tuiles sont complètes
        for (int k = 0; k < kTile; ++k) sum += a_tile[threadIdx.y][k] * b_tile[k][threadIdx.x];
        __syncthreads();  // personne ne lit plus les tuiles : on peut les écraser
    }
    if (row < n && col < n) c[row * n + col] = sum;
}
// --8<-- [end:puzzle-13-produit-matrices]

// --8<-- [start:puzzle-14-reduction-warp]
/**
 * @brief Puzzle 14 : out[0] += Σ a[i], par des échanges entre lanes d'un warp (shuffles).
 *
 * Chaque thread somme ses éléments par une boucle grid-stride ; chaque warp réduit ses
 * 32 sommes sans mémoire partagée ni barrière, par __shfl_down_sync (5 tours : 16, 8, 4,
 * 2, 1) ; la lane 0 de chaque warp ajoute le total du warp par une atomique. La grille
 * est faite de blocs dont la taille est un multiple de 32 ; out[0] vaut 0 avant le lancement.
 */
__global__ void warp_sum(float* out, const float* a, int n) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += a[i];
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(out, sum);
}
// --8<-- [end:puzzle-14-reduction-warp]

}  // namespace solution
}  // namespace noyaux::puzzles
