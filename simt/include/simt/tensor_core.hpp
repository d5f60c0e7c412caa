/**
 * @file
 * @brief La règle de sommation des Tensor Cores émulés, la même pour wmma::mma_sync,
 *        mma.sync et wgmma.mma_async : la somme exacte de C et des produits, arrondie une
 *        seule fois au plus proche (égalités vers le pair) en fp32.
 *
 * Le matériel n'est pas spécifié sur ce point. Le PTX ISA (sections « mma » et
 * « wgmma.mma_async », paragraphe « Precision and rounding ») exige des produits et une
 * accumulation « with at least single precision », puis ajoute : « The accumulation order,
 * rounding and handling of subnormal inputs are unspecified. » Mesuré, le matériel aligne
 * les produits sur le plus grand et en tronque les bits bas (Fasi, Higham, Mikaitis,
 * Pranesh, « Numerical behavior of NVIDIA tensor cores », PeerJ Computer Science 7:e330,
 * 2021) : un détail non documenté, qui change d'une génération à l'autre, que simt ne copie
 * pas. Il prend la seule règle qui ne dépend ni de l'ordre des termes ni d'un format
 * intermédiaire : le résultat exact, arrondi une fois. Quand toutes les sommes partielles
 * sont représentables en fp32 (petits entiers), elle donne ce que donne le GPU ; sinon, le
 * dernier bit peut différer.
 */
#pragma once

#include <cstddef>

namespace simt {

/**
 * @brief c + Σ products[i], calculé exactement, arrondi une fois au plus proche en fp32.
 *
 * Chaque produit est passé en double : le produit de deux fp32 (donc de deux f16, bf16 ou
 * tf32) y est exact. Un terme infini ou NaN donne ce que donnent les additions IEEE (un NaN,
 * ou l'infini). Une somme exactement nulle de termes non tous nuls vaut +0.
 */
float tensor_core_accumulate(float c, const double* products, std::size_t count);

}  // namespace simt
