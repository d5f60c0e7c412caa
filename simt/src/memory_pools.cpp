/**
 * @file
 * @brief Allocation ordonnée par flux (cudaMallocAsync, cudaFreeAsync, réserves de mémoire)
 *        et indications sur la mémoire gérée (cudaMemPrefetchAsync, cudaMemAdvise).
 *
 * Le flux émulé étant synchrone, une allocation « ordonnée » est une allocation immédiate :
 * elle passe par cudaMalloc (registre des allocations, taille exacte pour AddressSanitizer),
 * et sa libération par cudaFree. Une réserve ne garde donc jamais de mémoire libérée : la
 * mémoire réservée est toujours celle qui est utilisée, et le seuil de libération n'a pas
 * d'effet. La réserve compte ses octets, pour cudaMemPoolGetAttribute.
 */
#include "internal.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

/** @brief Une réserve de mémoire : ses réglages et ce qu'elle a alloué. */
struct CUmemPoolHandle_st {
    std::uint64_t release_threshold = 0;
    int reuse_follow_event_dependencies = 1;
    int reuse_allow_opportunistic = 1;
    int reuse_allow_internal_dependencies = 1;
    std::uint64_t used = 0;
    std::uint64_t used_high = 0;
};

namespace simt::detail {
namespace {

struct Pools {
    std::mutex mutex;
    CUmemPoolHandle_st default_pool;
    cudaMemPool_t current = &default_pool;
    std::vector<std::unique_ptr<CUmemPoolHandle_st>> created;
    std::map<const void*, std::pair<cudaMemPool_t, std::size_t>> allocations;  // adresse → réserve, taille
};

Pools& pools() {
    static Pools instance;
    return instance;
}

bool known(cudaMemPool_t pool) {
    if (pool == &pools().default_pool) return true;
    return std::any_of(pools().created.begin(), pools().created.end(),
                       [pool](const auto& created) { return created.get() == pool; });
}

cudaError_t allocate_from(void** pointer, std::size_t size, cudaMemPool_t pool, cudaStream_t stream,
                          const char* api) {
    if (!pointer) return failure(cudaErrorInvalidValue);
    // Pendant une capture, l'allocation deviendrait un nœud d'allocation, non émulé.
    if (refused_during_capture(api, stream, "d'allocation", cudaErrorNotSupported)) return cudaErrorNotSupported;
    {
        std::lock_guard lock(pools().mutex);
        if (!known(pool)) return failure(cudaErrorInvalidValue);
    }
    if (const cudaError_t error = cudaMalloc(pointer, size); error != cudaSuccess) return error;
    if (*pointer == nullptr) return cudaSuccess;
    std::lock_guard lock(pools().mutex);
    pools().allocations[*pointer] = {pool, size};
    pool->used += size;
    pool->used_high = std::max(pool->used_high, pool->used);
    return cudaSuccess;
}

}  // namespace

void forget_pool_allocation(const void* pointer) {
    std::lock_guard lock(pools().mutex);
    const auto it = pools().allocations.find(pointer);
    if (it == pools().allocations.end()) return;
    it->second.first->used -= it->second.second;
    pools().allocations.erase(it);
}

}  // namespace simt::detail

using simt::detail::failure;
using simt::detail::pools;

