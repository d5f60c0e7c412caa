/**
 * @file
 * @brief mbarrier de PTX (voir include/simt/ptx/mbarrier.hpp) : codage du mot de 64 bits,
 *        arrivées et transactions atomiques (un bloc d'un cluster peut arriver sur la barrière
 *        d'un autre, exécuté par un autre thread du système), attentes qui cèdent la main, et
 *        registre des attentes en échec que lit le chien de garde (watchdog.cpp) pour nommer
 *        un interblocage avec l'état de chaque barrière attendue.
 *
 * Sémantique : PTX ISA, « Parallel Synchronization and Communication Instructions: mbarrier »
 * (contenu de l'objet, phases, opérations arrive-on et expect-tx/complete-tx, test_wait et
 * try_wait, parité de phase).
 */
#include "simt/ptx/mbarrier.hpp"

#include "simt/shared_window.hpp"

#include "execution.hpp"
#include "internal.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace simt::ptx {

namespace {

using detail::current_block;
using detail::current_thread;
using detail::fail_current;
using detail::location;

constexpr std::uint64_t kField = (1ull << 20) - 1;
constexpr int kExpectedShift = 20;
constexpr int kTxShift = 40;
constexpr std::uint64_t kTxField = (1ull << 21) - 1;
constexpr int kParityShift = 63;
constexpr std::int64_t kTxLimit = (1 << 20) - 1;  // le compte de transactions reste dans ±(2^20 - 1)

/** @brief Le mot de 64 bits, décodé. */
struct Fields {
    std::int64_t pending;   ///< arrivées restantes de la phase en cours
    std::int64_t expected;  ///< arrivées attendues par phase
    std::int64_t tx;        ///< octets encore attendus (négatif : livrés avant d'être annoncés)
    unsigned parity;        ///< parité de la phase en cours
};

Fields decode(std::uint64_t word) {
    std::int64_t tx = std::int64_t((word >> kTxShift) & kTxField);
    if (tx & (1 << 20)) tx -= 1 << 21;  // complément à deux sur 21 bits
    return {std::int64_t(word & kField), std::int64_t((word >> kExpectedShift) & kField), tx,
            unsigned(word >> kParityShift)};
}

std::uint64_t encode(const Fields& f) {
    return std::uint64_t(f.pending) | std::uint64_t(f.expected) << kExpectedShift |
           (std::uint64_t(f.tx) & kTxField) << kTxShift | std::uint64_t(f.parity) << kParityShift;
}

std::string plural(std::int64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 || n == -1 || n == 0 ? one : many);
}

/** @brief « mbarrier 0x10 (f.cu:12) » : son adresse partagée, celle qu'écrit le PTX. */
std::string barrier_name(const std::uint64_t* bar, const std::source_location& where) {
    char address[32];
    if (simt::is_shared(bar))
        std::snprintf(address, sizeof address, "0x%x", unsigned(simt::shared_address(bar)));
    else
        std::snprintf(address, sizeof address, "%p", static_cast<const void*>(bar));
    return std::string("mbarrier ") + address + " (" + location(where) + ")";
}

/**
 * @brief Le mot est-il dans la mémoire partagée d'un autre bloc du cluster (arrivée distante,
 *        complete_tx d'une multidiffusion de la TMA) ? Le pointeur vient alors de
 *        cluster_shared_pointer, qui a déjà vérifié le rang, les bornes et la vie du bloc.
 */
bool in_cluster_shared_memory(const std::uint64_t* bar) {
    const detail::Cluster* cluster = current_block->cluster;
    if (cluster == nullptr) return false;
    const auto* p = reinterpret_cast<const std::byte*>(bar);
    for (const detail::ClusterMember& member : cluster->members)
        if ((p >= member.window && p < member.window + detail::kSharedWindowBytes) ||
            (p >= member.tls_begin && p < member.tls_end))
            return true;
    return false;
}

void check_barrier(const std::uint64_t* bar, const std::source_location& where) {
    if (current_thread == nullptr) {
        std::fprintf(stderr, "simt : %s utilisée hors d'un noyau\n", barrier_name(bar, where).c_str());
        std::abort();
    }
    if (reinterpret_cast<std::uintptr_t>(bar) % 8 != 0)
        fail_current(barrier_name(bar, where) + " : adresse non alignée sur 8 octets");
    if (!simt::is_shared(bar) && !in_cluster_shared_memory(bar))
        fail_current(barrier_name(bar, where) + " : une mbarrier doit être dans la mémoire partagée du bloc");
}

void note_progress() {
    if (current_block != nullptr) current_block->launch->progress.fetch_add(1, std::memory_order_relaxed);
}

/**
 * @brief Applique @p change au mot de la barrière, atomiquement ; @p change rend un message
 *        d'erreur (vide si l'opération est valide), et la faute arrête le noyau sans rien écrire.
 */
