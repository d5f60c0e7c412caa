/**
 * @file
 * @brief Programme : une étape de décodeur exécutée par le megakernel interpréteur, par des
 *        noyaux séparés lancés dans un flux, et par le graphe CUDA de ces noyaux ; résultats
 *        comparés à la référence CPU, compteurs vérifiés, durée d'une étape de chaque façon.
 *
 * Usage : megakernel-interpreteur [--couches L] [--dimension D] [--intermediaire H]
 *         [--tranche T] [--blocs B] [--repetitions R] [--programme]
 */
#include "megakernel-interpreteur.cuh"
#include "megakernels/common/decoder_options.hpp"

#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/event_timer.cuh"
#include "common/program.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

namespace mk = noyaux::megakernels;
namespace mi = noyaux::megakernels::interpreter;

/** Affiche les files : une ligne par instruction. */
void print_program(const mi::Program& program) {
    for (int q = 0; q < program.queue_count(); ++q) {
        std::printf("File %d :\n", q);
        for (std::uint32_t i = program.queue_begin[q]; i < program.queue_begin[q + 1]; ++i) {
            const mi::Instruction& ins = program.instructions[i];
            std::printf("  couche %u %-16s lignes [%u, %u)", ins.layer, mk::opcode_name(ins.opcode), ins.begin, ins.end);
            if (ins.wait_counter != mi::kNoCounter)
                std::printf("  attend c%u >= %u", ins.wait_counter, ins.wait_target);
            if (ins.signal_counter != mi::kNoCounter) std::printf("  signale c%u += %u", ins.signal_counter, ins.signal_amount);
            std::printf("\n");
        }
    }
}

/** Durée moyenne d'une étape, en µs, sur @p repetitions soumissions de @p submit. */
double microseconds_per_step(const std::function<void()>& submit, cudaStream_t stream, std::int64_t repetitions) {
    submit();  // échauffement
    noyaux::EventTimer timer;
    timer.start(stream);
    for (std::int64_t r = 0; r < repetitions; ++r) submit();
    return static_cast<double>(timer.stop_ms(stream)) * 1e3 / static_cast<double>(repetitions);
}

int run(int argc, char** argv) {
    mk::DecoderOptions sizes;
    std::int64_t blocks = 0, repetitions = 20;
    bool show_program = false;
    noyaux::cli::Parser parser("megakernel-interpreteur",
                               "Une étape de décodeur par un megakernel interpréteur d'instructions, "
                               "comparée aux noyaux séparés et à leur graphe CUDA.");
    mk::add_decoder_options(parser, sizes, "instruction");
    parser.add_integer("--blocs", &blocks, 0, mi::kMaxQueues, "blocs du megakernel, une file chacun (0 : un par SM)");
    parser.add_integer("--repetitions", &repetitions, 1, 10000, "étapes chronométrées de chaque façon");
    parser.add_flag("--programme", &show_program, "affiche les files d'instructions");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const mk::DecoderShape shape = mk::decoder_shape(sizes);
    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(mi::decoder_megakernel, "decoder_megakernel");
    const int queues = blocks > 0 ? static_cast<int>(blocks) : device.multiProcessorCount;
    const mi::Program program = mi::build_decoder_program(shape, queues);
    if (show_program) print_program(program);

    std::printf("GPU : %s (%d SM)\n", device.name, device.multiProcessorCount);
    mk::print_decoder_shape(shape);
    mi::Megakernel megakernel(program, shape);  // valide l'ordonnancement et la co-résidence
    std::printf("Programme : %zu instructions sur %d files, %u compteurs ; validé en %d passes\n",
                program.instructions.size(), queues, program.counter_count, megakernel.report().rounds);

    const mk::DecoderWeights weights = mk::make_weights(shape);
    const std::vector<float> input = mk::make_input(shape.hidden);
    const std::vector<float> expected = mk::decoder_reference(weights, input);
    mk::DecoderDeviceState state(weights, input);
    noyaux::Stream stream;
    mi::allow_page(shape);

    // Deux exécutions de suite : la seconde prouve la remise à zéro des compteurs.
    bool all_ok = true;
    for (int run = 1; run <= 2; ++run) {
        megakernel.launch(state, stream.get());
        NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        const double error = mk::max_relative_error(state.result(), expected);
        const mi::KernelStatus status = megakernel.status();
        const bool ok = error <= mk::kDecoderTolerance && status.mismatches == 0;
        std::printf("Megakernel, exécution %d : écart relatif %.2e, compteurs %s\n", run, error,
                    status.mismatches == 0 ? "conformes au validateur" : "NON CONFORMES");
        all_ok = all_ok && ok;
    }
    const std::vector<float> from_megakernel = state.result();

    mi::launch_separate(state, stream.get());
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    const bool separate_ok = state.result() == from_megakernel;
    std::printf("Noyaux séparés (%d lancements) : %s\n", 3 * shape.layers,
                separate_ok ? "identiques au megakernel" : "DIFFÉRENTS du megakernel");

    const noyaux::CapturedGraph graph(stream.get(), [&](cudaStream_t s) { mi::launch_separate(state, s); });
    graph.launch(stream.get());
    NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    const bool graph_ok = state.result() == from_megakernel;
    std::printf("Graphe CUDA (%zu nœuds) : %s\n", graph.node_count(),
                graph_ok ? "identique au megakernel" : "DIFFÉRENT du megakernel");

    const double mega_us = microseconds_per_step([&] { megakernel.launch(state, stream.get()); }, stream.get(), repetitions);
    const double separate_us = microseconds_per_step([&] { mi::launch_separate(state, stream.get()); }, stream.get(), repetitions);
    const double graph_us = microseconds_per_step([&] { graph.launch(stream.get()); }, stream.get(), repetitions);
    std::printf("Par étape : megakernel %.2f µs, noyaux séparés %.2f µs, graphe %.2f µs\n", mega_us, separate_us,
                graph_us);
#ifdef SIMT_EMULATOR
    std::printf("(émulateur : ces durées ne disent rien d'un GPU)\n");
#endif
    return noyaux::conclude(all_ok && separate_ok && graph_ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("megakernel-interpreteur", [&] { return run(argc, argv); });
}
