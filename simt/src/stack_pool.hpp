/**
 * @file
 * @brief Piles des fibres, recyclées d'un lancement à l'autre : un bloc de 1024 threads
 *        n'appelle pas mmap 1024 fois. Une page de garde sous chaque pile transforme un
 *        débordement de pile en erreur de segmentation plutôt qu'en corruption silencieuse.
 */
#pragma once

#include <boost/context/stack_context.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <new>
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
        if (base == nullptr) {
            const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
            base = mmap(nullptr, kStackBytes + page, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (base == MAP_FAILED) throw std::bad_alloc();
            mprotect(base, page, PROT_NONE);  // page de garde
            base = static_cast<char*>(base) + page;
        }
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
