/**
 * @file
 * @brief Fenêtre de la mémoire partagée sur 32 bits (voir simt/shared_window.hpp) : la
 *        mémoire partagée dynamique de chaque thread du système, et la conversion entre
 *        pointeurs génériques et adresses partagées, vérifiée.
 */
#include "execution.hpp"
#include "simt/shared_window.hpp"

#include <link.h>

#include <cstdio>
#include <string>

namespace simt::detail {

/** @brief La mémoire partagée dynamique du bloc qu'exécute ce thread du système ; ancre des adresses partagées. */
alignas(kSharedWindowAlignment) thread_local constinit std::byte shared_window[kSharedWindowBytes];

namespace {

/** @brief Le segment TLS de l'exécutable pour ce thread du système : les `__shared__` statiques y sont. */
struct TlsRange {
    const std::byte* begin = nullptr;
    const std::byte* end = nullptr;
};

TlsRange find_tls_range() {
    TlsRange range;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) -> int {
            if (info->dlpi_tls_data == nullptr) return 0;
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                if (info->dlpi_phdr[i].p_type != PT_TLS) continue;
                const auto* begin = static_cast<const std::byte*>(info->dlpi_tls_data);
                const auto* end = begin + info->dlpi_phdr[i].p_memsz;
                if (begin <= shared_window && shared_window < end) {
                    *static_cast<TlsRange*>(data) = {begin, end};
                    return 1;
                }
            }
            return 0;
        },
        &range);
    if (range.begin == nullptr) range = {shared_window, shared_window + kSharedWindowBytes};
    return range;
}

const TlsRange& tls_range() {
    thread_local const TlsRange range = find_tls_range();
    return range;
}

std::string hex(std::uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

[[noreturn]] void refuse(const std::string& problem, const std::source_location& where) {
    const std::string message = problem + " (" + location(where) + ")";
    if (current_block == nullptr || current_thread == nullptr) {
        std::fprintf(stderr, "simt : %s, hors d'un noyau\n", message.c_str());
        std::abort();
    }
    fail_current(message);
}

std::size_t dynamic_bytes() {
    return current_block != nullptr ? current_block->launch->shape.dynamic_shared_bytes : 0;
}

/**
 * @brief Vide si [@p p, @p p + @p bytes) est dans la mémoire partagée du bloc ; sinon,
 *        pourquoi. La mémoire dynamique compte jusqu'à la taille demandée au lancement.
 */
std::string outside(const std::byte* p, std::size_t bytes) {
    if (current_block == nullptr) return "hors d'un bloc en cours";
    if (p >= shared_window && p < shared_window + kSharedWindowBytes) {
        const std::size_t offset = std::size_t(p - shared_window);
        if (offset + bytes <= dynamic_bytes()) return {};
        return "au-delà des " + std::to_string(dynamic_bytes()) +
               " octets de mémoire partagée dynamique demandés au lancement (décalage " +
               std::to_string(offset) + ", " + std::to_string(bytes) + " octets)";
    }
    const TlsRange& tls = tls_range();
    if (p >= tls.begin && p + bytes <= tls.end) return {};
    return "ni une variable __shared__ ni la mémoire partagée dynamique du bloc";
}

}  // namespace

std::byte* dynamic_shared_window() { return shared_window; }

std::string resolve_shared(std::uint32_t shared_address, std::size_t bytes, void*& pointer) {
    // Décalage signé : les __shared__ statiques peuvent précéder le tableau dynamique dans le TLS.
    auto* p = reinterpret_cast<std::byte*>(reinterpret_cast<std::intptr_t>(shared_window) +
                                           static_cast<std::int32_t>(shared_address));
    if (std::string why = outside(p, bytes); !why.empty())
        return "adresse partagée " + hex(shared_address) + " hors de la mémoire partagée du bloc : " + why;
    pointer = p;
    return {};
}

}  // namespace simt::detail

namespace simt {

using detail::shared_window;

std::uint32_t shared_address(const void* generic, const std::source_location& where) {
    const auto* p = static_cast<const std::byte*>(generic);
    // Un pointeur juste après la fin de la mémoire dynamique est une borne, pas un accès.
    if (const std::string why = detail::outside(p, 0); !why.empty())
        detail::refuse("adresse partagée demandée pour le pointeur " +
                           detail::hex(reinterpret_cast<std::uintptr_t>(generic)) + ", " + why,
                       where);
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p) -
                                      reinterpret_cast<std::uintptr_t>(shared_window));
}

void* shared_pointer(std::uint32_t shared_address, std::size_t bytes, const std::source_location& where) {
    void* pointer = nullptr;
    if (const std::string why = detail::resolve_shared(shared_address, bytes, pointer); !why.empty())
        detail::refuse(why, where);
    return pointer;
}

void* shared_pointer(std::uint32_t shared_address, const std::source_location& where) {
    return shared_pointer(shared_address, 0, where);
}

bool is_shared(const void* generic) {
    return detail::current_block != nullptr &&
           detail::outside(static_cast<const std::byte*>(generic), 0).empty();
}

}  // namespace simt
