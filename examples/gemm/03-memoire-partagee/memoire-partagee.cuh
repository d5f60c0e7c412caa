/**
 * @file
 * @brief Étape 3 de l'échelle GEMM : chaque bloc copie des tuiles 32×32 de A et de B dans la
 *        mémoire partagée, où chaque valeur lue en mémoire globale sert à 32 threads.
 */
#pragma once

#include "gemm/common/kernel.cuh"

namespace noyaux::gemm {

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C par tuiles TILE×TILE mises en commun dans la mémoire partagée.
 *
 * Un bloc de TILE×TILE threads calcule une tuile de C et avance dans K par tranches de TILE.
 * À chaque tranche, chaque thread copie un élément de A et un élément de B dans la mémoire
 * partagée, puis lit TILE éléments de chacune des deux tuiles : une valeur chargée en mémoire
 * globale sert ainsi TILE fois au lieu d'une. Hors des matrices, les tuiles sont complétées
 * par des zéros, qui n'ajoutent rien aux sommes : toute forme est acceptée.
 */
template <int TILE>
__global__ void __launch_bounds__(TILE * TILE)
    sgemm_shared_memory(int m, int n, int k, float alpha, const float* a, const float* b, float beta,
                        float* c) {
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE];

    // Comme à l'étape 2, threadIdx.x suit les colonnes : un warp lit une ligne de chaque tuile.
    const int row = blockIdx.y * TILE + threadIdx.y;
    const int col = blockIdx.x * TILE + threadIdx.x;

    float sum = 0.0f;
    for (int tile = 0; tile < k; tile += TILE) {
        const int a_col = tile + threadIdx.x;
        const int b_row = tile + threadIdx.y;
        a_tile[threadIdx.y][threadIdx.x] = row < m && a_col < k ? a[row * k + a_col] : 0.0f;
        b_tile[threadIdx.y][threadIdx.x] = b_row < k && col < n ? b[b_row * n + col] : 0.0f;
        __syncthreads();  // les deux tuiles sont complètes avant la première lecture

        // a_tile[y][i] est la même adresse pour tout le warp (diffusée) ; b_tile[i][x]
        // parcourt 32 bancs différents : aucune lecture n'attend une autre.
        for (int i = 0; i < TILE; ++i) sum += a_tile[threadIdx.y][i] * b_tile[i][threadIdx.x];
        __syncthreads();  // plus personne ne lit les tuiles quand la tranche suivante les écrase
    }
    if (row < m && col < n) c[row * n + col] = beta == 0.0f ? alpha * sum : alpha * sum + beta * c[row * n + col];
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/** @brief L'étape 3 pour le lanceur, les tests et le benchmark communs (common/kernel.cuh). */
struct SharedMemoryKernel : GemmStep<SharedMemoryKernel> {
    static constexpr int tile = 32;  ///< côté des tuiles (un thread par élément d'une tuile de C)
    static constexpr const char* name = "sgemm_shared_memory";  ///< nom affiché
    /** @brief Tuiles 32×32 (1 024 threads, 8 Kio de mémoire partagée) ; toute forme acceptée. */
    static constexpr auto kernel = sgemm_shared_memory<tile>;
    /** @brief Un bloc par tuile de C, grille arrondie au-dessus ; x suit les colonnes. */
    static LaunchGeometry geometry(const Shape& shape) {
        const int tiles_n = (shape.n + tile - 1) / tile, tiles_m = (shape.m + tile - 1) / tile;
        return {dim3(tiles_n, tiles_m), dim3(tile, tile)};
    }
};
// --8<-- [end:lancement]

}  // namespace noyaux::gemm
