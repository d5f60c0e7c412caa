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

namespace {

/**
 * @brief Le thread qui suit, dans la passe en cours, celui que la fibre vient de terminer, s'il
 *        est prêt et n'a jamais démarré ; sinon nul (la fibre rend la main à l'ordonnanceur).
 *        Les threads non prêts sont sautés, comme le fait l'ordonnanceur ; un thread déjà
 *        démarré a sa propre fibre, que seul l'ordonnanceur reprend.
 */
ThreadSlot* next_unstarted(Block& block) {
    if (block.aborted || block.launch->aborted) return nullptr;
    for (std::size_t position = block.cursor + 1; position < block.order.size(); ++position) {
        ThreadSlot& next = block.threads[block.order[position]];
        if (next.state != State::ready) continue;
        if (next.started) return nullptr;
        block.cursor = position;
        return &next;
    }
    return nullptr;
}

/** @brief Donne la main au thread @p slot : identité du thread CUDA courant. */
void enter(ThreadSlot& slot) {
    slot.started = true;
    current_thread = &slot;
    threadIdx = slot.index;
}

/**
 * @brief Crée la fibre qui exécutera @p first puis, tant qu'aucun ne cède la main, les threads
 *        suivants de la passe jamais démarrés : un thread qui ne rencontre aucun point
 *        d'attente s'exécute jusqu'au bout sans changement de contexte, sur la pile encore
 *        chaude du précédent. L'ordre d'exécution reste celui de la passe (pass_order).
 */
context::fiber chain_fiber(ThreadSlot& first, Block& block) {
    return context::fiber(std::allocator_arg, PooledStack{},
                          [&first, &block](context::fiber&& sink) {
        for (ThreadSlot* slot = &first; slot != nullptr; slot = next_unstarted(block)) {
            enter(*slot);
            slot->sink = &sink;
            try {
                (*block.launch->body)();
            } catch (const KernelAbort&) {
            }
            slot->state = State::done;
            ++block.finished_threads;
        }
        return std::move(sink);
    });
}

}  // namespace

void resume(ThreadSlot& slot) {
    Block& block = *current_block;
    context::fiber fiber = slot.started ? std::move(slot.fiber) : chain_fiber(slot, block);
    enter(slot);
    fiber = std::move(fiber).resume();
    // La fibre revient du dernier thread qu'elle a exécuté (le chaînage a pu en terminer
    // plusieurs) : c'est lui qui la garde, s'il est suspendu.
    current_thread->fiber = std::move(fiber);
    if (block.finished_threads != 0) {
        block.launch->progress.fetch_add(block.finished_threads, std::memory_order_relaxed);
        block.finished_threads = 0;
    }
}

void suspend(ThreadSlot& slot) {
    *slot.sink = std::move(*slot.sink).resume();
    if (current_block->aborted || current_block->launch->aborted) throw KernelAbort{};
}

void yield_point() {
    if (current_thread == nullptr) return;
    current_block->spun = true;
    suspend(*current_thread);
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
    current_block->spun = true;
    slot.in_noexcept_yield = true;
    // Interrompu : ni exception (la fonction noexcept appellerait std::terminate), ni retour
    // (une attente active n'en sortirait jamais) ; le bloc ne reprendra plus cette fibre.
    do {
        *slot.sink = std::move(*slot.sink).resume();
    } while (current_block->aborted || current_block->launch->aborted);
    slot.in_noexcept_yield = false;
}

void destroy_fiber(ThreadSlot& slot) {
    if (!slot.in_noexcept_yield) return;  // déroulée ensuite par run_block (slot.fiber = {})
    // La dérouler ferait traverser une fonction noexcept à l'exception de déroulement : la
    // fibre et sa pile sont abandonnées, dans un tableau jamais détruit (rare : un lancement
    // interrompu par un interblocage).
    static auto* abandoned = new std::vector<context::fiber>;
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    abandoned->push_back(std::move(slot.fiber));
}

}  // namespace simt::detail
