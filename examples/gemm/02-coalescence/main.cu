/**
 * @file
 * @brief Programme de l'étape 2 : `coalescence --m 512 --n 512 --k 512 --alpha 1 --beta 0.5`.
 */
#include "coalescence.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau coalescent. */
int main(int argc, char** argv) {
    using noyaux::gemm::CoalescedKernel;
    return noyaux::run_program("coalescence", [&] { return noyaux::gemm::gemm_program<CoalescedKernel>(argc, argv); });
}
