/**
 * @file
 * @brief Tests GPU de l'étape 20 : la suite commune de l'échelle, en bf16, contre la référence
 *        CPU et cuBLAS, sur un GPU sm_100 seulement. Sur tout autre GPU, le binaire s'arrête
 *        avant le premier test avec le code « ignoré » : le noyau n'y a que son piège. Le projet
 *        n'ayant pas de GPU Blackwell, ces tests n'ont jamais été exécutés jusqu'au bout.
 */
#include "tcgen05.cuh"

#include "gemm/common/ladder_registration.cuh"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

namespace noyaux::gemm {
namespace {

/** @brief Avant tous les tests : sans code sm_100a retenu pour ce GPU, tout est ignoré (77). */
class RequiresTcgen05 : public testing::Environment {
public:
    void SetUp() override {
        try {
            require_kernel_architecture(Tcgen05Kernel::kernel, Tcgen05Kernel::name, 100, "tcgen05");
        } catch (const UnsupportedArchitectureError& error) {
            std::printf("IGNORÉ : %s\n", error.what());
            std::fflush(stdout);
            std::exit(NOYAUX_SKIP_RETURN_CODE);
        }
    }
};

[[maybe_unused]] testing::Environment* const requires_tcgen05 = testing::AddGlobalTestEnvironment(new RequiresTcgen05);

}  // namespace

// --8<-- [start:garanties]
// La suite commune de l'échelle (common/ladder_tests.cpp), en bf16, appliquée à Tcgen05Kernel.
const LadderTests<Tcgen05Kernel> ladder_tests{"Tcgen05"};
// --8<-- [end:garanties]
}  // namespace noyaux::gemm
