/**
 * @file
 * @brief Programme de l'étape 20 : `tcgen05 --m 1024 --n 1024 --k 1024 --alpha 1 --beta 0.5`
 *        (A et B en bf16, C en fp32). Il ne s'exécute que sur un GPU sm_100 ; le projet n'en a
 *        pas, il n'a donc jamais tourné. Sur un autre GPU, il refuse en nommant l'architecture.
 */
#include "tcgen05.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau tcgen05 en bf16. */
int main(int argc, char** argv) {
    using noyaux::gemm::Tcgen05Kernel;
    return noyaux::run_program("tcgen05", [&] { return noyaux::gemm::gemm_program<Tcgen05Kernel>(argc, argv); });
}
