/**
 * @file
 * @brief Programme de l'étape 8 : `recherche-parametres --m 512 --n 512 --k 512 --alpha 1 --beta 0.5`.
 */
#include "recherche-parametres.cuh"

#include "gemm/common/gemm_program.cuh"

/** @brief Point d'entrée : le programme commun de l'échelle, avec la configuration retenue à l'étape 8. */
int main(int argc, char** argv) {
    using noyaux::gemm::TunedKernel;
    return noyaux::run_program("recherche-parametres", [&] { return noyaux::gemm::gemm_program<TunedKernel>(argc, argv); });
}
