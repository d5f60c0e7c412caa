/**
 * @file
 * @brief Référence CPU de la GEMM et comparaison des résultats.
 */
#include "gemm_reference.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <type_traits>

namespace noyaux::gemm {

template <typename Input>
HostProblemOf<Input> make_problem(Shape shape, float alpha, float beta, Values values, unsigned seed) {
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
    // Même tirage pour les deux types : la matrice bf16 est l'arrondi de la matrice fp32.
    auto input_matrix = [&](std::size_t count) {
        std::vector<float> drawn = random_matrix(count);
        if constexpr (std::is_same_v<Input, float>) {
            return drawn;
        } else {
            std::vector<Input> rounded(count);
            std::transform(drawn.begin(), drawn.end(), rounded.begin(), [](float x) { return to_bf16(x); });
            return rounded;
        }
    };
    const auto m = std::size_t(shape.m), n = std::size_t(shape.n), k = std::size_t(shape.k);
    HostProblemOf<Input> problem{shape, alpha, beta, {}, {}, {}};
    problem.a = input_matrix(m * k);
    problem.b = input_matrix(k * n);
    problem.c = random_matrix(m * n);
    return problem;
}

template <typename Input>
Reference reference_gemm(const HostProblemOf<Input>& p) {
    constexpr double unit_roundoff = InputTraits<Input>::accumulation_roundoff;
    const auto m = std::size_t(p.shape.m), n = std::size_t(p.shape.n), k = std::size_t(p.shape.k);
    Reference reference{std::vector<float>(m * n), std::vector<float>(m * n)};
    for (std::size_t row = 0; row < m; ++row) {
        for (std::size_t col = 0; col < n; ++col) {
            double sum = 0.0, magnitude = 0.0;
            for (std::size_t i = 0; i < k; ++i) {
                const double product = double(to_float(p.a[row * k + i])) * double(to_float(p.b[i * n + col]));
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

/// @cond
// Les deux types d'entrée de l'échelle.
template HostProblemOf<float> make_problem<float>(Shape, float, float, Values, unsigned);
template HostProblemOf<bf16> make_problem<bf16>(Shape, float, float, Values, unsigned);
template Reference reference_gemm<float>(const HostProblemOf<float>&);
template Reference reference_gemm<bf16>(const HostProblemOf<bf16>&);
/// @endcond

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
