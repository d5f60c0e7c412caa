/**
 * @file
 * @brief Copies asynchrones (cp.async, __pipeline_memcpy_async) : chaque thread garde ses
 *        copies en attente, par groupe ; une copie n'a lieu qu'à l'attente qui la couvre
 *        (__pipeline_wait_prior). Un noyau qui lit sa tuile avant de l'attendre lit donc
 *        l'ancienne, ce qui rend visible l'attente oubliée.
 */
#include "execution.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

namespace simt::detail {

void async_copy(void* destination, const void* source, std::size_t size, std::size_t zero_fill,
                const std::source_location& where) {
    const bool valid_size = size == 4 || size == 8 || size == 16;  // avant le modulo : size peut valoir 0
    const bool aligned = valid_size && reinterpret_cast<std::uintptr_t>(destination) % size == 0 &&
                         reinterpret_cast<std::uintptr_t>(source) % size == 0;
    if (!valid_size || zero_fill > size || !aligned)
        fail_current("copie asynchrone invalide (" + location(where) + ") : " + std::to_string(size) +
                     " octets, dont " + std::to_string(zero_fill) +
                     " mis à zéro ; attendu 4, 8 ou 16 octets alignés sur leur taille");
    current_thread->open_group.push_back({destination, source, size, zero_fill});
}

void async_commit() {
    ThreadSlot& self = *current_thread;
    self.committed.push_back(std::move(self.open_group));
    self.open_group.clear();
}

void async_wait_prior(std::size_t prior) {
    auto& groups = current_thread->committed;
    while (groups.size() > prior) {
        for (const AsyncCopy& copy : groups.front()) {
            std::memcpy(copy.destination, copy.source, copy.size - copy.zero_fill);
            std::memset(static_cast<char*>(copy.destination) + copy.size - copy.zero_fill, 0, copy.zero_fill);
        }
        groups.erase(groups.begin());
    }
}

}  // namespace simt::detail
