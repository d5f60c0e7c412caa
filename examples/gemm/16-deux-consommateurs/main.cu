/**
 * @file
 * @brief Programme de l'étape 16 : `deux-consommateurs --m 1024 --n 1024 --k 1024 --alpha 1
 *        --beta 0.5` (A et B en bf16, C en fp32) ; refusé en français sur un GPU antérieur à Hopper.
 */
#include "deux-consommateurs.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau à deux consommateurs. */
int main(int argc, char** argv) {
    using noyaux::gemm::TwoConsumersKernel;
    return noyaux::run_program("deux-consommateurs",
                               [&] { return noyaux::gemm::gemm_program<TwoConsumersKernel>(argc, argv); });
}
