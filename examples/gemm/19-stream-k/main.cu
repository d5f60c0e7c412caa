/**
 * @file
 * @brief Programme de l'étape 19 : `stream-k --m 1024 --n 1024 --k 1024 --alpha 1 --beta 0.5`
 *        (A et B en bf16, C en fp32), Stream-K sur blocs persistants ; refusé en français sur
 *        un GPU antérieur à Hopper.
 */
#include "stream-k.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec le noyau Stream-K. */
int main(int argc, char** argv) {
    using noyaux::gemm::StreamKKernel;
    return noyaux::run_program("stream-k",
                               [&] { return noyaux::gemm::gemm_program<StreamKKernel>(argc, argv); });
}
