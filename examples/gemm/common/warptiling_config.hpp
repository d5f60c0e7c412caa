/**
 * @file
 * @brief Paramètres du tuilage par warp, communs aux étapes 9 et 10 de l'échelle GEMM.
 */
#pragma once

namespace noyaux::gemm {

/** @brief Paramètres de tuilage des étapes 9 et 10 (ceux que Simon Boehm a retenus pour l'A6000). */
struct WarptilingConfig {
    static constexpr int block_m = 128;  ///< lignes de C par bloc
    static constexpr int block_n = 128;  ///< colonnes de C par bloc
    static constexpr int block_k = 16;   ///< profondeur d'une tuile de A et de B
    static constexpr int warp_m = 64;    ///< lignes de C par warp
    static constexpr int warp_n = 64;    ///< colonnes de C par warp
    static constexpr int warp_n_iterations = 4;  ///< sous-tuiles d'un warp dans la largeur
    static constexpr int thread_m = 8;   ///< lignes de C par thread et par sous-tuile
    static constexpr int thread_n = 4;   ///< colonnes de C par thread et par sous-tuile
    static constexpr int threads = 128;  ///< threads par bloc (4 warps)
};

}  // namespace noyaux::gemm
