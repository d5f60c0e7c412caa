/**
 * @file
 * @brief Logique hôte de l'étape 20 (Blackwell, sm_100a) : les tailles, la place de chaque copie
 *        de 16 octets dans les tuiles de A et de B en mémoire partagée, et les descripteurs qui
 *        décrivent ces tuiles aux Tensor Cores. Sans appel CUDA : testée par le compilateur de
 *        l'hôte (tests/test_hote.cpp), le noyau ne pouvant être exécuté nulle part dans le projet.
 */
#pragma once

#include "common/host_device.hpp"
#include "common/tensor_core_layout.hpp"
#include "common/umma_descriptors.hpp"

#include <cstdint>

namespace noyaux::gemm {

// --8<-- [start:parametres]
/** @brief Les tailles de l'étape 20. */
struct Tcgen05Config {
    static constexpr int block_m = 128;  ///< lignes de C par CTA : une par lane de mémoire tensorielle
    static constexpr int block_n = 128;  ///< colonnes de C par CTA : une colonne de mémoire tensorielle chacune
    static constexpr int block_k = 64;   ///< profondeur d'une tranche de A et de B
    static constexpr int mma_k = 16;     ///< profondeur d'un tcgen05.mma kind::f16
    static constexpr int stages = 4;     ///< tranches en vol dans la mémoire partagée
    static constexpr int threads = 128;  ///< quatre warps : tous copient, chacun relit son quart des lanes
    /** @brief Colonnes de mémoire tensorielle allouées : l'accumulateur 128 × 128 en f32. */
    static constexpr std::uint32_t tmem_columns = block_n;
    static constexpr std::uint32_t a_bytes = block_m * block_k * 2;  ///< une tranche de A en bf16
    static constexpr std::uint32_t b_bytes = block_k * block_n * 2;  ///< une tranche de B en bf16
    /** @brief Mémoire partagée dynamique : les étages de A et de B, 128 Kio. */
    static constexpr std::uint32_t shared_bytes = stages * (a_bytes + b_bytes);
    static constexpr int chunks = block_m * block_k / 8;  ///< copies de 16 octets par tranche de A (et de B)
};
static_assert(Tcgen05Config::block_m * Tcgen05Config::block_k == Tcgen05Config::block_k * Tcgen05Config::block_n,
              "A et B ont autant de copies par tranche : une même boucle les fait");
static_assert(Tcgen05Config::chunks % Tcgen05Config::threads == 0, "chaque thread fait autant de copies");
static_assert(umma::valid_tmem_columns(Tcgen05Config::tmem_columns), "une allocation de mémoire tensorielle valide");
// --8<-- [end:parametres]

// --8<-- [start:disposition]
/**
 * @brief Disposition des tranches en mémoire partagée, sans permutation : la copie q de 16
 *        octets va à l'octet 16·q de sa tranche, et c'est le choix de l'élément qu'elle copie
 *        qui réalise la disposition des matrices élémentaires (8 lignes × 16 octets).
 *
 * A (128 × 64, rangée par lignes en mémoire globale) est « K-major » : la matrice élémentaire
 * voisine le long de K suit (LBO = 128 octets), le groupe de 8 lignes suivant est 8 matrices
 * plus loin (SBO = 1024). B (64 × 128, rangée par lignes) est « MN-major » : ses lignes de 16
 * octets suivent N ; la voisine le long de N suit (SBO = 128), le groupe de 8 valeurs de K
 * suivant est 16 matrices plus loin (LBO = 2048).
 */
struct Tcgen05Layout {
    using C = Tcgen05Config;  ///< les tailles de l'étape
    static constexpr std::uint32_t a_lbo = 128;                 ///< A : voisine le long de K
    static constexpr std::uint32_t a_sbo = C::block_k / 8 * 128;  ///< A : groupe de 8 lignes suivant
    static constexpr std::uint32_t b_lbo = C::block_n / 8 * 128;  ///< B : groupe de 8 valeurs de K suivant
    static constexpr std::uint32_t b_sbo = 128;                 ///< B : voisine le long de N

    /** @brief Ligne de A (dans la tranche) que copie la copie @p q : 8 lignes voisines par 8 copies. */
    NOYAUX_HOST_DEVICE static constexpr int a_row(int q) { return (q / 64) * 8 + q % 8; }
    /** @brief Premier élément de K (dans la tranche) que copie la copie @p q de A. */
    NOYAUX_HOST_DEVICE static constexpr int a_k(int q) { return (q / 8) % 8 * 8; }
    /** @brief Ligne de B (valeur de K dans la tranche) que copie la copie @p q. */
    NOYAUX_HOST_DEVICE static constexpr int b_k(int q) { return (q / 128) * 8 + q % 8; }
    /** @brief Première colonne de B (dans la tuile) que copie la copie @p q. */
    NOYAUX_HOST_DEVICE static constexpr int b_n(int q) { return (q / 8) % 16 * 8; }

    /**
     * @brief Descripteur de la part de A que lit le tcgen05.mma n° @p step de la tranche (16
     *        valeurs de K : deux matrices élémentaires le long de K), la tranche étant à @p base.
     */
    NOYAUX_HOST_DEVICE static constexpr std::uint64_t a_descriptor(std::uint32_t base, int step) {
        return umma::encode_smem_descriptor(base + std::uint32_t(step) * (C::mma_k / 8) * a_lbo, a_lbo, a_sbo);
    }
    /** @brief Descripteur de la part de B que lit le tcgen05.mma n° @p step de la tranche. */
    NOYAUX_HOST_DEVICE static constexpr std::uint64_t b_descriptor(std::uint32_t base, int step) {
        return umma::encode_smem_descriptor(base + std::uint32_t(step) * (C::mma_k / 8) * b_lbo, b_lbo, b_sbo);
    }
    /** @brief Descripteur d'instruction : 128 × 128 × 16, bf16 → f32, A « K-major », B « MN-major ». */
    static constexpr std::uint32_t instruction =
        umma::encode_instruction_descriptor(C::block_m, C::block_n, umma::Major::k, umma::Major::mn);
};
// --8<-- [end:disposition]

}  // namespace noyaux::gemm
