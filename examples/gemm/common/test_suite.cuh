/**
 * @file
 * @brief Ce dont a besoin le test.cu d'une étape qui ajoute ses propres tests GoogleTest à la
 *        suite commune (ladder_tests.cpp) : l'inscription, les faits de bancs, les
 *        vérifications communes appliquées à un noyau, et l'absence de conflits de banc.
 *
 * Une étape sans test GoogleTest propre n'inclut que ladder_registration.cuh (ou
 * bank_facts.cuh) : son test.cu ne compile alors pas GoogleTest.
 */
#pragma once

#include "bank_facts.cuh"

#include <gtest/gtest.h>

#include <string>

namespace noyaux::gemm {

/** @brief expect_correct_or_rejected (ladder_tests.cpp) pour le noyau @p Kernel. */
template <GemmKernel Kernel>
void expect_correct_or_rejected(Shape shape, float alpha, float beta, Values values) {
    expect_correct_or_rejected(make_ladder_case<Kernel>(Kernel::name), shape, alpha, beta, values);
}

/** @brief expect_exact_at (ladder_tests.cpp) pour le noyau @p Kernel. */
template <GemmKernel Kernel>
void expect_exact_at(const Shape& shape) {
    expect_exact_at(make_ladder_case<Kernel>(Kernel::name), shape);
}

/**
 * @brief Aucun des accès de la liste (bank_model::AccessList, pris aux fonctions d'indice du noyau)
 *        n'est en conflit de banc sous le modèle de l'étape 7 ; @p what nomme l'étape. Pour une
 *        étape qui a déjà ses tests GoogleTest ; les autres inscrivent ce fait
 *        (register_conflict_free, bank_facts.cuh).
 */
template <typename... Accesses>
void expect_conflict_free(const std::string& what, bank_model::AccessList<Accesses...>) {
    (
        [&] {
            int (*volatile degree_of)() = &bank_model::worst_degree<Accesses>;  // voir register_bank_degree
            const int degree = degree_of();
            EXPECT_EQ(degree, 1) << what << " : " << Accesses::name << " en conflit de banc de degré "
                                 << degree << " sous le modèle de l'étape 7 (1 : aucun conflit)";
        }(),
        ...);
}

}  // namespace noyaux::gemm
