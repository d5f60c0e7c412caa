/**
 * @file
 * @brief Faits de bancs d'une étape, calculés dans son test.cu sans GoogleTest et inscrits
 *        pour les tests communs (register_step_fact, ladder_tests.cpp) : le pire degré de
 *        conflit de chaque accès à la mémoire partagée, sous le modèle de l'étape 7.
 *
 *     const StepFacts facts{[] { register_conflict_free("TuilageWarp", "sgemm_warptiling",
 *                                                       WarptilingKernel::SharedAccesses{}); }};
 */
#pragma once

#include "ladder_registration.cuh"
#include "shared_accesses.cuh"

#include <string>

namespace noyaux::gemm {

/** @brief Inscrit le pire degré de conflit de banc de l'accès @p Access, attendu égal à @p expected. */
template <typename Access>
void register_bank_degree(const std::string& step, const std::string& what, int expected) {
    // Appel par un pointeur volatile : sinon g++ (directement, ou derrière nvcc) tente de
    // replier l'appel en constante, ce qui coûte bien plus que le calcul (test.cu de l'étape 9
    // sur l'émulateur : 6,8 s de compilation au lieu de 1,8 s).
    int (*volatile degree_of)() = &bank_model::worst_degree<Access>;
    register_step_fact({step, what + " : " + Access::name + ", degré de conflit de banc (1 : aucun conflit)",
                        degree_of(), expected});
}

/** @brief Inscrit chacun des accès de la liste (pris aux fonctions d'indice du noyau) comme sans conflit. */
template <typename... Accesses>
void register_conflict_free(const std::string& step, const std::string& what, bank_model::AccessList<Accesses...>) {
    (register_bank_degree<Accesses>(step, what, 1), ...);
}

}  // namespace noyaux::gemm
