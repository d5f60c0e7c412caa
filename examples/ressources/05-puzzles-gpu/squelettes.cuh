/**
 * @file
 * @brief Puzzles GPU : les squelettes à compléter, un par exercice, de mêmes signatures que
 *        les solutions de puzzles-gpu.cuh.
 *
 * Chaque corps se compile et rend la main sans rien écrire : le programme signale alors
 * « pas encore résolu ». Pour s'exercer, remplacez la ligne « À vous » et l'appel à
 * unused() par votre code, puis lancez « puzzles-gpu --puzzle N --squelette »
 * (ou « puzzles-gpu-cpu … » sans GPU).
 */
#pragma once

#include "puzzles-gpu.cuh"

namespace noyaux::puzzles {

/** @brief Les squelettes, à compléter ; mêmes noms et signatures que dans solution. */
namespace squelette {

/** @brief Ne fait rien : évite l'avertissement « paramètre inutilisé » tant que le corps est vide. */
template <typename... Args>
__host__ __device__ constexpr void unused(const Args&...) {}

// --8<-- [start:puzzle-01-map]
/** @brief Puzzle 1 : out[i] = a[i] + 10, lancé avec exactement n threads dans un bloc. */
__global__ void map_add_ten(float* out, const float* a, int n) {
    // À vous : une ligne suffit ; threadIdx.x est l'indice de l'élément.
    unused(out, a, n);
}
// --8<-- [end:puzzle-01-map]

// --8<-- [start:puzzle-02-zip]
/** @brief Puzzle 2 : out[i] = a[i] + b[i], n threads dans un bloc. */
__global__ void zip_add(float* out, const float* a, const float* b, int n) {
    // À vous : comme le puzzle 1, avec deux entrées.
    unused(out, a, b, n);
}
// --8<-- [end:puzzle-02-zip]

// --8<-- [start:puzzle-03-gardes]
/** @brief Puzzle 3 : out[i] = a[i] + 10, avec plus de threads que d'éléments. */
__global__ void guard_add_ten(float* out, const float* a, int n) {
    // À vous : les threads d'indice ≥ n ne doivent ni lire ni écrire.
    unused(out, a, n);
}
// --8<-- [end:puzzle-03-gardes]

// --8<-- [start:puzzle-04-map-2d]
/** @brief Puzzle 4 : out[l][c] = a[l][c] + 10 sur une matrice size × size, bloc 2D plus grand. */
__global__ void map_2d_add_ten(float* out, const float* a, int size) {
    // À vous : ligne = threadIdx.y, colonne = threadIdx.x, matrice rangée ligne par ligne.
    unused(out, a, size);
}
// --8<-- [end:puzzle-04-map-2d]

// --8<-- [start:puzzle-05-diffusion]
/** @brief Puzzle 5 : out[l][c] = a[l] + b[c] (a colonne de rows, b ligne de cols). */
__global__ void broadcast_add(float* out, const float* a, const float* b, int rows, int cols) {
    // À vous : un thread par case de out ; a est indexé par la ligne, b par la colonne.
    unused(out, a, b, rows, cols);
}
// --8<-- [end:puzzle-05-diffusion]

// --8<-- [start:puzzle-06-blocs]
/** @brief Puzzle 6 : out[i] = a[i] + 10, plusieurs blocs de kBlockThreads threads. */
__global__ void blocks_add_ten(float* out, const float* a, int n) {
    // À vous : l'indice global combine blockIdx.x, blockDim.x et threadIdx.x.
    unused(out, a, n);
}
// --8<-- [end:puzzle-06-blocs]

// --8<-- [start:puzzle-07-memoire-partagee]
/** @brief Puzzle 7 : out[i] = a[i] + 10, en passant par une tuile en mémoire partagée. */
__global__ void shared_add_ten(float* out, const float* a, int n) {
    // À vous : __shared__ float tile[kBlockThreads]; copier, __syncthreads(), relire.
    unused(out, a, n);
}
// --8<-- [end:puzzle-07-memoire-partagee]

// --8<-- [start:puzzle-08-fenetre]
/** @brief Puzzle 8 : out[i] = a[i-2] + a[i-1] + a[i] (termes d'indice négatif omis), un bloc. */
__global__ void pooling_sum3(float* out, const float* a, int n) {
    // À vous : une lecture globale par élément, puis trois lectures en mémoire partagée.
    unused(out, a, n);
}
// --8<-- [end:puzzle-08-fenetre]

// --8<-- [start:puzzle-09-produit-scalaire]
/** @brief Puzzle 9 : out[0] = Σ a[i]·b[i], un bloc de kDotThreads threads, n ≤ kDotThreads. */
__global__ void dot_product(float* out, const float* a, const float* b, int n) {
    // À vous : produits en mémoire partagée, puis réduction en arbre, barrière à chaque tour.
    unused(out, a, b, n);
}
// --8<-- [end:puzzle-09-produit-scalaire]

// --8<-- [start:puzzle-10-convolution-1d]
/** @brief Puzzle 10 : out[i] = Σ_{j<width} a[i+j]·w[j] (a vaut 0 au-delà de n), plusieurs blocs. */
__global__ void convolution_1d(float* out, const float* a, const float* w, int n, int width) {
    // À vous : tuile de kConvThreads + kConvMaxWidth − 1 éléments (halo compris) et filtre partagé.
    unused(out, a, w, n, width);
}
// --8<-- [end:puzzle-10-convolution-1d]

// --8<-- [start:puzzle-11-somme-prefixe]
/** @brief Puzzle 11 : somme préfixe inclusive de chaque segment de kScanThreads éléments. */
__global__ void block_prefix_sum(float* out, const float* a, int n) {
    // À vous : log2(kScanThreads) tours ; attention à lire avant que le voisin n'écrive.
    unused(out, a, n);
}
// --8<-- [end:puzzle-11-somme-prefixe]

// --8<-- [start:puzzle-12-somme-par-ligne]
/** @brief Puzzle 12 : out[l] = Σ_c a[l][c], un bloc de kAxisThreads threads par ligne. */
__global__ void axis_sum(float* out, const float* a, int rows, int cols) {
    // À vous : la ligne est blockIdx.x ; elle peut compter plus de colonnes que de threads.
    unused(out, a, rows, cols);
}
// --8<-- [end:puzzle-12-somme-par-ligne]

// --8<-- [start:puzzle-13-produit-matrices]
/** @brief Puzzle 13 : c = a·b pour des matrices carrées n × n, par tuiles de kTile × kTile. */
__global__ void matrix_multiply(float* c, const float* a, const float* b, int n) {
    // À vous : deux tuiles partagées, une boucle sur la dimension commune, deux barrières par tour.
    unused(c, a, b, n);
}
// --8<-- [end:puzzle-13-produit-matrices]

// --8<-- [start:puzzle-14-reduction-warp]
/** @brief Puzzle 14 : out[0] += Σ a[i], par des shuffles entre lanes d'un warp et une atomique. */
__global__ void warp_sum(float* out, const float* a, int n) {
    // À vous : boucle grid-stride, __shfl_down_sync sur 16, 8, 4, 2, 1, puis atomicAdd par warp.
    unused(out, a, n);
}
// --8<-- [end:puzzle-14-reduction-warp]

}  // namespace squelette
}  // namespace noyaux::puzzles
