/**
 * @file
 * @brief Étape 8 de l'échelle GEMM : un noyau de tuilage 2D vectorisé dont les tailles de
 *        tuiles sont des paramètres, pour que la recherche de paramètres puisse les balayer.
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/shared_accesses.cuh"
#include "gemm/common/vectorized.cuh"

#include <string>

namespace noyaux::gemm {

/**
 * @brief Vrai si la configuration est réalisable : tuiles multiples des sous-tuiles, accès de
 *        128 bits, chargements qui couvrent exactement les tuiles, mémoire partagée ≤ 48 Kio.
 */
template <int BM, int BN, int BK, int TM, int TN>
__host__ __device__ constexpr bool tunable_config_is_valid() {
    constexpr int threads = vectorized_threads<BM, BN, TM, TN>;
    constexpr int a_rows_per_pass = threads / (BK / 4);
    constexpr int b_rows_per_pass = threads / (BN / 4);
    constexpr int shared_bytes = 4 * (BK * BM + BK * BN);
    return BM % TM == 0 && BN % TN == 0 && TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0 &&
           BK <= 32 && BM % 32 == 0 &&
           threads >= 32 && threads <= 1024 && threads % 32 == 0 && threads >= BK / 4 &&
           threads >= BN / 4 && a_rows_per_pass <= BM && BM % a_rows_per_pass == 0 &&
           b_rows_per_pass <= BK && BK % b_rows_per_pass == 0 && shared_bytes <= 48 * 1024;
}

/**
 * @brief Disposition des tuiles en mémoire partagée d'une configuration de l'étape 8 : celle
 *        de l'étape 7 (une marge de 4 flottants) ne suffit plus dès que BK ≥ 16, quand plus de
 *        deux threads se partagent une ligne de A ; la permutation vaut pour tout BK ≤ 32.
 */
template <int BM, int BN, int BK>
using TunableLayout = SwizzledLayout<BM, BN, BK>;

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C en tuiles BM×BN×BK, chaque thread calculant TM×TN éléments.
 *
 * C'est le noyau de l'étape 6 (accès de 128 bits, A transposée en mémoire partagée, produit
 * extérieur en registres), avec une disposition des tuiles sans conflit de banc pour toute
 * configuration (TunableLayout), et dont chaque taille est un paramètre de patron : le
 * programme de balayage en instancie plusieurs.
 */
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__(vectorized_threads<BM, BN, TM, TN>)
    sgemm_tunable([[maybe_unused]] int m, int n, int k, float alpha, const float* __restrict__ a,
                  const float* __restrict__ b, float beta, float* __restrict__ c) {
    static_assert(tunable_config_is_valid<BM, BN, BK, TM, TN>(), "configuration irréalisable");
    vectorized_block_gemm<BM, BN, BK, TM, TN, TunableLayout<BM, BN, BK>>(n, k, alpha, a, b, beta, c);
}
// --8<-- [end:noyau]


/** @brief Une configuration de l'étape 8, pour le lanceur, les tests et le balayage (TiledStep). */
template <int BM, int BN, int BK, int TM, int TN>
struct TunableKernel
    : TiledStep<TunableKernel<BM, BN, BK, TM, TN>, BlockTiling<BM, BN, BK, TM, TN>, 16> {
    static constexpr const char* name = "sgemm_tunable";  ///< nom affiché
    static constexpr auto kernel = sgemm_tunable<BM, BN, BK, TM, TN>;  ///< le noyau instancié
    /** @brief Ses accès à la mémoire partagée, pour le modèle de bancs de l'étape 7. */
    using SharedAccesses = bank_model::AccessList<
        bank_model::TransposedAStore<TunableLayout<BM, BN, BK>, BM, BN, BK, vectorized_threads<BM, BN, TM, TN>>,
        bank_model::BStore<TunableLayout<BM, BN, BK>, BM, BN, BK, vectorized_threads<BM, BN, TM, TN>>,
        bank_model::SquareARead<TunableLayout<BM, BN, BK>, BN, BK, TM, TN, vectorized_threads<BM, BN, TM, TN>>,
        bank_model::SquareBRead<TunableLayout<BM, BN, BK>, BN, BK, TM, TN, vectorized_threads<BM, BN, TM, TN>>>;
    /** @brief « BM×BN×BK, TM×TN », pour les tableaux du balayage. */
    static std::string parameters() {
        return std::to_string(BM) + "×" + std::to_string(BN) + "×" + std::to_string(BK) + ", " +
               std::to_string(TM) + "×" + std::to_string(TN);
    }
};

// --8<-- [start:espace]
/** @brief Liste de configurations, parcourue à la compilation par les tests et le balayage. */
template <typename... Kernels>
struct ConfigurationList {};
/** @brief L'espace balayé : chaque configuration est instanciée, testée et mesurée. */
using SweptConfigurations = ConfigurationList<
    TunableKernel<64, 64, 16, 4, 4>, TunableKernel<64, 64, 32, 4, 4>,
    TunableKernel<64, 64, 16, 8, 4>, TunableKernel<128, 64, 16, 8, 4>,
    TunableKernel<64, 128, 16, 4, 8>, TunableKernel<128, 128, 8, 8, 8>,
    TunableKernel<128, 128, 16, 8, 8>, TunableKernel<128, 128, 32, 8, 8>>;
// --8<-- [end:espace]

/**
 * @brief La configuration de l'échelle : celle que Simon Boehm a retenue sur A6000
 *        (128×128×16, 8×8), en attendant un balayage mesuré sur nos GPU.
 */
using TunedKernel = TunableKernel<128, 128, 16, 8, 8>;

}  // namespace noyaux::gemm
