/**
 * @file
 * @brief Ce que les tests propres de l'étape 11 (tests/test_hote.cpp, compilés une fois par
 *        le compilateur de l'hôte, sans CUDA) demandent au test.cu, seul à voir le noyau :
 *        la configuration retenue vue des tests communs, ses lancements avec dimensions
 *        principales, l'ordre des blocs et les fonctions d'indice de chaque configuration
 *        balayée. Le test.cu n'y met que des instanciations, sans GoogleTest.
 */
#pragma once

#include "dimensions-principales.hpp"

#include "gemm/common/gemm.hpp"
#include "gemm/common/ladder_case.hpp"
#include "gemm/common/tile_scheduler.hpp"

#include <string>
#include <vector>

namespace noyaux::gemm {

/** @brief Un problème rangé avec ses dimensions principales : A, B et C étalés, marges comprises. */
struct StridedRun {
    Shape shape;                 ///< M, N, K
    float alpha = 1.0f;          ///< coefficient du produit
    float beta = 0.0f;           ///< coefficient de l'ancien C
    LeadingDimensions ld{};      ///< distance entre deux lignes de A, de B et de C
    int offset = 0;              ///< flottants avant le premier élément de chaque matrice
    std::vector<float> a;        ///< A étalée : offset + M × lda flottants
    std::vector<float> b;        ///< B étalée : offset + K × ldb flottants
    std::vector<float> c;        ///< C étalée : offset + M × ldc flottants
};

/** @brief Les tailles et fonctions d'indice d'une configuration (BeyondBoehmGeometry). */
struct LayoutProbe {
    std::string parameters;             ///< « BM×BN×BK, S étages », pour les messages
    int block_m = 0;                    ///< lignes de C par bloc
    int block_n = 0;                    ///< colonnes de C par bloc
    int block_k = 0;                    ///< profondeur d'une tranche
    int threads = 0;                    ///< threads par bloc
    int chunks_k = 0;                   ///< morceaux de 16 octets par ligne de A
    int (*thread_y)(int tid) = nullptr;  ///< ty du thread
    int (*thread_x)(int tid) = nullptr;  ///< tx du thread
    int (*a_index)(int row, int chunk) = nullptr;  ///< place du morceau chunk de la ligne row de A
    int (*b_index)(int row, int col) = nullptr;    ///< place de l'élément (row, col) de B
};

/** @brief L'étape 11, vue de ses tests propres. */
struct BeyondBoehmProbe {
    LadderCase<float> retained;  ///< la configuration retenue, vue des tests communs
    /** @brief Lance la configuration retenue sur @p run et rend C tel quel, marges comprises. */
    std::vector<float> (*run_strided)(const StridedRun& run) = nullptr;
    /** @brief Lance sur des pointeurs donnés, sans attendre ; lève avant tout lancement si refusé. */
    void (*launch_strided)(const GemmArgs& args, const LeadingDimensions& ld) = nullptr;
    /** @brief Vrai si le lanceur choisit les copies de 16 octets. */
    bool (*vectorizable)(const GemmArgs& args, const LeadingDimensions& ld) = nullptr;
    /** @brief La tuile du bloc @p block (block_tile). */
    schedule::Tile (*block_tile)(int block, int tiles_m, int tiles_n) = nullptr;
    int raster_group = 0;                     ///< lignes de tuiles d'un groupe (kRasterGroup)
    std::vector<LayoutProbe> swept_layouts;   ///< chaque configuration balayée
    LayoutProbe retained_layout;              ///< la configuration retenue
};

/** @brief L'étape 11 vue de ses tests : définie par test.cu. */
BeyondBoehmProbe beyond_boehm_probe();

}  // namespace noyaux::gemm
