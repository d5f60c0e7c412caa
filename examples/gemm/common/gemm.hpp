/**
 * @file
 * @brief Le problème commun à toute l'échelle GEMM : C ← α·A·B + β·C, matrices en ligne
 *        (row-major) ; A est M×K, B est K×N, C est M×N. A et B sont en fp32 (étapes 1 à 11)
 *        ou en bf16 (Tensor Cores) ; C, α, β et l'accumulation sont toujours en fp32.
 */
#pragma once

#include "element.hpp"

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace noyaux::gemm {

/** @brief Dimensions d'un produit C(M×N) ← α·A(M×K)·B(K×N) + β·C. */
struct Shape {
    int m = 0;  ///< lignes de A et de C
    int n = 0;  ///< colonnes de B et de C
    int k = 0;  ///< colonnes de A, lignes de B
};

/**
 * @brief Arguments d'un lancement : pointeurs en mémoire globale du GPU.
 * @tparam Input type des éléments de A et de B (float ou bf16)
 */
template <typename Input>
struct GemmArgsOf {
    Shape shape;               ///< M, N, K
    float alpha = 1.0f;        ///< coefficient du produit
    const Input* a = nullptr;  ///< M×K, en ligne
    const Input* b = nullptr;  ///< K×N, en ligne
    float beta = 0.0f;         ///< coefficient de l'ancien C
    float* c = nullptr;        ///< M×N, en ligne, lu (si β ≠ 0) puis écrit
};

/** @brief Les arguments des étapes fp32 (1 à 11). */
using GemmArgs = GemmArgsOf<float>;

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

/**
 * @brief Refuse une forme dont une matrice a plus d'éléments qu'un int n'en indexe : les
 *        noyaux de l'échelle calculent leurs indices en 32 bits (ligne × largeur + colonne).
 * @param shape forme demandée (dimensions positives)
 * @param kernel nom du noyau, pour le message
 */
inline void require_32bit_indices(const Shape& shape, const char* kernel) {
    const std::int64_t m = shape.m, n = shape.n, k = shape.k;
    const struct {
        const char* name;
        std::int64_t elements;
    } matrices[] = {{"A (M·K)", m * k}, {"B (K·N)", k * n}, {"C (M·N)", m * n}};
    for (const auto& matrix : matrices)
        if (matrix.elements > INT_MAX)
            throw UnsupportedShapeError(std::string(kernel) + " : forme " + to_string(shape) +
                                        " refusée ; " + matrix.name + " compte " +
                                        std::to_string(matrix.elements) + " éléments, ce qui dépasse " +
                                        std::to_string(INT_MAX) + ", la limite de ses indices de 32 bits");
}

}  // namespace noyaux::gemm
