/**
 * @file
 * @brief Transposition d'une matrice de flottants (lignes × colonnes, rangée par lignes) :
 *        un noyau naïf, puis deux noyaux qui passent par une tuile 32×32 en mémoire
 *        partagée, sans et avec une colonne de décalage contre les conflits de banc.
 *
 * Technique tirée du billet de Mark Harris, « An Efficient Matrix Transpose in CUDA C/C++ »
 * (NVIDIA Technical Blog, 2013) : tuiles de 32×32, blocs de 32×8 threads.
 */
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::ressources {

// --8<-- [start:constantes]
/** @brief Côté d'une tuile : 32 éléments, autant que de threads dans un warp et de bancs. */
constexpr int kTileDim = 32;
/** @brief Lignes de threads par bloc : un bloc de 32×8 threads traite une tuile en 4 passes. */
constexpr int kBlockRows = 8;
/** @brief Colonnes ajoutées à chaque ligne de la tuile décalée : 32×33 au lieu de 32×32. */
constexpr int kPadding = 1;
// --8<-- [end:constantes]

/** @brief Nombre maximal de lignes : gridDim.y ne dépasse pas 65 535 blocs de 32 lignes. */
constexpr int kMaxRows = 65535 * kTileDim;

// --8<-- [start:naif]
/**
 * @brief out ← inᵀ, directement de la mémoire globale à la mémoire globale.
 *
 * Un bloc de 32×8 threads traite une tuile de 32×32 éléments. Les threads d'un warp lisent
 * 32 éléments voisins d'une ligne de @p in (lecture coalescée), mais écrivent 32 éléments
 * d'une même colonne de @p out, séparés de @p rows flottants : chaque écriture d'un warp
 * touche 32 secteurs de mémoire différents.
 *
 * @param in   matrice lue, @p rows × @p cols, rangée par lignes
 * @param out  matrice écrite, @p cols × @p rows, rangée par lignes
 * @param rows lignes de @p in
 * @param cols colonnes de @p in
 */
__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
    const int col = blockIdx.x * kTileDim + threadIdx.x;
    const int row = blockIdx.y * kTileDim + threadIdx.y;
    if (col >= cols) return;  // aucun __syncthreads ici : sortir tôt est permis
    for (int j = 0; j < kTileDim; j += kBlockRows) {
        if (row + j < rows)
            out[static_cast<std::size_t>(col) * rows + row + j] =
                in[static_cast<std::size_t>(row + j) * cols + col];
    }
}
// --8<-- [end:naif]

// --8<-- [start:partagee]
/**
 * @brief out ← inᵀ en passant par une tuile 32×32 de la mémoire partagée.
 *
 * Le bloc lit sa tuile ligne par ligne (lectures coalescées) et la range telle quelle ;
 * après la barrière, il relit la tuile colonne par colonne et écrit des lignes entières de
 * @p out (écritures coalescées). La transposition a lieu dans la mémoire partagée, où un
 * accès dispersé ne coûte que des conflits de banc.
 *
 * @tparam Padding colonnes ajoutées à chaque ligne de la tuile : 0 (32 bancs en conflit à
 *                 chaque lecture de colonne) ou 1 (les 32 lectures tombent dans 32 bancs)
 * @param in   matrice lue, @p rows × @p cols, rangée par lignes
 * @param out  matrice écrite, @p cols × @p rows, rangée par lignes
 * @param rows lignes de @p in
 * @param cols colonnes de @p in
 */
