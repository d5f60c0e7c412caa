/**
 * @file
 * @brief Programme de l'étape 13 : `mma-sync --m 1024 --n 1024 --k 1024 --alpha 1 --beta 0.5`
 *        (A et B en bf16, C en fp32).
 */
#include "mma-sync.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau mma.sync en bf16. */
int main(int argc, char** argv) {
    using noyaux::gemm::MmaSyncKernel;
    return noyaux::run_program("mma-sync", [&] { return noyaux::gemm::gemm_program<MmaSyncKernel>(argc, argv); });
}
