// La règle de sommation commune des Tensor Cores émulés (simt/tensor_core.hpp) : la somme
// exacte de C et des produits, arrondie une fois au plus proche en fp32. Chaque cas est choisi
// pour qu'une autre règle donne un autre résultat : somme float terme à terme, somme double
// dans l'ordre des termes, arrondi sans bit collant.
#include <gtest/gtest.h>
#include <simt/tensor_core.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

float accumulate(float c, std::vector<double> products) {
    return simt::tensor_core_accumulate(c, products.data(), products.size());
}

double power_of_two(int e) { return std::ldexp(1.0, e); }

}  // namespace

TEST(TensorCoreSum, RepresentableSumIsExact) {
    // Float terme à terme : chaque 2^24 + 0,5 s'arrondit à 2^24 (égalité vers le pair).
    EXPECT_EQ(accumulate(16777216.0f, std::vector<double>(16, 0.5)), 16777224.0f);
    EXPECT_EQ(accumulate(3.0f, {2.0, -4.0, 8.0}), 9.0f);
}

TEST(TensorCoreSum, CancellationDoesNotDependOnTheOrder) {
    // En double dans l'ordre : 1 + 2^60 perd le 1 ; le résultat exact est 2 dans tout ordre.
    std::vector<double> products = {power_of_two(60), 1.0, -power_of_two(60)};
    EXPECT_EQ(accumulate(1.0f, products), 2.0f);
    std::sort(products.begin(), products.end());
    do {
        EXPECT_EQ(accumulate(1.0f, products), 2.0f);
    } while (std::next_permutation(products.begin(), products.end()));
    // Somme exactement nulle de termes non nuls : +0.
    const float zero = accumulate(-1.0f, {power_of_two(60), 1.0, -power_of_two(60)});
    EXPECT_EQ(zero, 0.0f);
    EXPECT_FALSE(std::signbit(zero));
}

TEST(TensorCoreSum, OneRoundingToNearestEven) {
    const float one_up = std::nextafter(1.0f, 2.0f);  // 1 + 2^-23
    // Exactement à mi-chemin : vers le pair.
    EXPECT_EQ(accumulate(1.0f, {power_of_two(-24)}), 1.0f);
    EXPECT_EQ(accumulate(1.0f, {3 * power_of_two(-24)}), 1.0f + 2 * std::ldexp(1.0f, -23));
    // Un rien au-dessus du mi-chemin, hors de portée d'un double : le bit collant l'emporte.
    // En double, 1 + 2^-24 + 2^-80 vaut 1 + 2^-24, puis l'égalité donne 1.
    EXPECT_EQ(accumulate(1.0f, {power_of_two(-24), power_of_two(-80)}), one_up);
    EXPECT_EQ(accumulate(-1.0f, {-power_of_two(-24), -power_of_two(-80)}), -one_up);
    EXPECT_EQ(accumulate(1.0f, {power_of_two(-24), -power_of_two(-80)}), 1.0f);
}

TEST(TensorCoreSum, SubnormalsAndOverflow) {
    const float smallest = std::numeric_limits<float>::denorm_min();  // 2^-149
    EXPECT_EQ(accumulate(0.0f, {power_of_two(-150)}), 0.0f);  // mi-chemin entre 0 et 2^-149 : vers le pair
    EXPECT_EQ(accumulate(0.0f, {power_of_two(-150), power_of_two(-210)}), smallest);
    EXPECT_EQ(accumulate(0.0f, {3 * power_of_two(-150)}), 2 * smallest);
    const float max = std::numeric_limits<float>::max();
    EXPECT_EQ(accumulate(max, {power_of_two(103) - power_of_two(60)}), max);
    EXPECT_EQ(accumulate(max, {power_of_two(103)}), std::numeric_limits<float>::infinity());
    EXPECT_EQ(accumulate(-max, {-power_of_two(103), -power_of_two(20)}), -std::numeric_limits<float>::infinity());
}

TEST(TensorCoreSum, InfinitiesAndNaNFollowIeeeAdditions) {
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(accumulate(1.0f, {inf, 2.0}), std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(accumulate(1.0f, {inf, -inf})));
    EXPECT_TRUE(std::isnan(accumulate(std::numeric_limits<float>::quiet_NaN(), {1.0})));
}

TEST(TensorCoreSum, AgreesWithAnIndependentExactReference) {
    // Référence indépendante : des termes multiples de 2^-40 et bornés par 2^18 sont des
    // entiers exacts sur 64 bits une fois multipliés par 2^40 (17 termes : moins de 2^63) ;
    // leur somme entière, convertie en float, est arrondie une seule fois (conversion d'un
    // entier au plus proche). Leurs ordres de grandeur (jusqu'à 58 bits d'écart) dépassent
    // souvent ce qu'une somme double garde exactement.
    std::mt19937_64 random(7);
    std::uniform_int_distribution<long long> mantissa(-(1LL << 18), 1LL << 18);
    std::uniform_int_distribution<int> exponent(-40, 0);
    for (int trial = 0; trial < 2000; ++trial) {
        std::vector<double> products(16);
        long long exact = 0;  // en unités de 2^-40
        for (double& p : products) {
            const long long m = mantissa(random);
            const int e = exponent(random);
            p = std::ldexp(static_cast<double>(m), e);
            exact += m * (1LL << (e + 40));
        }
        const float c = static_cast<float>(mantissa(random));
        exact += static_cast<long long>(c) * (1LL << 40);
        const float expected = std::ldexp(static_cast<float>(exact), -40);
        ASSERT_EQ(accumulate(c, products), expected) << "essai " << trial;
    }
}