template <int Padding>
__global__ void transpose_shared(const float* __restrict__ in, float* __restrict__ out, int rows,
                                 int cols) {
    __shared__ float tile[kTileDim][kTileDim + Padding];

    // Lecture : threadIdx.x suit les colonnes de in, un warp lit 32 flottants contigus.
    int col = blockIdx.x * kTileDim + threadIdx.x;
    int row = blockIdx.y * kTileDim + threadIdx.y;
    for (int j = 0; j < kTileDim; j += kBlockRows) {
        if (col < cols && row + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[static_cast<std::size_t>(row + j) * cols + col];
    }
    __syncthreads();  // toute la tuile est écrite avant qu'un thread n'en lise une colonne

    // Écriture : les rôles des blocs s'échangent ; threadIdx.x suit maintenant les colonnes
    // de out (les lignes de in) et un warp écrit 32 flottants contigus.
    col = blockIdx.y * kTileDim + threadIdx.x;
    row = blockIdx.x * kTileDim + threadIdx.y;
    for (int j = 0; j < kTileDim; j += kBlockRows) {
        if (col < rows && row + j < cols)
            out[static_cast<std::size_t>(row + j) * rows + col] = tile[threadIdx.x][threadIdx.y + j];
    }
}
// --8<-- [end:partagee]

/** @brief Les trois noyaux de l'exemple. */
enum class TransposeKernel {
    naive,         ///< transpose_naive : lectures coalescées, écritures dispersées
    shared,        ///< transpose_shared<0> : tuile 32×32, conflits de banc en lecture
    shared_padded  ///< transpose_shared<kPadding> : tuile 32×33, sans conflit de banc
};

/** @brief Les trois noyaux, dans l'ordre de la page. */
inline constexpr std::array<TransposeKernel, 3> kAllKernels{
    TransposeKernel::naive, TransposeKernel::shared, TransposeKernel::shared_padded};

/** @brief Nom d'un noyau sur la ligne de commande : « naif », « partagee », « partagee-decalee ». */
inline const char* kernel_name(TransposeKernel kernel) {
    switch (kernel) {
    case TransposeKernel::naive: return "naif";
    case TransposeKernel::shared: return "partagee";
    case TransposeKernel::shared_padded: return "partagee-decalee";
    }
    return "?";
}

/** @brief Point d'entrée d'un noyau, pour vérifier qu'il a du code pour le GPU présent. */
inline const void* kernel_entry(TransposeKernel kernel) {
    switch (kernel) {
    case TransposeKernel::naive: return reinterpret_cast<const void*>(transpose_naive);
    case TransposeKernel::shared: return reinterpret_cast<const void*>(transpose_shared<0>);
    case TransposeKernel::shared_padded: return reinterpret_cast<const void*>(transpose_shared<kPadding>);
    }
    return nullptr;
}

// --8<-- [start:lancement]
/**
 * @brief Grille d'une transposition : un bloc de 32×8 threads par tuile de 32×32 ;
 *        x parcourt les colonnes de la matrice lue, y ses lignes.
 */
inline dim3 transpose_grid(int rows, int cols) {
    return dim3(static_cast<unsigned>((cols + kTileDim - 1) / kTileDim),
                static_cast<unsigned>((rows + kTileDim - 1) / kTileDim));
}

/**
 * @brief Lance la transposition @p kernel de @p in (@p rows × @p cols) vers @p out
 *        (@p cols × @p rows) sur @p stream ; asynchrone, l'appelant synchronise.
 *
 * Une matrice vide (0 ligne ou 0 colonne) est acceptée : sa transposée est vide, rien
 * n'est lancé et @p out n'est pas touchée.
 *
 * @throws std::invalid_argument si une dimension est négative ou si @p rows dépasse
 *         kMaxRows, avant tout lancement.
 */
inline void launch_transpose(TransposeKernel kernel, const float* in, float* out, int rows,
                             int cols, cudaStream_t stream = nullptr) {
    if (rows < 0 || cols < 0)
        throw std::invalid_argument("dimensions négatives : " + std::to_string(rows) + " × " +
                                    std::to_string(cols));
    if (rows > kMaxRows)
        throw std::invalid_argument("au plus " + std::to_string(kMaxRows) +
                                    " lignes (65 535 blocs de 32 lignes), demandé : " +
                                    std::to_string(rows));
    if (rows == 0 || cols == 0) return;  // une grille vide serait une erreur de configuration
    const dim3 grid = transpose_grid(rows, cols);
    const dim3 block(kTileDim, kBlockRows);
    switch (kernel) {
    case TransposeKernel::naive:
        transpose_naive<<<grid, block, 0, stream>>>(in, out, rows, cols);
        break;
    case TransposeKernel::shared:
        transpose_shared<0><<<grid, block, 0, stream>>>(in, out, rows, cols);
        break;
    case TransposeKernel::shared_padded:
        transpose_shared<kPadding><<<grid, block, 0, stream>>>(in, out, rows, cols);
        break;
    }
}
// --8<-- [end:lancement]

/**
 * @brief Référence CPU : la transposée de @p in (@p rows × @p cols, rangée par lignes),
 *        soit une matrice @p cols × @p rows rangée par lignes.
 * @throws std::invalid_argument si @p in ne compte pas @p rows × @p cols éléments.
 */
inline std::vector<float> transpose_reference(std::span<const float> in, std::size_t rows,
                                              std::size_t cols) {
    if (in.size() != rows * cols)
        throw std::invalid_argument("transpose_reference : taille incohérente");
    std::vector<float> out(in.size());
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
    return out;
}

}  // namespace noyaux::ressources
