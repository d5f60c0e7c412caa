/**
 * @file
 * @brief Programme de l'étape 6 : `vectorisation --m 512 --n 512 --k 512 --alpha 1 --beta 0.5`.
 */
#include "vectorisation.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau vectorisé. */
int main(int argc, char** argv) {
    using noyaux::gemm::VectorizedKernel;
    return noyaux::run_program("vectorisation", [&] {
        return noyaux::gemm::gemm_program<VectorizedKernel>(argc, argv);
    });
}
