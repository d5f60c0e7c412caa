/**
 * @file
 * @brief Sous-ensemble de l'API runtime CUDA, émulé sur le processeur. Les déclarations
 *        viennent de cuda_runtime_api.h du toolkit ; ce fichier en donne les définitions.
 *        Les flux s'exécutent dans l'ordre, de façon synchrone : un lancement est terminé
 *        quand il rend la main.
 */
#include "internal.hpp"
#include "simt/control.hpp"
#include "simt/engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <string>

namespace simt::detail {
namespace {

constexpr std::size_t kAllocationAlignment = 256;  // comme cudaMalloc

struct State {
    std::mutex mutex;
    std::map<const std::byte*, std::size_t> allocations;  // début → taille
    std::map<const void*, std::size_t> shared_limits;     // noyau → mémoire partagée dynamique
    std::string diagnostic;
    bool quiet = false;
    int orders = 0;  // 0 : lire SIMT_ORDRES
};

State& state() {
    static State instance;
    return instance;
}

std::atomic<cudaError_t> last_error{cudaSuccess};
std::atomic<cudaError_t> sticky{cudaSuccess};

bool is_device_allocation(const void* pointer) {
    std::lock_guard lock(state().mutex);
    const auto* address = static_cast<const std::byte*>(pointer);
    auto it = state().allocations.upper_bound(address);
    if (it == state().allocations.begin()) return false;
    --it;
    return address < it->first + it->second || address == it->first;
}

cudaError_t fail(cudaError_t error) {
    record_error(error);
    return error;
}

}  // namespace

cudaError_t failure(cudaError_t error) { return fail(error); }

void record_error(cudaError_t error) {
    if (error != cudaSuccess) last_error = error;
}
cudaError_t sticky_error() { return sticky.load(); }
void set_sticky_error(cudaError_t error) {
    sticky = error;
    last_error = error;
}
void clear_errors() {
    sticky = cudaSuccess;
    last_error = cudaSuccess;
}

void report(const std::string& message) {
    std::lock_guard lock(state().mutex);
    state().diagnostic = message;
    if (!state().quiet) std::fprintf(stderr, "%s\n", message.c_str());
}

std::size_t dynamic_shared_limit(const void* kernel) {
    std::lock_guard lock(state().mutex);
    const auto it = state().shared_limits.find(kernel);
    return it == state().shared_limits.end() ? emulated_properties().sharedMemPerBlock : it->second;
}

int thread_orders() {
    std::lock_guard lock(state().mutex);
    if (state().orders > 0) return state().orders;
    const char* text = std::getenv("SIMT_ORDRES");
    return text ? std::max(1, std::atoi(text)) : 1;
}

MemorySnapshot snapshot_device_memory() {
    std::lock_guard lock(state().mutex);
    MemorySnapshot snapshot;
    for (const auto& [begin, size] : state().allocations)
        snapshot.emplace_back(const_cast<std::byte*>(begin), std::vector<std::byte>(begin, begin + size));
    return snapshot;
}

void restore_device_memory(const MemorySnapshot& snapshot) {
    for (const auto& [begin, bytes] : snapshot) std::memcpy(begin, bytes.data(), bytes.size());
}

}  // namespace simt::detail

namespace simt {

void set_thread_orders(int orders) {
    std::lock_guard lock(detail::state().mutex);
    detail::state().orders = std::max(1, orders);
}

std::string last_diagnostic() {
    std::lock_guard lock(detail::state().mutex);
    return detail::state().diagnostic;
}

void clear_diagnostic() {
    std::lock_guard lock(detail::state().mutex);
    detail::state().diagnostic.clear();
}

void set_quiet(bool quiet) {
    std::lock_guard lock(detail::state().mutex);
    detail::state().quiet = quiet;
}

}  // namespace simt

using simt::detail::fail;
using simt::detail::is_device_allocation;
using simt::detail::state;

// ---- Erreurs ---------------------------------------------------------------------------

cudaError_t cudaGetLastError() { return simt::detail::last_error.exchange(simt::detail::sticky.load()); }
cudaError_t cudaPeekAtLastError() { return simt::detail::last_error.load(); }

