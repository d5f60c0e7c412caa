/**
 * @file
 * @brief Dimensions principales de l'étape 11 (distance entre deux lignes de A, de B et de C),
 *        sans CUDA : le lanceur (au-dela-de-boehm.cuh) les reçoit, les tests propres de
 *        l'étape, compilés par le compilateur de l'hôte (tests/test_hote.cpp), les choisissent.
 */
#pragma once

#include <cstdint>

namespace noyaux::gemm {

/** @brief Dimensions principales de A, B et C (distance entre deux lignes, en flottants). */
struct LeadingDimensions {
    std::int64_t lda;  ///< au moins K
    std::int64_t ldb;  ///< au moins N
    std::int64_t ldc;  ///< au moins N
};

}  // namespace noyaux::gemm
