/**
 * @file
 * @brief Tests du filtre en mémoire constante : même résultat que la référence CPU et que la
 *        version à coefficients en mémoire globale ; changer le filtre change le résultat.
 */
#include "memoire-constante.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

namespace cm = noyaux::glossaire::constant_memory;

std::vector<float> smoothing_taps() {
    std::vector<float> taps(cm::kTaps);
    for (int k = 0; k < cm::kTaps; ++k) taps[static_cast<std::size_t>(k)] = 1.0f / static_cast<float>(k + 2);
    return taps;
}

std::vector<float> signal(std::size_t count) {
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<float>(static_cast<int>(i % 37) - 18) * 0.125f;
    return values;
}

std::vector<float> run_constant(const std::vector<float>& in, std::size_t n) {
    noyaux::DeviceBuffer<float> in_device{std::span<const float>(in)};
    noyaux::DeviceBuffer<float> out(n);
    cm::fir_constant<<<static_cast<unsigned>((n + 255) / 256), 256>>>(in_device.data(), out.data(), n);
    NOYAUX_CHECK_LAUNCH();
    return out.download();
}

}  // namespace

TEST(ConstantMemory, FilterMatchesReference) {
    const std::vector<float> taps = smoothing_taps();
    cm::set_filter(taps);
    for (std::size_t n : {1, 100, 4097}) {
        const std::vector<float> in = signal(n + cm::kTaps - 1);
        EXPECT_EQ(run_constant(in, n), cm::fir_reference(taps, in, n)) << "n = " << n;
    }
}

TEST(ConstantMemory, SameResultAsGlobalCoefficients) {
    const std::vector<float> taps = smoothing_taps();
    cm::set_filter(taps);
    const std::size_t n = 10000;
    const std::vector<float> in = signal(n + cm::kTaps - 1);
    noyaux::DeviceBuffer<float> taps_device{std::span<const float>(taps)};
    noyaux::DeviceBuffer<float> in_device{std::span<const float>(in)};
    noyaux::DeviceBuffer<float> out(n);
    cm::fir_global<<<static_cast<unsigned>((n + 255) / 256), 256>>>(taps_device.data(), in_device.data(), out.data(), n);
    NOYAUX_CHECK_LAUNCH();
    EXPECT_EQ(out.download(), run_constant(in, n));
}

TEST(ConstantMemory, NewFilterReplacesTheOld) {
    // Un filtre qui ne garde que la prise 3 : out[i] = in[i + 3].
    std::vector<float> pick(cm::kTaps, 0.0f);
    pick[3] = 1.0f;
    cm::set_filter(pick);
    const std::size_t n = 500;
    const std::vector<float> in = signal(n + cm::kTaps - 1);
    const std::vector<float> out = run_constant(in, n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], in[i + 3]) << "i = " << i;
}

TEST(ConstantMemory, RejectsWrongFilterLength) {
    EXPECT_THROW(cm::set_filter(std::vector<float>(cm::kTaps + 1, 1.0f)), std::invalid_argument);
}