template <class Change>
std::uint64_t update(std::uint64_t* bar, const std::source_location& where, const char* operation,
                     Change change) {
    check_barrier(bar, where);
    std::atomic_ref<std::uint64_t> word(*bar);
    std::uint64_t before = word.load();
    for (;;) {
        Fields f = decode(before);
        if (f.expected == 0)
            fail_current(barrier_name(bar, where) + " : " + operation +
                         " sur une barrière non initialisée ou invalidée (mbarrier.init manquant ?)");
        const std::string problem = change(f);
        if (!problem.empty())
            fail_current(barrier_name(bar, where) + " : " + operation + " : " + problem + " ; état avant : " +
                         mbarrier_state_text(before));
        if (f.pending == 0 && f.tx == 0) {  // phase terminée : la suivante commence
            f.parity ^= 1;
            f.pending = f.expected;
        }
        if (word.compare_exchange_weak(before, encode(f))) break;
    }
    note_progress();
    return before;
}

std::string arrive_problem(Fields& f, std::uint32_t count, bool may_complete) {
    if (count == 0 || count > kMbarrierMaxCount)
        return "compte d'arrivées " + std::to_string(count) + " hors de [1, 2^20 - 1]";
    if (std::int64_t(count) > f.pending)
        return plural(count, "arrivée", "arrivées") + " alors qu'il n'en reste que " + std::to_string(f.pending) +
               " dans la phase (plus d'arrivées que le compte donné à mbarrier.init)";
    f.pending -= count;
    if (f.pending == 0 && !may_complete)
        return "mbarrier.arrive.noComplete terminerait la phase (comportement indéfini en PTX)";
    if (f.pending == 0 && f.tx < 0)
        return "transactions incohérentes : toutes les arrivées sont là mais " +
               plural(-f.tx, "octet a été livré", "octets ont été livrés") +
               " de plus qu'annoncé par expect_tx";
    return {};
}

std::string tx_problem(Fields& f, std::int64_t delta) {
    const std::int64_t tx = f.tx + delta;
    if (tx > kTxLimit || tx < -kTxLimit)
        return "compte de transactions " + std::to_string(tx) + " hors de ±(2^20 - 1) octets";
    f.tx = tx;
    if (f.pending == 0 && f.tx < 0)
        return "transactions incohérentes : " + plural(-f.tx, "octet livré", "octets livrés") +
               " de plus qu'annoncé par expect_tx pour la phase (toutes les arrivées sont là)";
    return {};
}

// ---- registre des attentes en échec, pour le chien de garde ---------------------------------

struct FailedWait {
    const detail::Launch* launch;
    uint3 block;
    uint3 thread;
    std::string barrier;
    std::uint64_t word;
    unsigned awaited_parity;
    std::chrono::steady_clock::time_point when;
};

std::mutex registry_mutex;
std::map<const detail::ThreadSlot*, FailedWait> failed_waits;

/** @brief Côté thread du système : la barrière attendue par chaque thread CUDA, et quand le
 *         registre commun a été mis à jour pour lui (une attente active n'y passe que toutes
 *         les 100 ms, pour ne pas sérialiser les blocs sur le verrou). */
struct LocalWait {
    const std::uint64_t* bar;
    std::chrono::steady_clock::time_point refreshed;
};
thread_local std::map<const detail::ThreadSlot*, LocalWait> local_waits;

void note_wait(const std::uint64_t* bar, bool done, unsigned awaited_parity, const std::source_location& where) {
    const auto local = local_waits.find(current_thread);
    if (done) {
        if (local == local_waits.end()) return;
        local_waits.erase(local);
        std::lock_guard lock(registry_mutex);
        failed_waits.erase(current_thread);
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (local != local_waits.end() && local->second.bar == bar &&
        now - local->second.refreshed < std::chrono::milliseconds(100))
        return;
    local_waits[current_thread] = {bar, now};
    FailedWait wait{current_block->launch, current_block->index, current_thread->index, barrier_name(bar, where),
                    std::atomic_ref<const std::uint64_t>(*bar).load(), awaited_parity, now};
    std::lock_guard lock(registry_mutex);
    failed_waits[current_thread] = std::move(wait);
}

/** @brief La phase de parité @p parity est terminée si la phase en cours a l'autre parité. */
bool phase_done(const std::uint64_t* bar, unsigned parity, const std::source_location& where) {
    check_barrier(bar, where);
    const Fields f = decode(std::atomic_ref<const std::uint64_t>(*bar).load());
    if (f.expected == 0)
        fail_current(barrier_name(bar, where) +
                     " : attente sur une barrière non initialisée ou invalidée (mbarrier.init manquant ?)");
    return f.parity != (parity & 1);
}

/** @brief test_wait ou try_wait : l'échec cède la main, try_wait regarde encore une fois après. */
bool wait(const std::uint64_t* bar, unsigned parity, bool retry, const std::source_location& where) {
    bool done = phase_done(bar, parity, where);
    if (!done) {
        note_wait(bar, false, parity, where);
        try {
            detail::yield_point();
        } catch (...) {  // lancement interrompu : le chien de garde a déjà lu le registre
            note_wait(bar, true, parity, where);
            throw;
        }
        if (retry) done = phase_done(bar, parity, where);
    }
    if (done) note_wait(bar, true, parity, where);
    return done;
}

}  // namespace

