/**
 * @file
 * @brief Programme de l'étape 4 : `tuilage-1d --m 512 --n 512 --k 512 --alpha 1 --beta 0.5`.
 */
#include "tuilage-1d.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau à tuilage 1D. */
int main(int argc, char** argv) {
    using noyaux::gemm::Blocktiling1dKernel;
    return noyaux::run_program("tuilage-1d", [&] {
        return noyaux::gemm::gemm_program<Blocktiling1dKernel>(argc, argv);
    });
}
