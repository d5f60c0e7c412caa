/**
 * @file
 * @brief Un noyau qui exige des dimensions alignées (produit matrice-vecteur par tuiles
 *        de 128 colonnes, chargements de 128 bits) et le garde-fou hôte qui refuse, avant
 *        le lancement, les formes et les adresses qu'il calculerait mal.
 *
 * Même situation que le noyau Marlin MoE de vLLM, dont l'exigence d'alignement sur 128
 * est documentée par l'issue vllm-project/vllm#38022 plutôt que par sa documentation.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace noyaux::ressources {

/** @brief Largeur d'une tuile : 32 lanes × 4 float (un float4 chacune). */
inline constexpr int kTileK = 128;
/** @brief Lignes calculées par un bloc : une par warp. */
inline constexpr int kRowsPerBlock = 8;

// --8<-- [start:noyau]
/**
 * @brief y ← W·x pour W de @p rows × @p k (lignes contiguës), une ligne par warp.
 *
 * Chaque lane lit un float4 de W et un de x par tuile de 128 colonnes, puis le warp
 * réduit ses 32 sommes partielles par shuffles. Aucun test de bornes dans la boucle :
 * le noyau suppose k multiple de 128, rows multiple de 8 et des adresses alignées sur
 * 16 octets. Avec k = 2880, il parcourt 22 tuiles (2816 colonnes) et ignore les 64
 * dernières sans erreur ni avertissement.
 *
 * @param w    matrice rows × k en mémoire globale, alignée sur 16 octets
 * @param x    vecteur de k éléments, aligné sur 16 octets
 * @param y    vecteur de rows éléments, écrit
 * @param rows nombre de lignes (multiple de kRowsPerBlock)
 * @param k    nombre de colonnes (multiple de kTileK)
 */
__global__ void gemv_tiles_128(const float* __restrict__ w, const float* __restrict__ x,
                               float* __restrict__ y, int rows, int k) {
    const int lane = threadIdx.x % 32;
    const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / 32;
    const float4* w_row = reinterpret_cast<const float4*>(w + static_cast<std::size_t>(row) * k);
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float sum = 0.0f;
    for (int tile = 0; tile < k / kTileK; ++tile) {  // division entière : la fin est perdue
        const float4 a = w_row[tile * 32 + lane];
        const float4 b = x4[tile * 32 + lane];
        sum += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0 && row < rows) y[row] = sum;
}
// --8<-- [end:noyau]

// --8<-- [start:garde]
/**
 * @brief Vérifie que gemv_tiles_128 sait calculer une matrice de @p rows × @p k.
 * @throws std::invalid_argument avec un message qui dit quelle dimension, pourquoi, et
 *         ce que le noyau aurait fait à la place.
 */
inline void check_gemv_shape(long long rows, long long k) {
    if (rows < 0 || k < 0)
        throw std::invalid_argument("dimensions négatives : N = " + std::to_string(rows) +
                                    ", K = " + std::to_string(k));
    if (k % kTileK != 0)
        throw std::invalid_argument(
            "K = " + std::to_string(k) + " n'est pas un multiple de 128 : le noyau lit des tuiles "
            "de 128 colonnes et ignorerait les " + std::to_string(k % kTileK) +
            " dernières colonnes de chaque ligne");
    if (rows % kRowsPerBlock != 0)
        throw std::invalid_argument(
            "N = " + std::to_string(rows) + " n'est pas un multiple de 8 : chaque bloc calcule "
            "8 lignes et lirait au-delà de la matrice");
    if (rows > (1LL << 24) || k > (1LL << 24))
        throw std::invalid_argument("dimensions trop grandes pour des indices 32 bits");
}

/** @brief Vérifie qu'un tableau passé au noyau est aligné sur 16 octets (float4). */
inline void check_alignment(const void* pointer, const char* name) {
    if (reinterpret_cast<std::uintptr_t>(pointer) % 16 != 0)
        throw std::invalid_argument(std::string(name) + " n'est pas aligné sur 16 octets : "
                                    "les chargements de 128 bits (float4) l'exigent");
}

/**
 * @brief Lance gemv_tiles_128 après avoir vérifié formes et adresses (asynchrone).
 * @throws std::invalid_argument avant tout lancement si le noyau calculerait faux.
 */
inline void launch_gemv(const float* w, const float* x, float* y, int rows, int k,
                        cudaStream_t stream = nullptr) {
    check_gemv_shape(rows, k);
    check_alignment(w, "W");
    check_alignment(x, "x");
    check_alignment(y, "y");
    if (rows == 0) return;  // rien à calculer, et une grille vide serait refusée
    gemv_tiles_128<<<rows / kRowsPerBlock, kRowsPerBlock * 32, 0, stream>>>(w, x, y, rows, k);
}
// --8<-- [end:garde]

/**
 * @brief Lancement brut, sans garde-fou : réservé au test qui montre ce que le noyau
 *        calcule sur une forme qu'il ne prend pas en charge. Ne pas l'utiliser ailleurs.
 */
inline void launch_gemv_unchecked(const float* w, const float* x, float* y, int rows, int k,
                                  cudaStream_t stream = nullptr) {
    gemv_tiles_128<<<(rows + kRowsPerBlock - 1) / kRowsPerBlock, kRowsPerBlock * 32, 0, stream>>>(
        w, x, y, rows, k);
}

}  // namespace noyaux::ressources
