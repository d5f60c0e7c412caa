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
#include <mutex>
#include <utility>
#include <vector>

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

void yield_point_noexcept() noexcept {
    if (current_thread == nullptr) return;
    ThreadSlot& slot = *current_thread;
    slot.in_noexcept_yield = true;
    // Interrompu : ni exception (la fonction noexcept appellerait std::terminate), ni retour
    // (une attente active n'en sortirait jamais) ; le bloc ne reprendra plus cette fibre.
    do {
        *slot.sink = std::move(*slot.sink).resume();
    } while (current_block->aborted || current_block->launch->aborted);
    slot.in_noexcept_yield = false;
}

void destroy_fiber(ThreadSlot& slot) {
    if (!slot.in_noexcept_yield) {
        slot.fiber = {};
        return;
    }
    // La dérouler ferait traverser une fonction noexcept à l'exception de déroulement : la
    // fibre et sa pile sont abandonnées, dans un tableau jamais détruit (rare : un lancement
    // interrompu par un interblocage).
    static auto* abandoned = new std::vector<context::fiber>;
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    abandoned->push_back(std::move(slot.fiber));
}

}  // namespace simt::detail
