/**
 * @file
 * @brief Référence CPU de la GEMM, tolérance de comparaison et comparaison qui ne laisse
 *        passer ni NaN ni infini.
 */
#pragma once

#include "gemm.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace noyaux::gemm {

/** @brief Matrices hôtes d'un problème, en ligne. */
struct HostProblem {
    Shape shape;           ///< M, N, K
    float alpha = 1.0f;    ///< coefficient du produit
    float beta = 0.0f;     ///< coefficient de l'ancien C
    std::vector<float> a;  ///< M×K
    std::vector<float> b;  ///< K×N
    std::vector<float> c;  ///< M×N, valeur initiale
};

/** @brief Valeurs des matrices d'un problème. */
enum class Values {
    uniform,         ///< réels uniformes dans [-1, 1]
    small_integers,  ///< entiers de -2 à 2 : tout calcul fp32 est exact (|somme| < 2²⁴)
};

/** @brief Problème reproductible (graine fixe) aux valeurs @p values. */
HostProblem make_problem(Shape shape, float alpha, float beta, Values values = Values::uniform,
                         unsigned seed = 2026);

/** @brief Résultat de référence et écart admis, élément par élément. */
struct Reference {
    std::vector<float> c;      ///< α·A·B + β·C calculé en double, arrondi en float
    std::vector<float> bound;  ///< écart absolu admis pour chaque élément
};

/**
 * @brief Calcule la référence. L'écart admis vient de l'analyse d'erreur du produit
 *        scalaire en fp32 : |erreur| ≤ (K+2)·u·(|α|·Σᵢ|aᵢ·bᵢ| + |β·c|) avec u = 2⁻²⁴,
 *        quel que soit l'ordre des additions ; on garde une marge de 2.
 */
Reference reference_gemm(const HostProblem& problem);

/** @brief Premier élément hors de son écart admis, NaN ou infini ; vide si tout est juste. */
std::optional<std::string> first_mismatch(const std::vector<float>& result,
                                          const Reference& reference, Shape shape);

}  // namespace noyaux::gemm
