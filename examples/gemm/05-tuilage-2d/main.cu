/**
 * @file
 * @brief Programme de l'étape 5 : `tuilage-2d --m 512 --n 512 --k 512 --alpha 1 --beta 0.5`.
 */
#include "tuilage-2d.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau à tuilage 2D. */
int main(int argc, char** argv) {
    using noyaux::gemm::Blocktiling2dKernel;
    return noyaux::run_program("tuilage-2d", [&] {
        return noyaux::gemm::gemm_program<Blocktiling2dKernel>(argc, argv);
    });
}
