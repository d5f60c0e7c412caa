/**
 * @file
 * @brief Le problème commun à toute l'échelle GEMM : C ← α·A·B + β·C en fp32, matrices
 *        en ligne (row-major) ; A est M×K, B est K×N, C est M×N.
 */
#pragma once

#include <stdexcept>
#include <string>

namespace noyaux::gemm {

/** @brief Dimensions d'un produit C(M×N) ← α·A(M×K)·B(K×N) + β·C. */
struct Shape {
    int m = 0;  ///< lignes de A et de C
    int n = 0;  ///< colonnes de B et de C
    int k = 0;  ///< colonnes de A, lignes de B
};

/** @brief Arguments d'un lancement : pointeurs en mémoire globale du GPU. */
struct GemmArgs {
    Shape shape;               ///< M, N, K
    float alpha = 1.0f;        ///< coefficient du produit
    const float* a = nullptr;  ///< M×K, en ligne
    const float* b = nullptr;  ///< K×N, en ligne
    float beta = 0.0f;         ///< coefficient de l'ancien C
    float* c = nullptr;        ///< M×N, en ligne, lu (si β ≠ 0) puis écrit
};

/** @brief Forme refusée par un noyau, avant tout lancement. */
class UnsupportedShapeError : public std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

/** @brief Texte « M×N×K » d'une forme, pour les messages. */
inline std::string to_string(const Shape& shape) {
    return std::to_string(shape.m) + "×" + std::to_string(shape.n) + "×" + std::to_string(shape.k);
}

/** @brief Refuse une forme dont une dimension est négative ou nulle. */
inline void require_positive(const Shape& shape) {
    if (shape.m <= 0 || shape.n <= 0 || shape.k <= 0)
        throw UnsupportedShapeError("forme " + to_string(shape) +
                                    " : M, N et K doivent être strictement positifs");
}

/**
 * @brief Refuse une forme dont les dimensions ne sont pas des multiples de la tuile.
 * @param shape forme demandée
 * @param tile_m M doit en être un multiple
 * @param tile_n N doit en être un multiple
 * @param tile_k K doit en être un multiple
 * @param kernel nom du noyau, pour le message
 */
inline void require_multiples(const Shape& shape, int tile_m, int tile_n, int tile_k,
                              const char* kernel) {
    require_positive(shape);
    if (shape.m % tile_m != 0 || shape.n % tile_n != 0 || shape.k % tile_k != 0)
        throw UnsupportedShapeError(std::string(kernel) + " : forme " + to_string(shape) +
                                    " refusée ; M, N et K doivent être des multiples de " +
                                    std::to_string(tile_m) + ", " + std::to_string(tile_n) +
                                    " et " + std::to_string(tile_k));
}

}  // namespace noyaux::gemm
