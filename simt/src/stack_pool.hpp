/**
 * @file
 * @brief Piles des fibres, recyclées d'un lancement à l'autre : un bloc de 1024 threads
 *        n'appelle pas mmap 1024 fois. Une page de garde sous chaque pile transforme un
 *        débordement de pile en erreur de segmentation plutôt qu'en corruption silencieuse.
 *
 * Chaque pile gardée coûte deux zones de mémoire au noyau du système, qui en limite le nombre
 * par processus (vm.max_map_count, 65 530 par défaut sous Linux) : une grille émulée avec
 * beaucoup de multiprocesseurs (SIMT_SM=132 : jusqu'à 270 336 threads résidents) les
 * épuiserait. Au-delà d'un quart de cette limite, les piles sont donc prises par lots de 64
 * dans une seule zone, sans page de garde.
 */
#pragma once

#include <boost/context/stack_context.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <vector>

namespace simt::detail {

class PooledStack {
public:
    static constexpr std::size_t kStackBytes = 256 * 1024;
    /**
     * Décalage du sommet de pile, différent d'une pile à l'autre (64 couleurs de 64 octets) :
     * des sommets tous alignés sur une page tomberaient dans les mêmes ensembles du cache L1,
     * que les changements de fibre se disputeraient.
     */
    static constexpr std::size_t kColourBytes = 64;
    static constexpr unsigned kColours = 64;

    boost::context::stack_context allocate() {
        void* base = local().take();
        if (base == nullptr) base = guarded_budget_left() ? map_guarded() : take_unguarded();
        const std::size_t colour = kColourBytes * (local().next_colour++ % kColours);
        boost::context::stack_context stack;
        stack.size = kStackBytes - colour;
        stack.sp = static_cast<char*>(base) + stack.size;  // la pile descend
        return stack;
    }

    void deallocate(boost::context::stack_context& stack) noexcept {
        local().stacks.push_back(static_cast<char*>(stack.sp) - stack.size);
    }

private:
    static constexpr std::size_t kBatch = 64;  ///< piles sans garde prises d'une seule zone

    static std::size_t page_bytes() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

    /** @brief Une zone de @p bytes octets, réservée sans être engagée ; arrêt net si refusée. */
    static char* map(std::size_t bytes) {
        void* base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED) {
            // Rien à rendre au programme : la fibre ne peut pas naître. Un message, pas un plantage.
            std::fprintf(stderr, "simt : plus de mémoire pour les piles des threads émulés (%zu Kio chacune) ; "
                                 "réduire SIMT_SM ou la taille des blocs\n", kStackBytes / 1024);
            std::_Exit(2);
        }
        return static_cast<char*>(base);
    }

    /** @brief Vrai tant que les piles gardées restent sous un quart de vm.max_map_count. */
    static bool guarded_budget_left() {
        static const long budget = [] {
            long limit = 65530;
            std::ifstream("/proc/sys/vm/max_map_count") >> limit;
            return limit / 4 / 2;  // deux zones par pile gardée
        }();
        static std::atomic<long> guarded{0};
        return guarded.fetch_add(1, std::memory_order_relaxed) < budget;
    }

    /** @brief Une pile précédée de sa page de garde. */
    static void* map_guarded() {
        char* base = map(kStackBytes + page_bytes());
        mprotect(base, page_bytes(), PROT_NONE);
        return base + page_bytes();
    }

    /** @brief Une pile sans garde, prise dans un lot de kBatch piles contiguës. */
    static void* take_unguarded() {
        char* batch = map(kBatch * kStackBytes);
        for (std::size_t i = 1; i < kBatch; ++i) local().stacks.push_back(batch + i * kStackBytes);
        return batch;
    }

    /**
     * Piles libres de ce thread du système, sans verrou : une fibre est créée et détruite
     * par le thread qui exécute son bloc. Elles passent à la réserve commune quand il se
     * termine (les threads d'un lancement meurent avec lui, ceux d'un rejeu à chaque bloc).
     */
    struct LocalStacks {
        std::vector<void*> stacks;
        unsigned next_colour = 0;

        void* take() {
            if (stacks.empty()) {
                std::lock_guard lock(mutex());
                if (shared().empty()) return nullptr;
                // Une moitié de la réserve au plus : les autres threads en ont aussi besoin.
                const std::size_t count = std::max<std::size_t>(1, std::min<std::size_t>(shared().size() / 2, 64));
                stacks.assign(shared().end() - static_cast<std::ptrdiff_t>(count), shared().end());
                shared().resize(shared().size() - count);
            }
            void* base = stacks.back();
            stacks.pop_back();
            return base;
        }

        ~LocalStacks() {
            std::lock_guard lock(mutex());
            shared().insert(shared().end(), stacks.begin(), stacks.end());
        }
    };

    static LocalStacks& local() {
        thread_local LocalStacks stacks;
        return stacks;
    }
    static std::vector<void*>& shared() {
        static auto* stacks = new std::vector<void*>;  // jamais détruite : des threads peuvent finir après main
        return *stacks;
    }
    static std::mutex& mutex() {
        static auto* lock = new std::mutex;
        return *lock;
    }
};

}  // namespace simt::detail