cudaError_t cudaMallocAsync(void** pointer, size_t size, cudaStream_t stream) {
    cudaMemPool_t pool;
    {
        std::lock_guard lock(pools().mutex);
        pool = pools().current;
    }
    return simt::detail::allocate_from(pointer, size, pool, stream, "cudaMallocAsync");
}
cudaError_t cudaMallocFromPoolAsync(void** pointer, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
    if (!pool) return failure(cudaErrorInvalidValue);
    return simt::detail::allocate_from(pointer, size, pool, stream, "cudaMallocFromPoolAsync");
}
cudaError_t cudaFreeAsync(void* pointer, cudaStream_t stream) {
    if (simt::detail::refused_during_capture("cudaFreeAsync", stream, "d'allocation", cudaErrorNotSupported))
        return cudaErrorNotSupported;
    return cudaFree(pointer);  // oublie aussi l'allocation de sa réserve
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
    if (!pool) return failure(cudaErrorInvalidValue);
    if (device != 0) return failure(cudaErrorInvalidDevice);
    *pool = &pools().default_pool;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
    if (!pool) return failure(cudaErrorInvalidValue);
    if (device != 0) return failure(cudaErrorInvalidDevice);
    std::lock_guard lock(pools().mutex);
    *pool = pools().current;
    return cudaSuccess;
}
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
    if (device != 0) return failure(cudaErrorInvalidDevice);
    std::lock_guard lock(pools().mutex);
    if (!pool || !simt::detail::known(pool)) return failure(cudaErrorInvalidValue);
    pools().current = pool;
    return cudaSuccess;
}
cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* properties) {
    if (!pool || !properties || properties->allocType != cudaMemAllocationTypePinned)
        return failure(cudaErrorInvalidValue);
    if (properties->location.type != cudaMemLocationTypeDevice || properties->location.id != 0)
        return failure(cudaErrorInvalidDevice);
    if (properties->handleTypes != cudaMemHandleTypeNone) {
        simt::detail::report("simt : cudaMemPoolCreate : les réserves partageables entre processus ne sont pas émulées");
        return failure(cudaErrorNotSupported);
    }
    std::lock_guard lock(pools().mutex);
    pools().created.push_back(std::make_unique<CUmemPoolHandle_st>());
    *pool = pools().created.back().get();
    return cudaSuccess;
}
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
    std::lock_guard lock(pools().mutex);
    auto& created = pools().created;
    const auto it = std::find_if(created.begin(), created.end(), [pool](const auto& p) { return p.get() == pool; });
    if (it == created.end()) return failure(cudaErrorInvalidValue);  // inconnue, ou la réserve par défaut
    if (pools().current == pool) pools().current = &pools().default_pool;
    created.erase(it);
    return cudaSuccess;
}
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t) {
    std::lock_guard lock(pools().mutex);
    return pool && simt::detail::known(pool) ? cudaSuccess : failure(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) {
    if (!value) return failure(cudaErrorInvalidValue);
    std::lock_guard lock(pools().mutex);
    if (!pool || !simt::detail::known(pool)) return failure(cudaErrorInvalidValue);
    switch (attribute) {
        case cudaMemPoolReuseFollowEventDependencies:
            pool->reuse_follow_event_dependencies = *static_cast<int*>(value);
            return cudaSuccess;
        case cudaMemPoolReuseAllowOpportunistic:
            pool->reuse_allow_opportunistic = *static_cast<int*>(value);
            return cudaSuccess;
        case cudaMemPoolReuseAllowInternalDependencies:
            pool->reuse_allow_internal_dependencies = *static_cast<int*>(value);
            return cudaSuccess;
        case cudaMemPoolAttrReleaseThreshold:
            pool->release_threshold = *static_cast<std::uint64_t*>(value);
            return cudaSuccess;
        // Seule la remise à zéro des maxima est permise, comme dans CUDA.
        case cudaMemPoolAttrReservedMemHigh:
        case cudaMemPoolAttrUsedMemHigh:
            if (*static_cast<std::uint64_t*>(value) != 0) return failure(cudaErrorInvalidValue);
            pool->used_high = pool->used;
            return cudaSuccess;
        default: return failure(cudaErrorInvalidValue);
    }
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) {
    if (!value) return failure(cudaErrorInvalidValue);
    std::lock_guard lock(pools().mutex);
    if (!pool || !simt::detail::known(pool)) return failure(cudaErrorInvalidValue);
    switch (attribute) {
        case cudaMemPoolReuseFollowEventDependencies:
            *static_cast<int*>(value) = pool->reuse_follow_event_dependencies;
            return cudaSuccess;
        case cudaMemPoolReuseAllowOpportunistic:
            *static_cast<int*>(value) = pool->reuse_allow_opportunistic;
            return cudaSuccess;
        case cudaMemPoolReuseAllowInternalDependencies:
            *static_cast<int*>(value) = pool->reuse_allow_internal_dependencies;
            return cudaSuccess;
        case cudaMemPoolAttrReleaseThreshold:
            *static_cast<std::uint64_t*>(value) = pool->release_threshold;
            return cudaSuccess;
        // Rien n'est gardé en réserve après une libération : réservé = utilisé.
        case cudaMemPoolAttrReservedMemCurrent:
        case cudaMemPoolAttrUsedMemCurrent:
            *static_cast<std::uint64_t*>(value) = pool->used;
            return cudaSuccess;
        case cudaMemPoolAttrReservedMemHigh:
        case cudaMemPoolAttrUsedMemHigh:
            *static_cast<std::uint64_t*>(value) = pool->used_high;
            return cudaSuccess;
        default: return failure(cudaErrorInvalidValue);
    }
}

// ---- Mémoire gérée : indications sans effet (rien à migrer dans un seul espace d'adressage) --

namespace {

cudaError_t check_location(const cudaMemLocation& location) {
    switch (location.type) {
        case cudaMemLocationTypeDevice: return location.id == 0 ? cudaSuccess : failure(cudaErrorInvalidDevice);
        case cudaMemLocationTypeHost:
        case cudaMemLocationTypeHostNuma:
        case cudaMemLocationTypeHostNumaCurrent: return cudaSuccess;
        default: return failure(cudaErrorInvalidValue);
    }
}

}  // namespace

cudaError_t cudaMemPrefetchAsync(const void* pointer, size_t count, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t) {
    if ((!pointer && count != 0) || flags != 0) return failure(cudaErrorInvalidValue);
    return check_location(location);
}
cudaError_t cudaMemAdvise(const void* pointer, size_t count, cudaMemoryAdvise advice, cudaMemLocation location) {
    if ((!pointer && count != 0) || advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy)
        return failure(cudaErrorInvalidValue);
    // Seules la localisation préférée et l'accès déclaré nomment un lieu.
    if (advice == cudaMemAdviseSetPreferredLocation || advice == cudaMemAdviseSetAccessedBy ||
        advice == cudaMemAdviseUnsetAccessedBy)
        return check_location(location);
    return cudaSuccess;
}
