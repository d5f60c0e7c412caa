/**
 * @file
 * @brief Programme : une file de tâches de coût inégal vidée par un noyau persistant, puis par
 *        un bloc par tâche ; chaque tâche vérifiée (résultat et exécution unique), durées comparées.
 *
 * Usage : file-de-travail [--taches N] [--blocs B] [--repetitions R]
 */
#include "file-de-travail.cuh"

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

namespace q = noyaux::megakernels::queue;

/** @brief Vrai si chaque tâche a le bon résultat et a été exécutée exactement une fois. */
bool check(const q::WorkQueue& queue, const std::vector<std::uint32_t>& expected, const char* what) {
    const std::vector<unsigned> runs = queue.runs();
    const bool once = std::all_of(runs.begin(), runs.end(), [](unsigned r) { return r == 1; });
    const bool same = queue.sums() == expected;
    std::printf("%s : %s, %s\n", what, same ? "résultats identiques à la référence" : "résultats FAUX",
                once ? "chaque tâche exécutée une fois" : "des tâches exécutées zéro ou plusieurs fois");
    return same && once;
}

/** @brief Durée moyenne d'un vidage de la file, en µs. */
double microseconds(const std::function<void()>& run, std::int64_t repetitions) {
    noyaux::EventTimer timer;
    timer.start(nullptr);
    for (std::int64_t r = 0; r < repetitions; ++r) run();
    return static_cast<double>(timer.stop_ms(nullptr)) * 1e3 / static_cast<double>(repetitions);
}

int run(int argc, char** argv) {
    std::int64_t tasks = 10000;
    std::int64_t blocks = 0;
    std::int64_t repetitions = 10;
    noyaux::cli::Parser parser("file-de-travail",
                               "Des tâches inégales : noyau persistant à file atomique contre un bloc par tâche.");
    parser.add_integer("--taches", &tasks, 1, q::kMaxTasks, "tâches de la file");
    parser.add_integer("--blocs", &blocks, 0, 65535, "blocs persistants (0 : autant que de blocs résidents)");
    parser.add_integer("--repetitions", &repetitions, 1, 1000, "vidages chronométrés de chaque façon");
    if (!parser.parse(argc, argv)) return noyaux::kExitSuccess;

    const cudaDeviceProp device = noyaux::require_device();
    noyaux::require_kernel_image(q::queue_persistent, "queue_persistent");
    const unsigned resident = q::WorkQueue::max_persistent_blocks();
    const unsigned grid = blocks == 0 ? resident : static_cast<unsigned>(blocks);
    std::printf("GPU : %s (%d multiprocesseurs), %lld tâches de 64 à 2048 éléments\n", device.name,
                device.multiProcessorCount, static_cast<long long>(tasks));
    std::printf("Grille persistante : %u blocs (au plus %u résidents à la fois)\n", grid, resident);

    q::WorkQueue queue(static_cast<unsigned>(tasks));
    const std::vector<std::uint32_t> expected = q::task_reference(queue.tasks());
    bool ok = true;

    queue.run_persistent(grid);
    NOYAUX_CHECK_LAUNCH();
    ok &= check(queue, expected, "noyau persistant");
    std::vector<unsigned> per_block(grid, 0);
    for (unsigned owner : queue.owners()) ++per_block[owner];
    const auto [fewest, most] = std::minmax_element(per_block.begin(), per_block.end());
    std::printf("  tâches par bloc : de %u à %u\n", *fewest, *most);

    queue.run_one_block_per_task();
    NOYAUX_CHECK_LAUNCH();
    ok &= check(queue, expected, "un bloc par tâche");

    const double persistent_us = microseconds([&] { queue.run_persistent(grid); }, repetitions);
    const double one_block_us = microseconds([&] { queue.run_one_block_per_task(); }, repetitions);
    std::printf("Durée d'un vidage : %.1f µs (persistant), %.1f µs (un bloc par tâche)\n", persistent_us,
                one_block_us);
    return noyaux::conclude(ok);
}

}  // namespace

/** @brief Point d'entrée : erreurs traduites en messages et codes de sortie (voir ExitCode). */
int main(int argc, char** argv) {
    return noyaux::run_program("file-de-travail", [&] { return run(argc, argv); });
}
