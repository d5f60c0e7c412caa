/**
 * @file
 * @brief Programme de l'étape 1 : `naif --m 512 --n 512 --k 512 --alpha 1 --beta 0.5`.
 */
#include "naif.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau naïf. */
int main(int argc, char** argv) {
    using noyaux::gemm::NaiveKernel;
    return noyaux::run_program("naif", [&] { return noyaux::gemm::gemm_program<NaiveKernel>(argc, argv); });
}
