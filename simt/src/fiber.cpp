/**
 * @file
 * @brief Les threads CUDA en fibres (Boost.Context) : création sur une pile recyclée,
 *        reprise par l'ordonnanceur, retour à l'ordonnanceur à chaque point d'attente.
 *        Seul fichier qui crée, reprend et suspend les fibres (les détruire les déroule).
 */
#include "execution.hpp"
#include "simt/builtins.hpp"
#include "stack_pool.hpp"

#include <memory>
#include <utility>

namespace simt::detail {

namespace context = boost::context;

void start_fiber(ThreadSlot& slot, Launch& launch) {
    slot.fiber = context::fiber(std::allocator_arg, PooledStack{},
                                [&slot, &launch](context::fiber&& sink) {
        slot.sink = &sink;
        try {
            (*launch.body)();
        } catch (const KernelAbort&) {
        }
        slot.state = State::done;
        launch.progress.fetch_add(1, std::memory_order_relaxed);
        return std::move(sink);
    });
}

void resume(ThreadSlot& slot) {
    current_thread = &slot;
    threadIdx = slot.index;
    slot.fiber = std::move(slot.fiber).resume();
}

void suspend(ThreadSlot& slot) {
    *slot.sink = std::move(*slot.sink).resume();
    if (current_block->aborted || current_block->launch->aborted) throw KernelAbort{};
}

void yield_point() {
    if (current_thread != nullptr) suspend(*current_thread);
}

}  // namespace simt::detail
