/**
 * @file
 * @brief Référence CPU de la GEMM et comparaison des résultats.
 */
#include "gemm_reference.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace noyaux::gemm {

HostProblem make_problem(Shape shape, float alpha, float beta, Values values, unsigned seed) {
    require_positive(shape);
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::uniform_int_distribution<int> integer(-2, 2);
    auto random_matrix = [&](std::size_t count) {
        std::vector<float> matrix(count);
        for (float& value : matrix)
            value = values == Values::uniform ? uniform(generator) : float(integer(generator));
        return matrix;
    };
    const auto m = std::size_t(shape.m), n = std::size_t(shape.n), k = std::size_t(shape.k);
    return {shape, alpha, beta, random_matrix(m * k), random_matrix(k * n), random_matrix(m * n)};
}

Reference reference_gemm(const HostProblem& p) {
    constexpr double unit_roundoff = 0x1p-24;
    const auto m = std::size_t(p.shape.m), n = std::size_t(p.shape.n), k = std::size_t(p.shape.k);
    Reference reference{std::vector<float>(m * n), std::vector<float>(m * n)};
    for (std::size_t row = 0; row < m; ++row) {
        for (std::size_t col = 0; col < n; ++col) {
            double sum = 0.0, magnitude = 0.0;
            for (std::size_t i = 0; i < k; ++i) {
                const double product = double(p.a[row * k + i]) * double(p.b[i * n + col]);
                sum += product;
                magnitude += std::fabs(product);
            }
            // β = 0 : C n'est pas lu (sémantique BLAS), un NaN de C non initialisé ne compte pas.
            const double old = p.beta == 0.0f ? 0.0 : p.c[row * n + col];
            reference.c[row * n + col] = float(double(p.alpha) * sum + double(p.beta) * old);
            reference.bound[row * n + col] = float(
                2.0 * (double(k) + 2.0) * unit_roundoff *
                (std::fabs(p.alpha) * magnitude + std::fabs(p.beta) * std::fabs(old)));
        }
    }
    return reference;
}

std::optional<std::string> first_mismatch(const std::vector<float>& result,
                                          const Reference& reference, Shape shape) {
    if (result.size() != reference.c.size())
        return "tailles différentes : " + std::to_string(result.size()) + " contre " +
               std::to_string(reference.c.size());
    for (std::size_t i = 0; i < result.size(); ++i) {
        // !(écart <= borne) est vrai pour NaN : un NaN ne passe jamais.
        const float error = std::fabs(result[i] - reference.c[i]);
        if (!std::isfinite(result[i]) || !(error <= reference.bound[i])) {
            const std::size_t row = i / std::size_t(shape.n), col = i % std::size_t(shape.n);
            return "C[" + std::to_string(row) + "][" + std::to_string(col) + "] = " +
                   std::to_string(result[i]) + ", attendu " + std::to_string(reference.c[i]) +
                   " (écart " + std::to_string(error) + ", admis " + std::to_string(reference.bound[i]) + ")";
        }
    }
    return std::nullopt;
}

}  // namespace noyaux::gemm
