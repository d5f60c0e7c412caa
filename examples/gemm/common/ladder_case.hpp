/**
 * @file
 * @brief Ce que les tests communs de l'échelle savent d'une étape, sans la connaître : son
 *        nom, sa granularité, l'alignement qu'elle exige, et des fonctions pour l'exécuter.
 *
 * Les tests communs (ladder_tests.cpp) sont compilés une seule fois, par le compilateur de
 * l'hôte, et servent à toutes les étapes et aux deux backends (GPU et émulateur) : ce fichier
 * n'inclut ni CUDA ni GoogleTest. Le test.cu d'une étape ne compile que son lanceur et
 * l'inscrit (ladder_registration.cuh).
 */
#pragma once

#include "element.hpp"
#include "gemm.hpp"
#include "gemm_reference.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace noyaux::gemm {

/**
 * @brief Une étape de l'échelle, vue des tests communs.
 * @tparam Input type des éléments de A et de B (float ou bf16)
 */
template <typename Input>
struct LadderCase {
    std::string test_name;    ///< nom du paramètre GoogleTest (lettres, chiffres, _)
    std::string kernel_name;  ///< nom du noyau, pour les messages
    Shape granularity;        ///< M, N et K doivent en être des multiples
    std::size_t alignment = sizeof(Input);  ///< alignement exigé de A, B et C, en octets
    bool wide_indices = false;              ///< lignes indexées en 64 bits : M·N sans borne d'int
    /**
     * @brief Pourquoi l'étape ne peut pas s'exécuter sur le GPU présent (architecture trop
     *        ancienne) ; vide si elle le peut. Ses tests sont alors ignorés (GTEST_SKIP).
     */
    std::string (*unavailable)() = nullptr;
    /** @brief Exécute l'étape sur le GPU (ou l'émulateur) et rend C ; lève UnsupportedShapeError. */
    std::vector<float> (*run)(const HostProblemOf<Input>&) = nullptr;
    /** @brief Lance sur des pointeurs donnés, sans attendre ; lève avant tout lancement si refusé. */
    void (*launch)(const GemmArgsOf<Input>&) = nullptr;
    /** @brief Vrai si aucune erreur de lancement n'est en attente (cudaGetLastError). */
    bool (*nothing_launched)() = nullptr;
    /** @brief Le même problème par cuBLAS ; nul sur l'émulateur, qui n'a pas cuBLAS. */
    std::vector<float> (*run_cublas)(const HostProblemOf<Input>&) = nullptr;
    /** @brief Formes de plus, au-delà des quelques tuiles des tests communs, où le résultat doit être exact. */
    std::vector<Shape> exact_shapes;
    /** @brief Formes de plus que l'étape doit refuser (UnsupportedShapeError) avant tout lancement. */
    std::vector<Shape> rejected_shapes;
};

/**
 * @brief Un fait qu'une étape calcule dans son test.cu, sans GoogleTest (degré de conflit de
 *        banc d'un accès, …), et que les tests communs vérifient : value doit égaler expected.
 */
struct StepFact {
    std::string step;        ///< l'étape, comme dans les noms GoogleTest (lettres, chiffres, _)
    std::string what;        ///< ce qui est compté, pour le message
    long long value = 0;     ///< ce qu'a calculé le test.cu
    long long expected = 0;  ///< ce qui est attendu
};

/** @brief Inscrit un fait : les tests communs le vérifieront (appelé à l'initialisation statique). */
void register_step_fact(StepFact fact);

/** @brief Les faits inscrits dans ce programme de test. */
const std::vector<StepFact>& step_facts();

/** @brief Inscrit une étape : les tests communs l'exécuteront (appelé à l'initialisation statique). */
template <typename Input>
void register_ladder_case(LadderCase<Input> ladder_case);

/** @brief Les étapes inscrites dans ce programme de test. */
template <typename Input>
const std::vector<LadderCase<Input>>& ladder_cases();

/**
 * @brief Exécute et compare à la référence ; ou vérifie le refus si la forme est hors de la
 *        granularité de l'étape (assertions GoogleTest).
 */
template <typename Input>
void expect_correct_or_rejected(const LadderCase<Input>& kernel, Shape shape, float alpha, float beta,
                                Values values);

/**
 * @brief Exécute à la forme @p shape, entiers de -2 à 2, α = 1, β = 0, et exige le résultat
 *        de la référence bit à bit (tout produit partiel est exact en fp32 tant que 4·K < 2²⁴).
 */
template <typename Input>
void expect_exact_at(const LadderCase<Input>& kernel, const Shape& shape);

}  // namespace noyaux::gemm
