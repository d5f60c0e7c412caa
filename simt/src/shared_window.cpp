/**
 * @file
 * @brief PROVISOIRE (branche wgmma) : voir simt/shared_window.hpp ; remplacé par celui du
 *        cadre PTX à la fusion.
 */
#include "execution.hpp"
#include "simt/shared_window.hpp"

#include <string>

namespace simt::detail {

std::string resolve_shared(std::uint32_t shared_address, std::size_t bytes, void*& pointer) {
    if (current_block == nullptr) return "hors d'un bloc en cours";
    const std::size_t size = current_block->launch->shape.dynamic_shared_bytes;
    if (std::size_t{shared_address} + bytes > size)
        return "adresse partagée " + std::to_string(shared_address) + " hors des " + std::to_string(size) +
               " octets de mémoire partagée dynamique";
    pointer = current_block->dynamic_shared + shared_address;
    return {};
}

}  // namespace simt::detail

namespace simt {

std::uint32_t shared_address(const void* generic, const std::source_location& where) {
    const auto* p = static_cast<const std::byte*>(generic);
    const std::byte* base = detail::current_block->dynamic_shared;
    if (p < base || p > base + detail::current_block->launch->shape.dynamic_shared_bytes)
        detail::fail_current("pointeur hors de la mémoire partagée dynamique (" + detail::location(where) + ")");
    return static_cast<std::uint32_t>(p - base);
}

void* shared_pointer(std::uint32_t shared_address, std::size_t bytes, const std::source_location& where) {
    void* pointer = nullptr;
    if (const std::string why = detail::resolve_shared(shared_address, bytes, pointer); !why.empty())
        detail::fail_current(why + " (" + detail::location(where) + ")");
    return pointer;
}

}  // namespace simt
