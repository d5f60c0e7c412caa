/**
 * @file
 * @brief Programme de l'étape 3 : `memoire-partagee --m 512 --n 512 --k 512 --alpha 1 --beta 0.5`.
 */
#include "memoire-partagee.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau à mémoire partagée. */
int main(int argc, char** argv) {
    using noyaux::gemm::SharedMemoryKernel;
    return noyaux::run_program("memoire-partagee", [&] {
        return noyaux::gemm::gemm_program<SharedMemoryKernel>(argc, argv);
    });
}
