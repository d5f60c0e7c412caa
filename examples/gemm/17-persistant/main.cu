/**
 * @file
 * @brief Programme de l'étape 17 : `persistant --m 1024 --n 1024 --k 1024 --alpha 1 --beta 0.5`
 *        (A et B en bf16, C en fp32), blocs persistants en ordre groupé ; refusé en français sur
 *        un GPU antérieur à Hopper. Le benchmark de l'échelle compare les trois ordres.
 */
#include "persistant.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau persistant en ordre groupé. */
int main(int argc, char** argv) {
    using noyaux::gemm::PersistentGroupedKernel;
    return noyaux::run_program("persistant",
                               [&] { return noyaux::gemm::gemm_program<PersistentGroupedKernel>(argc, argv); });
}
