/**
 * @file
 * @brief Programme : les deux variantes (tableau local indexé dynamiquement, sélections
 *        déroulées) calculent le même résultat, vérifié sur le CPU ; le code machine qui les
 *        distingue se lit avec cuobjdump (voir le README).
 *
 * Usage : pression-registres [--taille N]
 */
#include "pression-registres.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

namespace rp = noyaux::glossaire::register_pressure;

int run(int argc, char** argv) {
    std::int64_t size = 1 << 20;
    noyaux::cli::Parser parser("pression-registres",
                               "Tableau local indexé dynamiquement (mémoire locale) contre indices constants (registres).");
    parser.add_integer("--taille", &size, 1, std::int64_t{1} << 24, "colonnes (threads)");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(rp::pick_dynamic_index, "pick_dynamic_index");
    const auto n = static_cast<std::size_t>(size);
    std::vector<float> rows(rp::kLength * n);
    std::vector<unsigned> pick(n);
    for (std::size_t k = 0; k < static_cast<std::size_t>(rp::kLength); ++k)
        for (std::size_t i = 0; i < n; ++i) rows[k * n + i] = static_cast<float>((k + i) % 13) * 0.5f;
    for (std::size_t i = 0; i < n; ++i) pick[i] = static_cast<unsigned>(i * 2654435761u);

    std::vector<float> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = rp::reference_column(rows.data(), pick[i], n, i);

    noyaux::DeviceBuffer<float> rows_device{std::span<const float>(rows)};
    noyaux::DeviceBuffer<unsigned> pick_device{std::span<const unsigned>(pick)};
    noyaux::DeviceBuffer<float> out(n);
    std::printf("GPU : %s ; %zu colonnes de %d flottants\n", device.name, n, rp::kLength);
    bool ok = true;
    for (rp::Variant variant : {rp::Variant::dynamic_index, rp::Variant::unrolled}) {
        rp::launch_pick(variant, rows_device.data(), pick_device.data(), out.data(), n);
        NOYAUX_CHECK_LAUNCH();
        const bool same = out.download() == expected;
        std::printf("%s : %s\n",
                    variant == rp::Variant::dynamic_index ? "indice dynamique (locale)" : "déroulé (registres)",
                    same ? "identique à la référence" : "FAUX");
        ok = ok && same;
    }
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("pression-registres", [&] { return run(argc, argv); });
}
