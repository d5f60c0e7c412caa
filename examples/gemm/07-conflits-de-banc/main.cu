/**
 * @file
 * @brief Programme de l'étape 7 : `conflits-de-banc --m 512 --n 512 --k 512 --alpha 1 --beta 0.5`.
 */
#include "conflits-de-banc.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau sans conflit de banc. */
int main(int argc, char** argv) {
    using noyaux::gemm::BankConflictFreeKernel;
    return noyaux::run_program("conflits-de-banc", [&] {
        return noyaux::gemm::gemm_program<BankConflictFreeKernel>(argc, argv);
    });
}
