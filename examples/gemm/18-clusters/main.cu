/**
 * @file
 * @brief Programme de l'étape 18 : `clusters --m 1024 --n 1024 --k 1024 --alpha 1 --beta 0.5`
 *        (A et B en bf16, C en fp32) ; refusé en français sur un GPU antérieur à Hopper.
 */
#include "clusters.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau en clusters. */
int main(int argc, char** argv) {
    using noyaux::gemm::ClusterKernel;
    return noyaux::run_program("clusters", [&] { return noyaux::gemm::gemm_program<ClusterKernel>(argc, argv); });
}
