/**
 * @file
 * @brief Ce que chaque étape de l'échelle GEMM fournit au lanceur, aux tests et au benchmark
 *        communs : un nom, une granularité de forme, une vérification et un lancement.
 */
#pragma once

#include "gemm.hpp"

#include <cuda_runtime.h>

#include <concepts>

namespace noyaux::gemm {

/**
 * @brief Une étape de l'échelle :
 * - `name` : nom affiché ;
 * - `granularity` : M, N et K doivent en être des multiples ({1, 1, 1} : toute forme) ;
 * - `entry()` : le noyau, pour vérifier qu'il a du code pour le GPU présent ;
 * - `launch(args, stream)` : vérifie la forme (UnsupportedShapeError) puis lance, sans attendre.
 */
template <typename Kernel>
concept GemmKernel = requires(const GemmArgs& args, cudaStream_t stream) {
    { Kernel::name } -> std::convertible_to<const char*>;
    { Kernel::granularity } -> std::convertible_to<Shape>;
    { Kernel::entry() } -> std::convertible_to<const void*>;
    Kernel::launch(args, stream);
};

/** @brief Vrai si @p shape respecte la granularité du noyau. */
template <GemmKernel Kernel>
bool accepts(const Shape& shape) {
    constexpr Shape g = Kernel::granularity;
    return shape.m > 0 && shape.n > 0 && shape.k > 0 && shape.m % g.m == 0 && shape.n % g.n == 0 &&
           shape.k % g.k == 0;
}

/** @brief Refuse, avec un message en français, une forme que le noyau ne traite pas. */
template <GemmKernel Kernel>
void check_shape(const Shape& shape) {
    constexpr Shape g = Kernel::granularity;
    require_multiples(shape, g.m, g.n, g.k, Kernel::name);
}

}  // namespace noyaux::gemm
