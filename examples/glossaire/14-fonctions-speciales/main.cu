/**
 * @file
 * @brief Programme : écart maximal de `__sinf` et de `sinf` à sin (calculé en double), près de 0
 *        puis loin de 0.
 *
 * Usage : fonctions-speciales [--points N] [--loin X]
 */
#include "fonctions-speciales.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/french_format.hpp"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

namespace sf = noyaux::glossaire::special_functions;

int run(int argc, char** argv) {
    std::int64_t points = 1 << 20;
    double far = 10000.0;
    noyaux::cli::Parser parser("fonctions-speciales", "__sinf (instruction MUFU) contre sinf : précision.");
    parser.add_integer("--points", &points, 2, std::int64_t{1} << 26, "points de chaque intervalle");
    parser.add_real("--loin", &far, 4.0, 1e7, "borne de l'intervalle éloigné de 0");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(sf::sine_fast, "sine_fast");
    std::printf("GPU : %s\n", device.name);
    const auto n = static_cast<std::size_t>(points);
    for (double limit : {3.14159, far}) {
        std::vector<float> x(n);
        for (std::size_t i = 0; i < n; ++i)
            x[i] = static_cast<float>(-limit + 2.0 * limit * static_cast<double>(i) / static_cast<double>(n - 1));
        noyaux::DeviceBuffer<float> in{std::span<const float>(x)};
        noyaux::DeviceBuffer<float> out(n);
        const std::string bound = noyaux::decimal_text(limit, limit < 10 ? 5 : 0);
        std::printf("x dans [−%s, %s] :", bound.c_str(), bound.c_str());
        for (sf::Variant variant : {sf::Variant::fast, sf::Variant::accurate}) {
            sf::launch_sine(variant, in.data(), out.data(), n);
            NOYAUX_CHECK_LAUNCH();
            const std::vector<float> y = out.download();
            char error[32];
            std::snprintf(error, sizeof error, "%.2e", sf::max_abs_error(x.data(), y.data(), n));
            std::string text = error;
            text[text.find('.')] = ',';
            std::printf(" %s écart max %s%s", variant == sf::Variant::fast ? "__sinf" : "sinf", text.c_str(),
                        variant == sf::Variant::fast ? " ;" : "\n");
        }
    }
    return noyaux::kExitSuccess;
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("fonctions-speciales", [&] { return run(argc, argv); });
}
