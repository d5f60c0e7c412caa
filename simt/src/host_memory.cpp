/**
 * @file
 * @brief Mémoire de l'hôte « verrouillée » et projetée : cudaMallocHost, cudaHostAlloc,
 *        cudaHostRegister et leurs contreparties. Le périphérique émulé partage l'espace
 *        d'adressage du processus : une plage projetée a la même adresse des deux côtés
 *        (ce que CUDA garantit aussi avec l'adressage unifié), si bien qu'un noyau lit et
 *        écrit directement la mémoire de l'hôte, sans copie.
 */
#include "internal.hpp"

#include <cstdlib>
#include <map>
#include <mutex>

namespace simt::detail {
namespace {

struct HostRange {
    std::size_t size;
    unsigned flags;
    bool owned;  // allouée ici (cudaMallocHost, cudaHostAlloc) ; sinon enregistrée
};

struct HostRegistry {
    std::mutex mutex;
    std::map<const std::byte*, HostRange> ranges;  // début → plage
};

HostRegistry& registry() {
    static HostRegistry instance;
    return instance;
}

/** Plage qui contient @p pointer, ou end(). Appelée sous le verrou. */
std::map<const std::byte*, HostRange>::iterator find_range(const void* pointer) {
    auto& ranges = registry().ranges;
    const auto* address = static_cast<const std::byte*>(pointer);
    auto it = ranges.upper_bound(address);
    if (it == ranges.begin()) return ranges.end();
    --it;
    return address < it->first + it->second.size ? it : ranges.end();
}

bool overlaps(const std::byte* begin, std::size_t size) {
    auto& ranges = registry().ranges;
    auto it = ranges.upper_bound(begin);
    if (it != ranges.end() && it->first < begin + size) return true;
    if (it == ranges.begin()) return false;
    --it;
    return begin < it->first + it->second.size;
}

cudaError_t allocate(void** pointer, std::size_t size, unsigned flags) {
    if (!pointer) return failure(cudaErrorInvalidValue);
    void* memory = std::malloc(size == 0 ? 1 : size);
    if (!memory) return failure(cudaErrorMemoryAllocation);
    {
        std::lock_guard lock(registry().mutex);
        registry().ranges[static_cast<const std::byte*>(memory)] = {size == 0 ? 1 : size, flags, true};
    }
    register_replay_region(memory, size, "mémoire hôte épinglée");  // restaurée par SIMT_ORDRES
    *pointer = memory;
    return cudaSuccess;
}

}  // namespace

std::vector<std::pair<void*, std::size_t>> pinned_host_ranges() {
    std::lock_guard lock(registry().mutex);
    std::vector<std::pair<void*, std::size_t>> result;
    for (const auto& [begin, range] : registry().ranges)
        result.emplace_back(const_cast<std::byte*>(begin), range.size);
    return result;
}

}  // namespace simt::detail

using simt::detail::failure;
using simt::detail::registry;

cudaError_t cudaMallocHost(void** pointer, size_t size) {
    return simt::detail::allocate(pointer, size, cudaHostAllocDefault);
}
cudaError_t cudaHostAlloc(void** pointer, size_t size, unsigned int flags) {
    if (flags & ~unsigned(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
        return failure(cudaErrorInvalidValue);
    return simt::detail::allocate(pointer, size, flags);
}
cudaError_t cudaFreeHost(void* pointer) {
    if (!pointer) return cudaSuccess;
    {
        std::lock_guard lock(registry().mutex);
        const auto it = registry().ranges.find(static_cast<const std::byte*>(pointer));
        if (it == registry().ranges.end() || !it->second.owned) return failure(cudaErrorInvalidValue);
        registry().ranges.erase(it);
    }
    simt::detail::unregister_replay_region(pointer);
    std::free(pointer);
    return cudaSuccess;
}

cudaError_t cudaHostRegister(void* pointer, size_t size, unsigned int flags) {
    constexpr unsigned kKnown = cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory |
                                cudaHostRegisterReadOnly;
    if (!pointer || size == 0 || (flags & ~kKnown)) return failure(cudaErrorInvalidValue);
    if (flags & cudaHostRegisterIoMemory) {
        simt::detail::report("simt : cudaHostRegister avec cudaHostRegisterIoMemory : il n'y a pas de "
                             "bus PCIe émulé, une plage d'entrées-sorties ne peut pas être projetée");
        return failure(cudaErrorNotSupported);
    }
    std::lock_guard lock(registry().mutex);
    const auto* begin = static_cast<const std::byte*>(pointer);
    if (simt::detail::overlaps(begin, size)) return failure(cudaErrorHostMemoryAlreadyRegistered);
    registry().ranges[begin] = {size, flags, false};
    simt::detail::register_replay_region(pointer, size, "mémoire hôte enregistrée");  // SIMT_ORDRES
    return cudaSuccess;
}
cudaError_t cudaHostUnregister(void* pointer) {
    std::lock_guard lock(registry().mutex);
    const auto it = registry().ranges.find(static_cast<const std::byte*>(pointer));
    if (!pointer || it == registry().ranges.end() || it->second.owned)
        return failure(cudaErrorHostMemoryNotRegistered);
    registry().ranges.erase(it);
    simt::detail::unregister_replay_region(pointer);
    return cudaSuccess;
}

// Avec l'adressage unifié, toute mémoire verrouillée est projetée : l'adresse vue par le
// périphérique est celle de l'hôte.
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int flags) {
    if (!device || !host || flags != 0) return failure(cudaErrorInvalidValue);
    std::lock_guard lock(registry().mutex);
    if (simt::detail::find_range(host) == registry().ranges.end()) return failure(cudaErrorInvalidValue);
    *device = host;
    return cudaSuccess;
}
cudaError_t cudaHostGetFlags(unsigned int* flags, void* host) {
    if (!flags || !host) return failure(cudaErrorInvalidValue);
    std::lock_guard lock(registry().mutex);
    const auto it = simt::detail::find_range(host);
    if (it == registry().ranges.end()) return failure(cudaErrorInvalidValue);
    *flags = it->second.flags;
    return cudaSuccess;
}
