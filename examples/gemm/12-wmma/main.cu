/**
 * @file
 * @brief Programme de l'étape 12 : `wmma --m 1024 --n 1024 --k 1024 --alpha 1 --beta 0.5`
 *        (A et B en bf16, C en fp32).
 */
#include "wmma.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau WMMA en bf16. */
int main(int argc, char** argv) {
    using noyaux::gemm::WmmaKernel;
    return noyaux::run_program("wmma", [&] { return noyaux::gemm::gemm_program<WmmaKernel>(argc, argv); });
}
