/**
 * @file
 * @brief Programme de l'étape 9 : `tuilage-warp --m 512 --n 512 --k 512 --alpha 1 --beta 0.5`.
 */
#include "tuilage-warp.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le tuilage par warp. */
int main(int argc, char** argv) {
    using noyaux::gemm::WarptilingKernel;
    return noyaux::run_program("tuilage-warp", [&] { return noyaux::gemm::gemm_program<WarptilingKernel>(argc, argv); });
}
