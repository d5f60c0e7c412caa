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

#include <span>
#include <vector>

namespace noyaux::gemm {

/** @brief Lance @p Kernel sur @p problem et renvoie C calculé par le GPU. */
template <GemmKernel Kernel>
std::vector<float> run_on_device(const HostProblem& problem) {
    DeviceBuffer<float> a{std::span<const float>(problem.a)};
    DeviceBuffer<float> b{std::span<const float>(problem.b)};
    DeviceBuffer<float> c{std::span<const float>(problem.c)};
    Kernel::launch({problem.shape, problem.alpha, a.data(), b.data(), problem.beta, c.data()}, nullptr);
    NOYAUX_CHECK_LAUNCH();
    return c.download();
}

}  // namespace noyaux::gemm