const char* cudaGetErrorName(cudaError_t error) {
    switch (error) {
        case cudaSuccess: return "cudaSuccess";
        case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
        case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
        case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
        case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
        case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
        case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
        case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
        case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
        case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
        case cudaErrorInvalidClusterSize: return "cudaErrorInvalidClusterSize";
        case cudaErrorNotPermitted: return "cudaErrorNotPermitted";
        case cudaErrorNotSupported: return "cudaErrorNotSupported";
        case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
        case cudaErrorIllegalState: return "cudaErrorIllegalState";
        case cudaErrorStreamCaptureUnsupported: return "cudaErrorStreamCaptureUnsupported";
        case cudaErrorStreamCaptureInvalidated: return "cudaErrorStreamCaptureInvalidated";
        case cudaErrorStreamCaptureUnmatched: return "cudaErrorStreamCaptureUnmatched";
        case cudaErrorStreamCaptureUnjoined: return "cudaErrorStreamCaptureUnjoined";
        case cudaErrorStreamCaptureIsolation: return "cudaErrorStreamCaptureIsolation";
        case cudaErrorStreamCaptureImplicit: return "cudaErrorStreamCaptureImplicit";
        case cudaErrorStreamCaptureWrongThread: return "cudaErrorStreamCaptureWrongThread";
        case cudaErrorGraphExecUpdateFailure: return "cudaErrorGraphExecUpdateFailure";
        case cudaErrorAssert: return "cudaErrorAssert";
        case cudaErrorHostMemoryAlreadyRegistered: return "cudaErrorHostMemoryAlreadyRegistered";
        case cudaErrorHostMemoryNotRegistered: return "cudaErrorHostMemoryNotRegistered";
        default: return "cudaErrorUnknown";
    }
}

const char* cudaGetErrorString(cudaError_t error) {
    switch (error) {
        case cudaSuccess: return "aucune erreur";
        case cudaErrorInvalidValue: return "valeur invalide";
        case cudaErrorMemoryAllocation: return "mémoire insuffisante";
        case cudaErrorInvalidConfiguration: return "configuration de lancement invalide";
        case cudaErrorInvalidDevicePointer: return "pointeur de périphérique invalide";
        case cudaErrorInvalidDevice: return "périphérique invalide";
        case cudaErrorInvalidResourceHandle: return "flux ou événement invalide";
        case cudaErrorLaunchFailure: return "le noyau a échoué (voir le diagnostic de simt)";
        case cudaErrorLaunchTimeout: return "le noyau ne progresse plus (interblocage)";
        case cudaErrorCooperativeLaunchTooLarge: return "grille coopérative trop grande pour le périphérique";
        case cudaErrorInvalidClusterSize: return "lancement refusé : clusters de blocs mal configurés";
        case cudaErrorNotPermitted: return "opération non permise (attribut fixé à la compilation)";
        case cudaErrorNotSupported: return "opération non émulée par simt";
        case cudaErrorInvalidMemcpyDirection: return "sens de copie invalide";
        case cudaErrorIllegalState: return "opération impossible dans l'état actuel (flux qui ne capture pas)";
        case cudaErrorStreamCaptureUnsupported: return "opération interdite pendant la capture d'un flux";
        case cudaErrorStreamCaptureInvalidated: return "capture de flux invalidée par une erreur précédente";
        case cudaErrorStreamCaptureUnmatched: return "la capture n'a pas été commencée sur ce flux";
        case cudaErrorStreamCaptureUnjoined: return "la capture contient une fourche de flux jamais rejointe";
        case cudaErrorStreamCaptureIsolation: return "dépendance qui franchit la frontière d'une capture";
        case cudaErrorStreamCaptureImplicit: return "dépendance implicite du flux hérité envers une capture en cours";
        case cudaErrorStreamCaptureWrongThread: return "capture terminée depuis un autre thread que celui qui l'a commencée";
        case cudaErrorGraphExecUpdateFailure: return "mise à jour du graphe instancié impossible (topologie ou noyau changés)";
        case cudaErrorAssert: return "une assertion du périphérique a échoué (assert dans un noyau)";
        case cudaErrorHostMemoryAlreadyRegistered: return "plage de l'hôte déjà enregistrée (cudaHostRegister)";
        case cudaErrorHostMemoryNotRegistered: return "plage de l'hôte non enregistrée (cudaHostUnregister)";
        default: return "erreur inconnue";
    }
}

// ---- Périphérique ----------------------------------------------------------------------

