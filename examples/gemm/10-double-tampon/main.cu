/**
 * @file
 * @brief Programme de l'étape 10 : `double-tampon --m 512 --n 512 --k 512 --alpha 1 --beta 0.5`.
 */
#include "double-tampon.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le double tampon. */
int main(int argc, char** argv) {
    using noyaux::gemm::DoubleBufferedKernel;
    return noyaux::run_program("double-tampon", [&] { return noyaux::gemm::gemm_program<DoubleBufferedKernel>(argc, argv); });
}
