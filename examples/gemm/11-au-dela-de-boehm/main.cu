/**
 * @file
 * @brief Programme de l'étape 11 : `au-dela-de-boehm --m 1000 --n 1000 --k 1000 --alpha 1 --beta 0.5`
 *        (toute forme est acceptée).
 */
#include "au-dela-de-boehm.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec la configuration retenue de l'étape 11. */
int main(int argc, char** argv) {
    using noyaux::gemm::BeyondBoehmKernel;
    return noyaux::run_program("au-dela-de-boehm", [&] { return noyaux::gemm::gemm_program<BeyondBoehmKernel>(argc, argv); });
}
