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

#include <cstddef>
#include <mutex>
#include <new>
#include <vector>

namespace simt::detail {

class PooledStack {
public:
    static constexpr std::size_t kStackBytes = 256 * 1024;

    boost::context::stack_context allocate() {
        void* base = nullptr;
        {
            std::lock_guard lock(mutex());
            if (!free_stacks().empty()) {
                base = free_stacks().back();
                free_stacks().pop_back();
            }
        }
        if (base == nullptr) {
            const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
            base = mmap(nullptr, kStackBytes + page, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (base == MAP_FAILED) throw std::bad_alloc();
            mprotect(base, page, PROT_NONE);  // page de garde
            base = static_cast<char*>(base) + page;
        }
        boost::context::stack_context stack;
        stack.size = kStackBytes;
        stack.sp = static_cast<char*>(base) + kStackBytes;  // la pile descend
        return stack;
    }

    void deallocate(boost::context::stack_context& stack) noexcept {
        std::lock_guard lock(mutex());
        free_stacks().push_back(static_cast<char*>(stack.sp) - kStackBytes);
    }

private:
    // Réserve commune à tous les threads du système : ceux d'un lancement meurent avec lui.
    static std::vector<void*>& free_stacks() {
        static std::vector<void*> stacks;
        return stacks;
    }
    static std::mutex& mutex() {
        static std::mutex lock;
        return lock;
    }
};

}  // namespace simt::detail