std::string mbarrier_state_text(std::uint64_t word) {
    const Fields f = decode(word);
    return "phase en cours de parité " + std::to_string(f.parity) + ", " +
           plural(f.pending, "arrivée restante", "arrivées restantes") + " sur " + std::to_string(f.expected) +
           " attendue" + (f.expected > 1 ? "s" : "") + ", " +
           plural(f.tx, "octet de transaction attendu", "octets de transaction attendus");
}

void mbarrier_init(std::uint64_t* bar, std::uint32_t count, std::source_location where) {
    check_barrier(bar, where);
    if (count == 0 || count > kMbarrierMaxCount)
        fail_current(barrier_name(bar, where) + " : mbarrier.init avec un compte de " + std::to_string(count) +
                     " arrivées, hors de [1, 2^20 - 1]");
    std::atomic_ref<std::uint64_t>(*bar).store(encode({count, count, 0, 0}));
    note_progress();
}

std::uint64_t mbarrier_arrive(std::uint64_t* bar, std::uint32_t count, std::source_location where) {
    return update(bar, where, "mbarrier.arrive", [&](Fields& f) { return arrive_problem(f, count, true); });
}

std::uint64_t mbarrier_arrive_no_complete(std::uint64_t* bar, std::uint32_t count, std::source_location where) {
    return update(bar, where, "mbarrier.arrive.noComplete",
                  [&](Fields& f) { return arrive_problem(f, count, false); });
}

std::uint64_t mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t tx_count, std::uint32_t count,
                                        std::source_location where) {
    return update(bar, where, "mbarrier.arrive.expect_tx", [&](Fields& f) {
        std::string problem = tx_problem(f, tx_count);
        // Les octets livrés avant l'annonce sont permis tant que des arrivées manquent.
        return problem.empty() ? arrive_problem(f, count, true) : problem;
    });
}

void mbarrier_expect_tx(std::uint64_t* bar, std::uint32_t tx_count, std::source_location where) {
    update(bar, where, "mbarrier.expect_tx", [&](Fields& f) { return tx_problem(f, tx_count); });
}

void mbarrier_complete_tx(std::uint64_t* bar, std::uint32_t tx_count, std::source_location where) {
    update(bar, where, "complete_tx", [&](Fields& f) { return tx_problem(f, -std::int64_t(tx_count)); });
}

bool mbarrier_test_wait(std::uint64_t* bar, std::uint64_t state, std::source_location where) {
    return wait(bar, unsigned(state >> kParityShift), false, where);
}

bool mbarrier_test_wait_parity(std::uint64_t* bar, std::uint32_t parity, std::source_location where) {
    return wait(bar, parity, false, where);
}

bool mbarrier_try_wait(std::uint64_t* bar, std::uint64_t state, std::uint32_t, std::source_location where) {
    return wait(bar, unsigned(state >> kParityShift), true, where);
}

bool mbarrier_try_wait_parity(std::uint64_t* bar, std::uint32_t parity, std::uint32_t, std::source_location where) {
    return wait(bar, parity, true, where);
}

void mbarrier_inval(std::uint64_t* bar, std::source_location where) {
    check_barrier(bar, where);
    std::atomic_ref<std::uint64_t>(*bar).store(0);  // compte attendu nul : « invalidée »
    note_progress();
}

}  // namespace simt::ptx

namespace simt::detail {

std::string mbarrier_waits_text(const Launch& launch) {
    // Seules comptent les attentes récentes : un thread interbloqué les renouvelle sans cesse,
    // un thread qui a renoncé à attendre ne doit pas être cité.
    const auto recent = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    std::lock_guard lock(ptx::registry_mutex);
    std::string text;
    int shown = 0;
    int others = 0;
    for (const auto& [slot, wait] : ptx::failed_waits) {
        if (wait.launch != &launch || wait.when < recent) continue;
        if (shown == 4) {
            ++others;
            continue;
        }
        text += " ; bloc " + coordinates(wait.block) + ", thread " +
                coordinates(wait.thread) + " : attend la fin de la phase de parité " +
                std::to_string(wait.awaited_parity) + " de la " + wait.barrier + ", qui ne viendra pas (" +
                ptx::mbarrier_state_text(wait.word) + ")";
        ++shown;
    }
    if (others > 0) text += " ; et " + std::to_string(others) + " autres threads qui attendent une mbarrier";
    return text;
}

}  // namespace simt::detail
