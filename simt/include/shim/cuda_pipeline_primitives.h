/**
 * @file
 * @brief Copies asynchrones (cp.async) pour l'émulateur simt : remplace l'en-tête du
 *        toolkit, écrit en assembleur PTX. Une copie n'a lieu qu'à l'attente qui la couvre
 *        (__pipeline_wait_prior) : un noyau qui lit sa tuile sans l'attendre lit l'ancienne.
 */
#pragma once

#include <cstddef>
#include <source_location>

inline void __pipeline_memcpy_async(void* __restrict__ destination, const void* __restrict__ source,
                                    std::size_t size_and_align, std::size_t zero_fill = 0,
                                    const std::source_location& where = std::source_location::current()) {
    simt::detail::async_copy(destination, source, size_and_align, zero_fill, where);
}

inline void __pipeline_commit() { simt::detail::async_commit(); }

inline void __pipeline_wait_prior(std::size_t prior) { simt::detail::async_wait_prior(prior); }
