/**
 * @file
 * @brief Les threads CUDA en fibres (Boost.Context) : création sur une pile recyclée,
 *        reprise par l'ordonnanceur, retour à l'ordonnanceur à chaque point d'attente.
 *        Seul fichier qui crée, reprend et suspend les fibres (les détruire les déroule).
 */
#include "execution.hpp"
#include "simt/builtins.hpp"
#include "stack_pool.hpp"

#include <algorithm>
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
        // Une fibre jamais reprise par l'ordonnanceur (bloc interrompu avant son tour) n'est
        // entrée ici que par son destructeur, pour être déroulée : ne pas exécuter le noyau,
        // qui tournerait sous l'identité du dernier thread repris (current_thread, threadIdx)
        // et céderait la main à la fibre de celui-ci, peut-être déjà détruite.
        if (!slot.started) return std::move(sink);
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
    slot.started = true;
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

void yield_point(const void* address, std::size_t size) {
    if (current_block != nullptr && current_block->launch->atomics != nullptr)
        current_block->launch->atomics->note(address, size);
    yield_point();
}

void AtomicFootprint::note(const void* address, std::size_t size) {
    std::lock_guard lock(mutex_);
    std::size_t& known = ranges_[static_cast<const std::byte*>(address)];
    known = std::max(known, size);
}

bool AtomicFootprint::covers(const void* address) const {
    const auto* byte = static_cast<const std::byte*>(address);
    std::lock_guard lock(mutex_);
    auto it = ranges_.upper_bound(byte);
    if (it == ranges_.begin()) return false;
    --it;
    return byte < it->first + it->second;
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
    if (!slot.in_noexcept_yield) return;  // déroulée par le destructeur de son ThreadSlot
    // La dérouler ferait traverser une fonction noexcept à l'exception de déroulement : la
    // fibre et sa pile sont abandonnées, dans un tableau jamais détruit (rare : un lancement
    // interrompu par un interblocage).
    static auto* abandoned = new std::vector<context::fiber>;
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    abandoned->push_back(std::move(slot.fiber));
}

}  // namespace simt::detail
