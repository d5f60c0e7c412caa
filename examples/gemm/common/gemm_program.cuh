/**
 * @file
 * @brief Le programme commun aux étapes : lit M, N, K, α, β, exécute l'étape et vérifie
 *        le résultat contre la référence CPU.
 */
#pragma once

#include "gemm_reference.hpp"
#include "runner.cuh"

#include "common/cli.hpp"
#include "common/device.cuh"
#include "common/program.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace noyaux::gemm {

/** @brief Corps de main() pour l'étape @p Kernel. */
template <GemmKernel Kernel>
int gemm_program(int argc, char** argv) {
    std::int64_t m = 512, n = 512, k = 512;
    double alpha = 1.0, beta = 0.5;
    const std::string program = argv[0] ? std::string(argv[0]) : "gemm";
    using Input = input_of<Kernel>;
    cli::Parser parser(program, std::string("C ← α·A·B + β·C (A et B en ") + InputTraits<Input>::name +
                                    ", C en fp32) avec le noyau « " + Kernel::name +
                                    " », vérifié contre la référence CPU.");
    parser.add_integer("--m", &m, 1, 8192, "lignes de A et de C");
    parser.add_integer("--n", &n, 1, 8192, "colonnes de B et de C");
    parser.add_integer("--k", &k, 1, 8192, "colonnes de A, lignes de B");
    parser.add_real("--alpha", &alpha, -1e3, 1e3, "coefficient α");
    parser.add_real("--beta", &beta, -1e3, 1e3, "coefficient β");
    if (!parser.parse(argc, argv)) return kExitSuccess;

    const Shape shape{int(m), int(n), int(k)};
    try {
        check_shape<Kernel>(shape);
    } catch (const UnsupportedShapeError& error) {
        throw cli::UsageError(error.what());  // forme refusée : argument invalide (code 2)
    }
    const cudaDeviceProp device = require_device();
    require_kernel_image(Kernel::entry(), Kernel::name);
    require_architecture<Kernel>();  // une étape de Hopper sur un GPU plus ancien : refus en français

    const HostProblemOf<Input> problem = make_problem<Input>(shape, float(alpha), float(beta));
    const std::vector<float> result = run_on_device<Kernel>(problem);
    const Reference reference = reference_gemm(problem);
    std::printf("GPU : %s\nNoyau : %s, forme %s, α = %g, β = %g\n", device.name, Kernel::name,
                to_string(shape).c_str(), alpha, beta);
    if (const auto mismatch = first_mismatch(result, reference, shape)) {
        std::printf("ÉCHEC : %s\n", mismatch->c_str());
        return kExitFailure;
    }
    float largest = 0.0f;
    for (std::size_t i = 0; i < result.size(); ++i)
        largest = std::max(largest, std::fabs(result[i] - reference.c[i]));
    std::printf("Résultat conforme à la référence CPU (écart maximal %.3g).\n", double(largest));
    return kExitSuccess;
}

}  // namespace noyaux::gemm
