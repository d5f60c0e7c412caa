/**
 * @file
 * @brief Inscrit les étapes d'un test.cu auprès des tests communs (ladder_tests.cpp) : le
 *        test.cu n'apporte que ce qui dépend du noyau (ses lanceurs), sans GoogleTest.
 *
 *     namespace noyaux::gemm {
 *     const LadderTests<Blocktiling2dKernel> tests{"Tuilage2d"};
 *     }
 */
#pragma once

#include "kernel.cuh"
#include "ladder_case.hpp"
#include "runner.cuh"

#ifndef SIMT_EMULATOR
#include "cublas_gemm.cuh"
#endif

#include <string>
#include <utility>
#include <vector>

namespace noyaux::gemm {

/** @brief L'étape @p Kernel vue des tests communs, sous le nom GoogleTest @p test_name. */
template <GemmKernel Kernel>
LadderCase<input_of<Kernel>> make_ladder_case(std::string test_name) {
    using Input = input_of<Kernel>;
    LadderCase<Input> ladder_case;
    ladder_case.test_name = std::move(test_name);
    ladder_case.kernel_name = Kernel::name;
    ladder_case.granularity = Kernel::granularity;
    ladder_case.alignment = Kernel::alignment;
    if constexpr (requires { Kernel::wide_indices; }) ladder_case.wide_indices = Kernel::wide_indices;
    ladder_case.unavailable = [] { return unavailable_reason<Kernel>(); };
    ladder_case.run = [](const HostProblemOf<Input>& problem) { return run_on_device<Kernel>(problem); };
    ladder_case.launch = [](const GemmArgsOf<Input>& args) { Kernel::launch(args, nullptr); };
    ladder_case.nothing_launched = [] { return cudaGetLastError() == cudaSuccess; };
#ifndef SIMT_EMULATOR
    ladder_case.run_cublas = [](const HostProblemOf<Input>& problem) { return run_cublas(problem); };
#endif
    return ladder_case;
}

/**
 * @brief Les formes qu'une étape ajoute aux tests communs, là où son pipeline ou sa forme le
 *        demandent : un K assez profond pour que chaque étage serve plusieurs fois, un
 *        cluster incomplet…
 */
struct ExtraShapes {
    std::vector<Shape> exact = {};     ///< le résultat doit y être exact (entiers petits, α = 1, β = 0)
    std::vector<Shape> rejected = {};  ///< l'étape doit les refuser avant tout lancement
};

/**
 * @brief Inscrit les étapes @p Kernels (une, ou chaque configuration d'un balayage) : les
 *        tests communs les exécuteront sous les noms « préfixe » ou « préfixe_0 », « préfixe_1 »…
 */
template <GemmKernel... Kernels>
struct LadderTests {
    /** @brief Inscrit, à l'initialisation statique du programme de test, avec les formes @p extra. */
    explicit LadderTests(const std::string& prefix, const ExtraShapes& extra = {}) {
        int index = 0;
        const auto name = [&] {
            return sizeof...(Kernels) == 1 ? prefix : prefix + "_" + std::to_string(index++);
        };
        const auto add = [&](auto ladder_case) {
            ladder_case.exact_shapes = extra.exact;
            ladder_case.rejected_shapes = extra.rejected;
            register_ladder_case(std::move(ladder_case));
        };
        (add(make_ladder_case<Kernels>(name())), ...);
    }
};

/**
 * @brief L'inscription des étapes qui lisent ou écrivent A, B ou C par float4 (étapes 6 à 10) :
 *        comme LadderTests, et chacune doit exiger l'alignement d'un float4, vérifié à la
 *        compilation. Sans cette exigence, son lanceur accepterait un pointeur décalé d'un
 *        élément, et la suite commune ne le verrait pas : MisalignedPointersAreRejectedBeforeLaunch
 *        saute les étapes qui n'exigent que l'alignement d'un élément.
 */
template <GemmKernel... Kernels>
struct Float4LadderTests : LadderTests<Kernels...> {
    static_assert(((Kernels::alignment == alignof(float4)) && ...),
                  "une étape qui accède à A, B ou C par float4 doit exiger 16 octets d'alignement "
                  "(alignment, troisième argument de TiledStep)");
    using LadderTests<Kernels...>::LadderTests;
};

/** @brief Inscrit, à l'initialisation statique, les faits (register_step_fact) que calcule @p compute. */
struct StepFacts {
    /** @brief Appelle @p compute. */
    explicit StepFacts(void (*compute)()) { compute(); }
};

}  // namespace noyaux::gemm