cudaError_t cudaDeviceSynchronize() {
    using simt::detail::StreamUse;
    if (const cudaError_t error = simt::detail::check_capture("cudaDeviceSynchronize", StreamUse::device_sync, nullptr);
        error != cudaSuccess)
        return error;
    return simt::detail::sticky_error();
}
cudaError_t cudaDeviceReset() {
    simt::detail::clear_errors();
    return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
    if (!version) return fail(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
    if (!version) return fail(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

// ---- Mémoire ---------------------------------------------------------------------------

cudaError_t cudaMalloc(void** pointer, size_t size) {
    if (!pointer) return fail(cudaErrorInvalidValue);
    if (size == 0) {
        *pointer = nullptr;
        return cudaSuccess;
    }
    // Taille exacte : AddressSanitizer (preset sanitize) signale tout accès au-delà.
    void* memory = ::operator new(size, std::align_val_t{simt::detail::kAllocationAlignment}, std::nothrow);
    if (!memory) return fail(cudaErrorMemoryAllocation);
    {
        std::lock_guard lock(state().mutex);
        state().allocations[static_cast<const std::byte*>(memory)] = size;
    }
    *pointer = memory;
    return cudaSuccess;
}

// La mémoire gérée est une allocation du périphérique que l'hôte lit et écrit directement :
// l'espace d'adressage étant celui du processus, il n'y a rien à migrer.
cudaError_t cudaMallocManaged(void** pointer, size_t size, unsigned int flags) {
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return fail(cudaErrorInvalidValue);
    return cudaMalloc(pointer, size);
}

cudaError_t cudaFree(void* pointer) {
    if (!pointer) return cudaSuccess;
    {
        std::lock_guard lock(state().mutex);
        if (state().allocations.erase(static_cast<const std::byte*>(pointer)) == 0)
            return fail(cudaErrorInvalidValue);
    }
    simt::detail::forget_pool_allocation(pointer);
    ::operator delete(pointer, std::align_val_t{simt::detail::kAllocationAlignment});
    return cudaSuccess;
}

namespace simt::detail {

cudaError_t copy_memory(void* destination, const void* source, std::size_t count, cudaMemcpyKind kind) {
    if (simt::detail::sticky_error() != cudaSuccess) return simt::detail::sticky_error();
    if (count == 0) return cudaSuccess;
    if (!destination || !source) return fail(cudaErrorInvalidValue);
    const bool to_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    const bool from_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (kind != cudaMemcpyDefault && kind != cudaMemcpyHostToHost &&
        ((to_device && !is_device_allocation(destination)) || (from_device && !is_device_allocation(source))))
        return fail(cudaErrorInvalidValue);
    std::memmove(destination, source, count);
    return cudaSuccess;
}

cudaError_t fill_memory(void* pointer, int value, std::size_t count) {
    if (count == 0) return cudaSuccess;
    if (!is_device_allocation(pointer)) return fail(cudaErrorInvalidValue);
    std::memset(pointer, value, count);
    return cudaSuccess;
}

}  // namespace simt::detail

cudaError_t cudaMemcpy(void* destination, const void* source, size_t count, cudaMemcpyKind kind) {
    using simt::detail::StreamUse;
    if (const cudaError_t error = simt::detail::check_capture("cudaMemcpy", StreamUse::sync_copy, nullptr);
        error != cudaSuccess)
        return error;
    return simt::detail::copy_memory(destination, source, count, kind);
}
cudaError_t cudaMemcpyAsync(void* destination, const void* source, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
    if (cudaError_t result; simt::detail::capture_copy(destination, source, count, kind, stream, result))
        return result;
    return simt::detail::copy_memory(destination, source, count, kind);
}
cudaError_t cudaMemset(void* pointer, int value, size_t count) {
    using simt::detail::StreamUse;
    if (const cudaError_t error = simt::detail::check_capture("cudaMemset", StreamUse::sync_copy, nullptr);
        error != cudaSuccess)
        return error;
    return simt::detail::fill_memory(pointer, value, count);
}
cudaError_t cudaMemsetAsync(void* pointer, int value, size_t count, cudaStream_t stream) {
    if (cudaError_t result; simt::detail::capture_fill(pointer, value, count, stream, result)) return result;
    return simt::detail::fill_memory(pointer, value, count);
}
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* source, size_t count, size_t offset,
                               cudaMemcpyKind) {
    std::memcpy(static_cast<char*>(const_cast<void*>(symbol)) + offset, source, count);
    return cudaSuccess;
}
cudaError_t cudaMemcpyFromSymbol(void* destination, const void* symbol, size_t count, size_t offset,
                                 cudaMemcpyKind) {
    std::memcpy(destination, static_cast<const char*>(symbol) + offset, count);
    return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
    if (!free || !total) return fail(cudaErrorInvalidValue);
    *total = simt::detail::emulated_properties().totalGlobalMem;
    std::size_t used = 0;
    {
        std::lock_guard lock(state().mutex);
        for (const auto& allocation : state().allocations) used += allocation.second;
    }
    *free = *total > used ? *total - used : 0;
    return cudaSuccess;
}

// ---- Flux et événements (exécution synchrone, donc dans l'ordre) ---------------------------

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
    if (!stream) return fail(cudaErrorInvalidValue);
    *stream = new CUstream_st{};
    return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
    if (!stream) return fail(cudaErrorInvalidValue);
    *stream = new CUstream_st{flags};
    return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    if (!stream) return fail(cudaErrorInvalidResourceHandle);
    simt::detail::forget_stream(stream);
    delete stream;
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    using simt::detail::StreamUse;
    if (const cudaError_t error = simt::detail::check_capture("cudaStreamSynchronize", StreamUse::stream_sync, stream);
        error != cudaSuccess)
        return error;
    return simt::detail::sticky_error();
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
    using simt::detail::StreamUse;
    if (const cudaError_t error = simt::detail::check_capture("cudaStreamQuery", StreamUse::stream_sync, stream);
        error != cudaSuccess)
        return error;
    return simt::detail::sticky_error();
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
    if (!event) return fail(cudaErrorInvalidResourceHandle);
    if (cudaError_t result; simt::detail::capture_event_wait(stream, event, result)) return result;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
    if (!event) return fail(cudaErrorInvalidValue);
    *event = new CUevent_st{};
    return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) { return cudaEventCreate(event); }
cudaError_t cudaEventDestroy(cudaEvent_t event) {
    if (!event) return fail(cudaErrorInvalidResourceHandle);
    delete event;
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    if (!event) return fail(cudaErrorInvalidResourceHandle);
    if (cudaError_t result; simt::detail::capture_event_record(event, stream, result)) return result;
    event->time = std::chrono::steady_clock::now();
    event->recorded = true;
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    if (!event) return fail(cudaErrorInvalidResourceHandle);
    return simt::detail::sticky_error();
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
    return event ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
    if (!milliseconds || !start || !end) return fail(cudaErrorInvalidValue);
    if (!start->recorded || !end->recorded) return fail(cudaErrorInvalidResourceHandle);
    *milliseconds = std::chrono::duration<float, std::milli>(end->time - start->time).count();
    return cudaSuccess;
}

// ---- Noyaux : attributs, occupation, lancements par pointeur ---------------------------

cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attribute, int value) {
    if (cudaError_t result; simt::detail::set_cluster_attribute(kernel, attribute, value, result))
        return result == cudaSuccess ? result : fail(result);
    if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || std::size_t(value) > simt::detail::emulated_properties().sharedMemPerBlockOptin)
            return fail(cudaErrorInvalidValue);
        std::lock_guard lock(state().mutex);
        state().shared_limits[kernel] = std::size_t(value);
    }
    return cudaSuccess;
}
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* kernel) {
    if (!attributes || !kernel) return fail(cudaErrorInvalidValue);
    *attributes = {};
    attributes->maxThreadsPerBlock = simt::detail::emulated_properties().maxThreadsPerBlock;
    attributes->maxDynamicSharedSizeBytes = int(simt::detail::dynamic_shared_limit(kernel));
    attributes->numRegs = simt::kAssumedRegistersPerThread;  // inconnu de l'émulateur (occupancy.hpp)
    attributes->sharedSizeBytes = 0;  // mémoire partagée statique : inconnue, comptée pour 0
    // Le code émulé est celui d'un sm_90 (device.cpp) : une vérification d'architecture
    // (ptxVersion >= 90 pour wgmma, la TMA, les clusters) passe comme sur Hopper.
    attributes->ptxVersion = 90;
    attributes->binaryVersion = 90;
    simt::detail::cluster_attributes(kernel, *attributes);
    return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* kernel, int block_size,
                                                          size_t dynamic_shared) {
    if (!blocks || block_size <= 0) return fail(cudaErrorInvalidValue);
    // Le modèle que le moteur applique à chaque lancement : les deux ne peuvent pas diverger.
    *blocks = simt::detail::kernel_occupancy(kernel, unsigned(block_size), dynamic_shared)
                  .blocks_per_multiprocessor;
    return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* kernel, int block_size,
                                                                   size_t dynamic_shared, unsigned int flags) {
    // cudaOccupancyDisableCachingOverride ne change que la politique de cache, non modélisée.
    if (flags & ~unsigned(cudaOccupancyDisableCachingOverride)) return fail(cudaErrorInvalidValue);
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, block_size, dynamic_shared);
}
cudaError_t cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t) {
    simt::detail::report("simt : cudaLaunchCooperativeKernel appelé sans la réécriture des sources "
                         "(simt-run ou la construction cpu) : les types des arguments sont inconnus");
    return fail(cudaErrorNotSupported);
}
