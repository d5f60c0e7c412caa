/**
 * @file
 * @brief Programme : somme d'un tableau d'entiers et de flottants par les trois variantes
 *        (arbre, shuffle, CUB), vérifiée sur le CPU, puis filtrage des positifs par votes.
 *
 * Usage : primitives-warp [--taille N] [--blocs B]
 */
#include "primitives-warp.cuh"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/program.cuh"

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

namespace wp = noyaux::ressources::warp_primitives;
using noyaux::DeviceBuffer;

/** @brief Paramètres lus sur la ligne de commande. */
struct Options {
    std::int64_t size = std::int64_t{1} << 24;
    std::int64_t blocks = 0;  // 0 : grille calculée d'après le GPU
};

/** @brief Somme d'un tableau par @p variant (deux passes), rapatriée sur l'hôte. */
template <typename T>
T device_sum(wp::Variant variant, const DeviceBuffer<T>& in, unsigned blocks) {
    DeviceBuffer<T> block_sums(blocks);
    DeviceBuffer<T> result(1);
    wp::launch_reduce_sum(variant, in.data(), in.size(), block_sums.data(), result.data(), blocks);
    NOYAUX_CHECK_LAUNCH();
    return result.download()[0];
}

int run(int argc, char** argv) {
    Options options;
    noyaux::cli::Parser parser(
        "primitives-warp",
        "Somme d'un tableau par arbre, par shuffles de warp et par CUB ; filtrage par votes.");
    // Les valeurs (i·7919 mod 1001) − 500 se compensent sur chaque période de 1001 : les
    // sommes, totales comme partielles, restent loin de la limite d'un int.
    parser.add_integer("--taille", &options.size, 0, std::int64_t{1} << 26, "nombre d'éléments");
    parser.add_integer("--blocs", &options.blocks, 0, 1024, "blocs de la première passe (0 : automatique)");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(wp::reduce_sum_shuffle<int>, "reduce_sum_shuffle");

    const auto n = static_cast<std::size_t>(options.size);
    const unsigned blocks = options.blocks > 0 ? static_cast<unsigned>(options.blocks)
                                               : wp::reduction_blocks(n, device.multiProcessorCount);
    std::vector<int> ints(n);
    std::vector<float> floats(n);
    std::int64_t int_expected = 0;
    double float_expected = 0.0;
    double magnitude = 0.0;
    std::uint64_t positives = 0;
    for (std::size_t i = 0; i < n; ++i) {
        ints[i] = static_cast<int>((i * 7919) % 1001) - 500;
        floats[i] = 0.01f * static_cast<float>(ints[i]);
        int_expected += ints[i];
        float_expected += floats[i];
        magnitude += std::fabs(floats[i]);
        positives += ints[i] > 0;
    }
    const DeviceBuffer<int> ints_device{std::span<const int>(ints)};
    const DeviceBuffer<float> floats_device{std::span<const float>(floats)};

    std::printf("GPU : %s (%d multiprocesseurs)\n", device.name, device.multiProcessorCount);
    std::printf("%zu éléments, %u blocs de %u threads puis 1 bloc\n", n, blocks, wp::kThreadsPerBlock);
    bool ok = true;
    for (wp::Variant variant : {wp::Variant::tree, wp::Variant::shuffle, wp::Variant::cub}) {
        if (!wp::variant_available(variant)) {
            std::printf("%-8s : non disponible sur l'émulateur (CUB exige nvcc)\n", wp::variant_name(variant));
            continue;
        }
        const int int_sum = device_sum(variant, ints_device, blocks);
        const float float_sum = device_sum(variant, floats_device, blocks);
        const bool int_ok = int_sum == int_expected;
        const bool float_ok = std::fabs(float_sum - float_expected) <= 1e-5 * magnitude + 1e-6;
        std::printf("%-8s : entiers %d (%s), flottants %.6g (référence %.6g, %s)\n",
                    wp::variant_name(variant), int_sum, int_ok ? "exact" : "FAUX", float_sum,
                    float_expected, float_ok ? "écart admis" : "FAUX");
        ok = ok && int_ok && float_ok;
    }

    DeviceBuffer<int> kept(n);
    DeviceBuffer<unsigned> count(1);
    wp::launch_compact_positive(ints_device.data(), n, kept.data(), count.data(), blocks);
    NOYAUX_CHECK_LAUNCH();
    const unsigned kept_count = count.download()[0];
    const bool compact_ok = kept_count == positives;
    std::printf("votes    : %u valeurs positives gardées (attendu %" PRIu64 ", %s)\n", kept_count,
                positives, compact_ok ? "juste" : "FAUX");
    ok = ok && compact_ok;
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("primitives-warp", [&] { return run(argc, argv); });
}
