/**
 * @file
 * @brief Étape 2 de l'échelle GEMM : les threads voisins d'un warp traitent des colonnes
 *        voisines de C, si bien que leurs lectures de B et leurs écritures de C coalescent.
 */
#pragma once

#include "gemm/common/kernel.cuh"

namespace noyaux::gemm {

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C, un thread par élément de C, threadIdx.x choisissant la colonne.
 *
 * Un warp couvre 32 colonnes consécutives d'une même ligne : à chaque tour de boucle, ses
 * 32 lectures de B sont contiguës (128 octets, une seule transaction) et sa lecture de A
 * est la même adresse pour tous (diffusée). Le calcul est identique à l'étape 1 ; seule la
 * correspondance entre threads et éléments a changé.
 */
__global__ void __launch_bounds__(32 * 32)  // les blocs 32×32 du lanceur
    sgemm_coalesced(int m, int n, int k, float alpha, const float* a, const float* b, float beta,
                    float* c) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
        c[row * n + col] = alpha * sum + beta * c[row * n + col];
    }
}
// --8<-- [end:noyau]

/** @brief L'étape 2 pour le lanceur, les tests et le benchmark communs. */
struct CoalescedKernel {
    static constexpr const char* name = "sgemm_coalesced";  ///< nom affiché
    static constexpr Shape granularity{1, 1, 1};  ///< toute forme : les bords sont gardés
    /** @brief Le noyau, pour vérifier qu\'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(sgemm_coalesced); }

    // --8<-- [start:lancement]
    /** @brief Blocs de 32×32 threads ; x parcourt les colonnes de C, y ses lignes. */
    static void launch(const GemmArgs& args, cudaStream_t stream) {
        check_shape<CoalescedKernel>(args.shape);
        const auto [m, n, k] = args.shape;
        const dim3 block(32, 32);
        const dim3 grid((n + 31) / 32, (m + 31) / 32);
        sgemm_coalesced<<<grid, block, 0, stream>>>(m, n, k, args.alpha, args.a, args.b, args.beta,
                                                    args.c);
    }
    // --8<-- [end:lancement]
};

}  // namespace noyaux::gemm
