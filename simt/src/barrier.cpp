/**
 * @file
 * @brief Barrières : __syncthreads et ses variantes (_count, _and, _or), grid.sync() des
 *        lancements coopératifs. Un thread qui atteint une barrière s'y arrête ; quand
 *        l'ordonnanceur n'a plus de fibre prête (block.cpp) et que toutes attendent à la
 *        même barrière (divergence.cpp), release_barrier la libère.
 */
#include "execution.hpp"

#include <chrono>

namespace simt::detail {

bool GridBarrier::arrive_and_wait(const std::atomic<bool>& aborted) {
    std::unique_lock lock(mutex_);
    const unsigned generation = generation_;
    if (++arrived_ == count_) {
        arrived_ = 0;
        ++generation_;
        changed_.notify_all();
        return true;
    }
    // Réveil périodique : un lancement interrompu ailleurs ne doit pas laisser ce bloc attendre.
    while (generation == generation_ && !aborted)
        changed_.wait_for(lock, std::chrono::milliseconds(50));
    return generation != generation_;
}

void GridBarrier::wake_all() { changed_.notify_all(); }

int block_barrier(BarrierKind kind, int predicate, const std::source_location& where) {
    ThreadSlot& self = *current_thread;
    self.state = State::at_barrier;
    self.barrier_kind = kind;
    self.predicate = predicate;
    self.where = where;
    suspend(self);
    return self.barrier_result;
}

void grid_barrier(const std::source_location& where) {
    ThreadSlot& self = *current_thread;
    self.state = State::at_grid;
    self.where = where;
    self.predicate = 0;
    suspend(self);
}

bool release_barrier(Block& block) {
    // Les threads terminés ne comptent plus (voir all_at_same_barrier) : la barrière et ses
    // réductions ne portent que sur ceux qui l'attendent.
    const ThreadSlot* waiting = nullptr;
    for (const ThreadSlot& slot : block.threads)
        if (slot.state != State::done) {
            waiting = &slot;
            break;
        }
    if (!waiting) return false;
    const ThreadSlot& first = *waiting;
    if (first.state == State::at_grid) {
        Launch& launch = *block.launch;
        if (!launch.grid_barrier) {
            fail(block, first, "grid.sync() exige un lancement coopératif (cudaLaunchCooperativeKernel)");
            return false;
        }
        if (!launch.grid_barrier->arrive_and_wait(launch.aborted)) {
            block.aborted = true;
            return false;
        }
    } else {
        int count = 0;
        int total = 0;
        for (const ThreadSlot& slot : block.threads)
            if (slot.state != State::done) {
                count += slot.predicate != 0;
                ++total;
            }
        for (ThreadSlot& slot : block.threads) {
            switch (slot.barrier_kind) {
                case BarrierKind::sync: slot.barrier_result = 0; break;
                case BarrierKind::count: slot.barrier_result = count; break;
                case BarrierKind::all: slot.barrier_result = count == total; break;
                case BarrierKind::any: slot.barrier_result = count > 0; break;
            }
        }
    }
    for (ThreadSlot& slot : block.threads)
        if (slot.state != State::done) slot.state = State::ready;
    ++block.pass;
    block.launch->progress.fetch_add(1, std::memory_order_relaxed);
    return true;
}

}  // namespace simt::detail
