/**
 * @file
 * @brief Copies du TMA côté noyau (voir include/simt/ptx/tma.hpp) : parcours de la boîte d'une
 *        carte de tenseur (tensor_map.hpp), remplissage hors limites, swizzle, complete_tx sur
 *        la mbarrier ; copies en bloc à une dimension.
 */
#include "simt/ptx/tma.hpp"

#include "simt/ptx/mbarrier.hpp"
#include "simt/cluster_window.hpp"
#include "simt/shared_window.hpp"

#include "execution.hpp"
#include "tensor_map.hpp"

#include <cstdint>
#include <cstring>
#include <string>

namespace simt::ptx {

namespace {

using detail::fail_current;
using detail::location;
using detail::TensorMapInfo;

TensorMapInfo read_map(const void* tensor_map, std::size_t rank, const char* operation,
                       const std::source_location& where) {
    TensorMapInfo info;
    if (tensor_map == nullptr || reinterpret_cast<std::uintptr_t>(tensor_map) % 64 != 0 ||
        !detail::decode_tensor_map(static_cast<const std::uint64_t*>(tensor_map), info))
        fail_current(std::string(operation) + " (" + location(where) +
                     ") : la carte de tenseur n'a pas été écrite par cuTensorMapEncodeTiled (ou n'est pas "
                     "alignée sur 64 octets)");
    if (info.rank != rank)
        fail_current(std::string(operation) + " (" + location(where) + ") : " + std::to_string(rank) +
                     " coordonnées pour une carte de rang " + std::to_string(info.rank));
    return info;
}

/** @brief Le tampon @p what doit être dans la mémoire partagée du bloc, aligné sur @p alignment octets. */
void check_shared(const void* pointer, std::size_t bytes, unsigned alignment, const char* what,
                  const char* operation, const std::source_location& where) {
    if (!simt::is_shared(pointer) || !simt::is_shared(static_cast<const std::byte*>(pointer) + bytes - 1))
        fail_current(std::string(operation) + " (" + location(where) + ") : " + what +
                     " hors de la mémoire partagée du bloc (" + std::to_string(bytes) + " octets)");
    if (reinterpret_cast<std::uintptr_t>(pointer) % alignment != 0)
        fail_current(std::string(operation) + " (" + location(where) + ") : " + what + " non alignée sur " +
                     std::to_string(alignment) + " octets");
}

void check_alignment(const void* pointer, unsigned alignment, const char* what, const char* operation,
                     const std::source_location& where) {
    if (reinterpret_cast<std::uintptr_t>(pointer) % alignment != 0)
        fail_current(std::string(operation) + " (" + location(where) + ") : " + what + " non alignée sur " +
                     std::to_string(alignment) + " octets");
}

/**
 * @brief Parcourt la boîte dans l'ordre de la mémoire partagée (dimension intérieure d'abord) et
 *        appelle @p visit(octet de la boîte, adresse globale de l'élément ou nullptr hors limites).
 * @return les octets de la boîte
 */
/** @brief Octets de la boîte en mémoire partagée (éléments parcourus × taille d'un élément). */
std::uint64_t box_bytes(const TensorMapInfo& map) {
    std::uint64_t elements = 1;
    for (unsigned i = 0; i < map.rank; ++i)
        elements *= (map.box[i] + map.element_strides[i] - 1) / map.element_strides[i];
    return elements * map.element_size;
}

template <class Visit>
std::uint64_t for_each_element(const TensorMapInfo& map, std::initializer_list<std::int32_t> coords, Visit visit) {
    std::int64_t start[5]{};
    unsigned count[5]{};
    std::uint64_t elements = 1;
    unsigned i = 0;
    for (std::int32_t c : coords) start[i++] = c;
    for (i = 0; i < 5; ++i) {
        // Un pas e parcourt ceil(box / e) éléments (cuda.h, elementStrides).
        count[i] = i < map.rank ? (map.box[i] + map.element_strides[i] - 1) / map.element_strides[i] : 1;
        elements *= count[i];
    }
    unsigned index[5]{};
    for (std::uint64_t n = 0; n < elements; ++n) {
        bool inside = true;
        std::uint64_t offset = 0;
        for (i = 0; i < map.rank; ++i) {
            const std::int64_t coordinate = start[i] + std::int64_t(index[i]) * map.element_strides[i];
            if (coordinate < 0 || std::uint64_t(coordinate) >= map.dims[i]) inside = false;
            else offset += std::uint64_t(coordinate) * map.strides[i];
        }
        visit(n * map.element_size, inside ? reinterpret_cast<std::byte*>(map.address + offset) : nullptr);
        for (i = 0; i < 5 && ++index[i] == count[i]; ++i) index[i] = 0;
    }
    return elements * map.element_size;
}

/** @brief Ce que le TMA écrit pour un élément hors limites : zéro, ou NaN si la carte le demande. */
void out_of_bounds_value(const TensorMapInfo& map, std::byte* element) {
    std::memset(element, 0, map.element_size);
    if (!map.nan_fill) return;
    // Le motif exact du « NaN spécial » n'est pas documenté : un NaN silencieux, tous les bits
    // de mantisse à 1.
    const std::uint64_t nan = map.element_size == 2 ? 0x7fffu
                              : map.element_size == 4 ? 0x7fffffffu
                                                      : 0x7fffffffffffffffull;
    std::memcpy(element, &nan, map.element_size);
}

std::byte* swizzled(const void* base, std::uint64_t offset, unsigned swizzle) {
    const auto address = reinterpret_cast<std::uintptr_t>(base);
    return reinterpret_cast<std::byte*>(tma_swizzled_address(address, offset, swizzle));
}

}  // namespace

namespace {

/** @brief Écrit la boîte à @p destination (déjà vérifiée), swizzle compris ; rend ses octets. */
std::uint32_t load_box(void* destination, const TensorMapInfo& map, std::initializer_list<std::int32_t> coords) {
    return std::uint32_t(for_each_element(map, coords, [&](std::uint64_t offset, const std::byte* global) {
        std::byte* element = swizzled(destination, offset, map.swizzle);
        if (global) std::memcpy(element, global, map.element_size);
        else out_of_bounds_value(map, element);
    }));
}

}  // namespace

void cp_async_bulk_tensor_load(void* destination, const void* tensor_map, std::uint64_t* bar,
                               std::initializer_list<std::int32_t> coords, std::source_location where) {
    const char* operation = "cp.async.bulk.tensor (chargement)";
    const TensorMapInfo map = read_map(tensor_map, coords.size(), operation, where);
    check_shared(destination, box_bytes(map), 128, "destination", operation, where);
    mbarrier_complete_tx(bar, load_box(destination, map, coords), where);
}

void cp_async_bulk_tensor_load_multicast(std::uint32_t destination, const void* tensor_map, std::uint32_t bar,
                                         std::initializer_list<std::int32_t> coords, std::uint16_t cta_mask,
                                         std::source_location where) {
    const char* operation = "cp.async.bulk.tensor.multicast::cluster (chargement)";
    const TensorMapInfo map = read_map(tensor_map, coords.size(), operation, where);
    if (cta_mask == 0)
        fail_current(std::string(operation) + " (" + location(where) + ") : masque de blocs ctaMask nul");
    if (destination % 128 != 0)
        fail_current(std::string(operation) + " (" + location(where) + ") : destination non alignée sur 128 octets");
    const std::uint64_t bytes = box_bytes(map);
    for (unsigned rank = 0; rank < 16; ++rank) {
        if (!(cta_mask >> rank & 1)) continue;
        // Même décalage dans chaque bloc visé : mapa, puis la fenêtre .shared::cluster (cluster_window.hpp).
        void* target = simt::cluster_shared_pointer(simt::cluster_shared_address(destination, rank, where),
                                                    std::size_t(bytes), where);
        auto* target_bar = static_cast<std::uint64_t*>(
            simt::cluster_shared_pointer(simt::cluster_shared_address(bar, rank, where), 8, where));
        mbarrier_complete_tx(target_bar, load_box(target, map, coords), where);
    }
}

void cp_async_bulk_tensor_store(const void* tensor_map, std::initializer_list<std::int32_t> coords,
                                const void* source, std::source_location where) {
    const char* operation = "cp.async.bulk.tensor (écriture)";
    const TensorMapInfo map = read_map(tensor_map, coords.size(), operation, where);
    check_shared(source, box_bytes(map), 128, "source", operation, where);
    for_each_element(map, coords, [&](std::uint64_t offset, std::byte* global) {
        if (global) std::memcpy(global, swizzled(source, offset, map.swizzle), map.element_size);
    });
    detail::yield_point();
}

void cp_async_bulk_load(void* destination, const void* source, std::uint32_t size, std::uint64_t* bar,
                        std::source_location where) {
    const char* operation = "cp.async.bulk (chargement)";
    check_shared(destination, size == 0 ? 1 : size, 16, "destination", operation, where);
    check_alignment(source, 16, "source", operation, where);
    if (size % 16 != 0)
        fail_current(std::string(operation) + " (" + location(where) + ") : " + std::to_string(size) +
                     " octets, pas un multiple de 16");
    std::memcpy(destination, source, size);
    mbarrier_complete_tx(bar, size, where);
}

void cp_async_bulk_store(void* destination, const void* source, std::uint32_t size, std::source_location where) {
    const char* operation = "cp.async.bulk (écriture)";
    check_alignment(destination, 16, "destination", operation, where);
    check_shared(source, size == 0 ? 1 : size, 16, "source", operation, where);
    if (size % 16 != 0)
        fail_current(std::string(operation) + " (" + location(where) + ") : " + std::to_string(size) +
                     " octets, pas un multiple de 16");
    std::memcpy(destination, source, size);
    detail::yield_point();
}

}  // namespace simt::ptx
