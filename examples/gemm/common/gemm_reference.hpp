/**
 * @file
 * @brief Référence CPU de la GEMM, tolérance de comparaison et comparaison qui ne laisse
 *        passer ni NaN ni infini ; pour les deux types d'entrée (fp32 et bf16).
 */
#pragma once

#include "element.hpp"
#include "gemm.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace noyaux::gemm {

/**
 * @brief Matrices hôtes d'un problème, en ligne.
 * @tparam Input type des éléments de A et de B (float ou bf16) ; C est toujours en fp32
 */
template <typename Input>
struct HostProblemOf {
    Shape shape;           ///< M, N, K
    float alpha = 1.0f;    ///< coefficient du produit
    float beta = 0.0f;     ///< coefficient de l'ancien C
    std::vector<Input> a;  ///< M×K
    std::vector<Input> b;  ///< K×N
    std::vector<float> c;  ///< M×N, valeur initiale
};

/** @brief Un problème des étapes fp32. */
using HostProblem = HostProblemOf<float>;

/** @brief Valeurs des matrices d'un problème. */
enum class Values {
    uniform,         ///< réels uniformes dans [-1, 1] (arrondis au bf16 le plus proche en bf16)
    small_integers,  ///< entiers de -2 à 2 : exacts en bf16, et toute somme de produits l'est en fp32 (|somme| < 2²⁴)
};

/**
 * @brief Problème reproductible (graine fixe) aux valeurs @p values.
 * @tparam Input type des éléments de A et de B : float (par défaut) ou bf16
 */
template <typename Input = float>
HostProblemOf<Input> make_problem(Shape shape, float alpha, float beta, Values values = Values::uniform,
                                  unsigned seed = 2026);

/** @brief Résultat de référence et écart admis, élément par élément. */
struct Reference {
    std::vector<float> c;      ///< α·A·B + β·C calculé en double, arrondi en float
    std::vector<float> bound;  ///< écart absolu admis pour chaque élément
};

/**
 * @brief Calcule la référence, à partir des valeurs exactes de A et de B (en bf16, celles que
 *        le GPU reçoit : l'arrondi des entrées au bf16 ne fait pas partie de l'erreur du noyau).
 *
 * L'écart admis vient de l'analyse d'erreur du produit scalaire accumulé en fp32 :
 * |erreur| ≤ (K+2)·u·(|α|·Σᵢ|aᵢ·bᵢ| + |β·c|), quel que soit l'ordre des additions, avec u
 * l'arrondi unitaire de l'accumulation (InputTraits) ; on garde une marge de 2.
 * - fp32 : u = 2⁻²⁴ ; chaque produit et chaque addition arrondit au plus proche (FFMA).
 * - bf16 : chaque produit aᵢ·bᵢ est exact en fp32 (8 + 8 bits significatifs ≤ 24) ; seules
 *   les additions se trompent, par troncature (u = 2⁻²³). Un Tensor Core additionne un bloc de
 *   n produits d'un coup, alignés sur le plus grand exposant : le bloc perd moins de (n+1)
 *   unités du dernier rang, soit (n+1)·u fois la somme des |termes|. Sur K/n blocs, l'erreur
 *   reste sous (K + K/n)·u·Σᵢ|aᵢ·bᵢ| ≤ 2·(K+2)·u·Σᵢ|aᵢ·bᵢ| : la marge de 2 la couvre.
 * - L'arrondi des entrées au bf16 (u = 2⁻⁸), lui, donnerait jusqu'à 2·2⁻⁸·Σᵢ|aᵢ·bᵢ| d'écart
 *   avec un produit des float d'origine : c'est pourquoi la référence part des bf16.
 */
template <typename Input>
Reference reference_gemm(const HostProblemOf<Input>& problem);

/** @brief Premier élément hors de son écart admis, NaN ou infini ; vide si tout est juste. */
std::optional<std::string> first_mismatch(const std::vector<float>& result,
                                          const Reference& reference, Shape shape);

}  // namespace noyaux::gemm
