// Références CPU : résultats connus et tailles incompatibles.
#include "common/reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

TEST(ReferenceSaxpy, ComputesAxPlusY) {
    const std::vector<float> x{1.0f, 2.0f, -3.0f};
    const std::vector<float> y{0.5f, 0.0f, 3.0f};
    const std::vector<float> expected{2.5f, 4.0f, -3.0f};
    EXPECT_EQ(noyaux::reference::saxpy(2.0f, x, y), expected);
}

TEST(ReferenceSaxpy, RoundsOnceLikeFusedMultiplyAdd) {
    // 1 + 2^-23 au carré, moins 1 : l'arrondi unique de la FMA garde le terme 2^-46
    // que deux arrondis successifs perdraient.
    const float a = 1.0f + std::ldexp(1.0f, -23);
    const std::vector<float> x{a};
    const std::vector<float> y{-1.0f};
    const float fused = noyaux::reference::saxpy(a, x, y)[0];
    EXPECT_EQ(fused, std::ldexp(1.0f, -22) + std::ldexp(1.0f, -46));
}

TEST(ReferenceSaxpy, RejectsMismatchedSizes) {
    const std::vector<float> x(3);
    const std::vector<float> y(2);
    EXPECT_THROW(noyaux::reference::saxpy(1.0f, x, y), std::invalid_argument);
}

TEST(ReferenceSaxpy, AcceptsEmptyInput) {
    EXPECT_TRUE(noyaux::reference::saxpy(1.0f, {}, {}).empty());
}
