/**
 * @file
 * @brief Exécute une étape de l'échelle sur un problème hôte : allocation, copies,
 *        lancement vérifié, rapatriement de C. Partagé par tous les programmes et tests.
 */
#pragma once

#include "kernel.cuh"
#include "gemm_reference.hpp"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace noyaux::gemm {

/** @brief Lance @p Kernel sur @p problem et renvoie C calculé par le GPU. */
template <GemmKernel Kernel>
std::vector<float> run_on_device(const HostProblemOf<input_of<Kernel>>& problem) {
    using Input = input_of<Kernel>;
    DeviceBuffer<Input> a{std::span<const Input>(problem.a)};
    DeviceBuffer<Input> b{std::span<const Input>(problem.b)};
    DeviceBuffer<float> c{std::span<const float>(problem.c)};
    Kernel::launch(GemmArgsOf<Input>{problem.shape, problem.alpha, a.data(), b.data(), problem.beta, c.data()},
                   nullptr);
    NOYAUX_CHECK_LAUNCH();
    return c.download();
}

/**
 * @brief Lance @p Kernel sur @p shape (entrées en petits entiers, donc résultat exact, avec
 *        @p alpha et @p beta) et renvoie le premier écart à la référence CPU ; vide si C est juste.
 */
template <GemmKernel Kernel>
std::optional<std::string> mismatch_on_small_integers(const Shape& shape, float alpha, float beta) {
    const HostProblemOf<input_of<Kernel>> problem =
        make_problem<input_of<Kernel>>(shape, alpha, beta, Values::small_integers);
    return first_mismatch(run_on_device<Kernel>(problem), reference_gemm(problem), shape);
}

}  // namespace noyaux::gemm
