/**
 * @file
 * @brief Tests de l'exemple 2 : des tâches inégales ; vidée par le noyau persistant (grilles
 *        de 1, 3 blocs et la plus grande résidente) ou par un bloc par tâche, la file rend le
 *        résultat de la référence et exécute chaque tâche exactement une fois, à chaque lancement.
 */
#include "file-de-travail.cuh"

#include "common/cuda_check.cuh"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <vector>

namespace {

namespace q = noyaux::megakernels::queue;

TEST(QueueHost, TasksAreUneven) {
    std::set<unsigned> lengths;
    for (unsigned t = 0; t < 200; ++t) lengths.insert(q::task_length(t));
    EXPECT_EQ(lengths, (std::set<unsigned>{64, 128, 256, 512, 1024, 2048}));  // 32 fois d'écart
    EXPECT_EQ(q::task_reference(3)[2], q::task_reference(5)[2]);  // une tâche ne dépend que d'elle-même
    EXPECT_THROW(q::validate_tasks(0), std::invalid_argument);
    EXPECT_THROW(q::validate_tasks(q::kMaxTasks + 1), std::invalid_argument);
}

// --8<-- [start:garanties]
// Chaque tâche : le résultat de la référence, et exactement une exécution.
void expect_each_task_once(const q::WorkQueue& queue, const char* what) {
    const std::vector<unsigned> runs = queue.runs();
    for (unsigned t = 0; t < queue.tasks(); ++t) ASSERT_EQ(runs[t], 1u) << what << ", tâche " << t;
    EXPECT_EQ(queue.sums(), q::task_reference(queue.tasks())) << what;
}

TEST(QueuePersistent, EveryTaskRunsExactlyOnce) {
    const unsigned resident = q::WorkQueue::max_persistent_blocks();
    ASSERT_GT(resident, 0u);
    for (unsigned tasks : {1u, 7u, 500u}) {
        for (unsigned blocks : {1u, 3u, resident}) {
            q::WorkQueue queue(tasks);
            for (int launch = 0; launch < 2; ++launch) {  // le compteur de tickets repart de zéro
                queue.run_persistent(blocks);
                NOYAUX_CHECK_LAUNCH();
                expect_each_task_once(queue, "persistant");
            }
            for (unsigned owner : queue.owners()) EXPECT_LT(owner, blocks);
        }
    }
}
// --8<-- [end:garanties]

TEST(QueuePersistent, SingleBlockRunsEverything) {
    q::WorkQueue queue(40);
    queue.run_persistent(1);
    NOYAUX_CHECK_LAUNCH();
    expect_each_task_once(queue, "un bloc");
    EXPECT_EQ(queue.owners(), std::vector<unsigned>(40, 0));
}

TEST(QueuePersistent, EmptyGridIsRefused) {
    q::WorkQueue queue(4);
    EXPECT_THROW(queue.run_persistent(0), std::invalid_argument);
}

TEST(QueueOneBlockPerTask, EveryTaskRunsExactlyOnceInItsOwnBlock) {
    q::WorkQueue queue(300);
    queue.run_one_block_per_task();
    NOYAUX_CHECK_LAUNCH();
    expect_each_task_once(queue, "un bloc par tâche");
    const std::vector<unsigned> owners = queue.owners();
    for (unsigned t = 0; t < 300; ++t) EXPECT_EQ(owners[t], t);
}

}  // namespace
