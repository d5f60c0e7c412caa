/**
 * @file
 * @brief Tests de `__sinf` et `sinf` contre sin en double : bornes d'erreur du CUDA C++
 *        Programming Guide sur [−π, π], et, sur GPU, l'erreur de `__sinf` qui grandit loin de 0.
 */
#include "fonctions-speciales.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

namespace sf = noyaux::glossaire::special_functions;

std::vector<float> evenly_spaced(float low, float high, std::size_t n) {
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = low + (high - low) * static_cast<float>(i) / static_cast<float>(n - 1);
    return x;
}

std::vector<float> run(sf::Variant variant, const std::vector<float>& x) {
    noyaux::DeviceBuffer<float> in{std::span<const float>(x)};
    noyaux::DeviceBuffer<float> out(x.size());
    sf::launch_sine(variant, in.data(), out.data(), x.size());
    NOYAUX_CHECK_LAUNCH();
    return out.download();
}

}  // namespace

TEST(SpecialFunctions, FastSineWithinItsBoundNearZero) {
    // Programming Guide (fonctions intrinsèques) : erreur absolue de __sinf au plus 2^-21,41
    // pour x dans [−π, π].
    const std::vector<float> x = evenly_spaced(-3.14159f, 3.14159f, 100001);
    const std::vector<float> y = run(sf::Variant::fast, x);
    EXPECT_LE(sf::max_abs_error(x.data(), y.data(), x.size()), std::ldexp(1.0, -21) / std::pow(2.0, 0.41));
}

TEST(SpecialFunctions, AccurateSineWithinTwoUlpEverywhere) {
    // sinf : au plus 2 ulp sur tout l'intervalle ; loin de 0 aussi.
    for (float limit : {3.14159f, 10000.0f}) {
        const std::vector<float> x = evenly_spaced(-limit, limit, 100001);
        const std::vector<float> y = run(sf::Variant::accurate, x);
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double exact = std::sin(static_cast<double>(x[i]));
            // ilogb(0) vaut INT_MIN : en 0, l'écart permis est le plus petit dénormal.
            const double ulp = exact == 0.0 ? std::numeric_limits<float>::denorm_min()
                                            : std::ldexp(1.0, std::ilogb(static_cast<float>(exact)) - 23);
            ASSERT_LE(std::fabs(y[i] - exact), 2.0 * ulp + 1e-45) << "x = " << x[i];
        }
    }
}

TEST(SpecialFunctions, FastSineDegradesFarFromZero) {
#ifdef SIMT_EMULATOR
    GTEST_SKIP() << "sur l'émulateur, __sinf est la fonction sin du processeur : aucune perte à observer";
#else
    // Sans réduction d'argument soignée, l'erreur de __sinf grandit avec |x| : vers 10^4, elle
    // dépasse de loin celle de sinf.
    const std::vector<float> x = evenly_spaced(9000.0f, 10000.0f, 100001);
    const std::vector<float> fast = run(sf::Variant::fast, x);
    const std::vector<float> accurate = run(sf::Variant::accurate, x);
    EXPECT_GT(sf::max_abs_error(x.data(), fast.data(), x.size()),
              100.0 * sf::max_abs_error(x.data(), accurate.data(), x.size()));
#endif
}

TEST(SpecialFunctions, EmptyInputLaunchesNothing) {
    sf::launch_sine(sf::Variant::fast, nullptr, nullptr, 0);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
