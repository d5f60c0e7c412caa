/**
 * @file
 * @brief Le périphérique émulé : ses propriétés (cudaGetDeviceProperties), chacun de ses
 *        attributs (cudaDeviceGetAttribute, toute l'énumération cudaDeviceAttr de CUDA 13),
 *        ses drapeaux, et le profileur (sans objet : il n'y a pas de GPU à profiler).
 *
 * Une seule source de vérité : chaque attribut qui a un champ dans cudaDeviceProp est lu
 * dans les propriétés ; les autres sont des constantes commentées ici.
 */
#include "internal.hpp"

#include <cuda_profiler_api.h>

#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace simt::detail {
namespace {

/** Fréquence annoncée (kHz) : clock64() compte des nanosecondes, soit un « cycle » à 1 GHz. */
constexpr int kClockRateKhz = 1'000'000;

/**
 * @brief Le nombre de multiprocesseurs : 4 par défaut (de petites grilles suffisent), ou la
 *        valeur de SIMT_SM, de 1 à 1 024 : avec SIMT_SM=132, les grilles dimensionnées par
 *        l'occupation ont la taille qu'elles auraient sur un H100 SXM ou un H200, ce qui révèle
 *        un test écrit pour les 4 SM de simt. Une valeur mal formée arrête le programme.
 */
int multiprocessor_count() {
    const char* text = std::getenv("SIMT_SM");
    if (text == nullptr || *text == '\0') return 4;
    int value = 0;
    const char* end = text + std::strlen(text);
    const auto [stop, error] = std::from_chars(text, end, value);
    if (error != std::errc{} || stop != end || value < 1 || value > 1024) {
        std::fprintf(stderr, "simt : SIMT_SM=« %s » n'est pas un nombre de multiprocesseurs entre 1 et 1024\n", text);
        std::exit(2);
    }
    return value;
}

/**
 * Les limites d'un GPU de capacité 9.0 (Hopper) : simt exécute wgmma, la TMA et les
 * clusters, il se présente donc comme tel. Source : CUDA C++ Programming Guide, « Compute
 * Capabilities », tableau « Technical Specifications per Compute Capability », colonne 9.0
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#features-and-technical-specifications-technical-specifications-per-compute-capability),
 * et § « Compute Capability 9.0 › Shared Memory » pour la mémoire partagée.
 */
cudaDeviceProp make_properties() {
    cudaDeviceProp p{};
    std::snprintf(p.name, sizeof p.name, "simt, GPU émulé par le processeur");
    p.major = 9;
    p.minor = 0;
    p.multiProcessorCount = multiprocessor_count();  // un choix de simt (4, ou SIMT_SM), pas une limite de la capacité
    p.warpSize = 32;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsDim[0] = 1024;
    p.maxThreadsDim[1] = 1024;
    p.maxThreadsDim[2] = 64;
    p.maxGridSize[0] = 2147483647;
    p.maxGridSize[1] = 65535;
    p.maxGridSize[2] = 65535;
    p.maxThreadsPerMultiProcessor = 2048;  // 64 warps résidents par SM
    p.maxBlocksPerMultiProcessor = 32;
    // 48 Kio par bloc sans demande ; au-delà, jusqu'à 227 Kio sur option
    // (cudaFuncAttributeMaxDynamicSharedMemorySize). Un SM en a 228 : le pilote réserve 1 Kio
    // par bloc (capacité 8.0 et après), compté par le modèle d'occupation (occupancy.cpp).
    p.sharedMemPerBlock = 48 * 1024;
    p.sharedMemPerBlockOptin = 227 * 1024;
    p.sharedMemPerMultiprocessor = 228 * 1024;
    p.reservedSharedMemPerBlock = 1024;
    p.regsPerBlock = 65536;           // registres de 32 bits par bloc…
    p.regsPerMultiprocessor = 65536;  // … et par SM (255 au plus par thread)
    p.totalGlobalMem = std::size_t{4} << 30;
    p.totalConstMem = 64 * 1024;
    p.l2CacheSize = 4 << 20;
    p.memoryBusWidth = 256;
    p.memPitch = 2147483647;
    p.textureAlignment = 512;
    p.texturePitchAlignment = 32;
    p.surfaceAlignment = 512;
    p.cooperativeLaunch = 1;
    // Clusters de blocs émulés (cluster.cpp) : 8 blocs au plus (taille portable du guide),
    // 16 sur autorisation explicite (cluster_api.cpp).
    p.clusterLaunch = 1;
    // Les flux s'exécutent l'un après l'autre : ni noyaux concurrents, ni copie qui recouvre
    // un calcul (aucun moteur de copie asynchrone).
    p.concurrentKernels = 0;
    p.asyncEngineCount = 0;
    // Un GPU séparé : ses allocations sont distinctes de celles de l'hôte, et les copies
    // vérifient leur sens. Mais tout vit dans l'espace d'adressage du processus, si bien que
    // la mémoire de l'hôte est projetée sans copie (même adresse des deux côtés).
    p.integrated = 0;
    p.canMapHostMemory = 1;
    p.unifiedAddressing = 1;
    p.managedMemory = 1;
    p.concurrentManagedAccess = 1;
    p.directManagedMemAccessFromHost = 1;
    p.pageableMemoryAccess = 1;
    p.pageableMemoryAccessUsesHostPageTables = 1;
    p.canUseHostPointerForRegisteredMem = 1;
    p.hostRegisterSupported = 1;
    p.hostRegisterReadOnlySupported = 1;
    p.hostNativeAtomicSupported = 1;  // les atomiques sont celles du processeur
    p.memoryPoolsSupported = 1;       // allocation ordonnée par flux (memory_pools.cpp)
    p.globalL1CacheSupported = 1;
    p.localL1CacheSupported = 1;
    // Ni textures ni surfaces émulées : leurs dimensions maximales restent nulles.
    p.deviceNumaId = -1;
    p.hostNumaId = -1;
    return p;
}

std::atomic<unsigned> device_flags{cudaDeviceScheduleAuto};


}  // namespace

const cudaDeviceProp& emulated_properties() {
    static const cudaDeviceProp properties = make_properties();
    return properties;
}

/** @brief Valeur de @p attribute, ou false s'il n'existe pas (réservé ou inconnu). */
bool device_attribute(cudaDeviceAttr attribute, int& value) {
    const cudaDeviceProp& p = emulated_properties();
    switch (attribute) {
        case cudaDevAttrMaxThreadsPerBlock: value = p.maxThreadsPerBlock; return true;
        case cudaDevAttrMaxBlockDimX: value = p.maxThreadsDim[0]; return true;
        case cudaDevAttrMaxBlockDimY: value = p.maxThreadsDim[1]; return true;
        case cudaDevAttrMaxBlockDimZ: value = p.maxThreadsDim[2]; return true;
        case cudaDevAttrMaxGridDimX: value = p.maxGridSize[0]; return true;
        case cudaDevAttrMaxGridDimY: value = p.maxGridSize[1]; return true;
        case cudaDevAttrMaxGridDimZ: value = p.maxGridSize[2]; return true;
        case cudaDevAttrMaxSharedMemoryPerBlock: value = int(p.sharedMemPerBlock); return true;
        case cudaDevAttrTotalConstantMemory: value = int(p.totalConstMem); return true;
        case cudaDevAttrWarpSize: value = p.warpSize; return true;
        case cudaDevAttrMaxPitch: value = int(p.memPitch); return true;
        case cudaDevAttrMaxRegistersPerBlock: value = p.regsPerBlock; return true;
        case cudaDevAttrClockRate: value = kClockRateKhz; return true;
        case cudaDevAttrTextureAlignment: value = int(p.textureAlignment); return true;
        case cudaDevAttrGpuOverlap: value = p.asyncEngineCount > 0; return true;
        case cudaDevAttrMultiProcessorCount: value = p.multiProcessorCount; return true;
        case cudaDevAttrKernelExecTimeout: value = 0; return true;  // le chien de garde mesure le progrès, pas la durée
        case cudaDevAttrIntegrated: value = p.integrated; return true;
        case cudaDevAttrCanMapHostMemory: value = p.canMapHostMemory; return true;
        case cudaDevAttrComputeMode: value = cudaComputeModeDefault; return true;
        case cudaDevAttrMaxTexture1DWidth: value = p.maxTexture1D; return true;
        case cudaDevAttrMaxTexture2DWidth: value = p.maxTexture2D[0]; return true;
        case cudaDevAttrMaxTexture2DHeight: value = p.maxTexture2D[1]; return true;
        case cudaDevAttrMaxTexture3DWidth: value = p.maxTexture3D[0]; return true;
        case cudaDevAttrMaxTexture3DHeight: value = p.maxTexture3D[1]; return true;
        case cudaDevAttrMaxTexture3DDepth: value = p.maxTexture3D[2]; return true;
        case cudaDevAttrMaxTexture2DLayeredWidth: value = p.maxTexture2DLayered[0]; return true;
        case cudaDevAttrMaxTexture2DLayeredHeight: value = p.maxTexture2DLayered[1]; return true;
        case cudaDevAttrMaxTexture2DLayeredLayers: value = p.maxTexture2DLayered[2]; return true;
        case cudaDevAttrSurfaceAlignment: value = int(p.surfaceAlignment); return true;
        case cudaDevAttrConcurrentKernels: value = p.concurrentKernels; return true;
        case cudaDevAttrEccEnabled: value = p.ECCEnabled; return true;
        case cudaDevAttrPciBusId: value = p.pciBusID; return true;
        case cudaDevAttrPciDeviceId: value = p.pciDeviceID; return true;
        case cudaDevAttrTccDriver: value = p.tccDriver; return true;
        case cudaDevAttrMemoryClockRate: value = 0; return true;  // pas de mémoire propre au périphérique
        case cudaDevAttrGlobalMemoryBusWidth: value = p.memoryBusWidth; return true;
        case cudaDevAttrL2CacheSize: value = p.l2CacheSize; return true;
        case cudaDevAttrMaxThreadsPerMultiProcessor: value = p.maxThreadsPerMultiProcessor; return true;
        case cudaDevAttrAsyncEngineCount: value = p.asyncEngineCount; return true;
        case cudaDevAttrUnifiedAddressing: value = p.unifiedAddressing; return true;
        case cudaDevAttrMaxTexture1DLayeredWidth: value = p.maxTexture1DLayered[0]; return true;
        case cudaDevAttrMaxTexture1DLayeredLayers: value = p.maxTexture1DLayered[1]; return true;
        case cudaDevAttrMaxTexture2DGatherWidth: value = p.maxTexture2DGather[0]; return true;
        case cudaDevAttrMaxTexture2DGatherHeight: value = p.maxTexture2DGather[1]; return true;
        case cudaDevAttrMaxTexture3DWidthAlt: value = p.maxTexture3DAlt[0]; return true;
        case cudaDevAttrMaxTexture3DHeightAlt: value = p.maxTexture3DAlt[1]; return true;
        case cudaDevAttrMaxTexture3DDepthAlt: value = p.maxTexture3DAlt[2]; return true;
        case cudaDevAttrPciDomainId: value = p.pciDomainID; return true;
        case cudaDevAttrTexturePitchAlignment: value = int(p.texturePitchAlignment); return true;
        case cudaDevAttrMaxTextureCubemapWidth: value = p.maxTextureCubemap; return true;
        case cudaDevAttrMaxTextureCubemapLayeredWidth: value = p.maxTextureCubemapLayered[0]; return true;
        case cudaDevAttrMaxTextureCubemapLayeredLayers: value = p.maxTextureCubemapLayered[1]; return true;
        case cudaDevAttrMaxSurface1DWidth: value = p.maxSurface1D; return true;
        case cudaDevAttrMaxSurface2DWidth: value = p.maxSurface2D[0]; return true;
        case cudaDevAttrMaxSurface2DHeight: value = p.maxSurface2D[1]; return true;
        case cudaDevAttrMaxSurface3DWidth: value = p.maxSurface3D[0]; return true;
        case cudaDevAttrMaxSurface3DHeight: value = p.maxSurface3D[1]; return true;
        case cudaDevAttrMaxSurface3DDepth: value = p.maxSurface3D[2]; return true;
        case cudaDevAttrMaxSurface1DLayeredWidth: value = p.maxSurface1DLayered[0]; return true;
        case cudaDevAttrMaxSurface1DLayeredLayers: value = p.maxSurface1DLayered[1]; return true;
        case cudaDevAttrMaxSurface2DLayeredWidth: value = p.maxSurface2DLayered[0]; return true;
        case cudaDevAttrMaxSurface2DLayeredHeight: value = p.maxSurface2DLayered[1]; return true;
        case cudaDevAttrMaxSurface2DLayeredLayers: value = p.maxSurface2DLayered[2]; return true;
        case cudaDevAttrMaxSurfaceCubemapWidth: value = p.maxSurfaceCubemap; return true;
        case cudaDevAttrMaxSurfaceCubemapLayeredWidth: value = p.maxSurfaceCubemapLayered[0]; return true;
        case cudaDevAttrMaxSurfaceCubemapLayeredLayers: value = p.maxSurfaceCubemapLayered[1]; return true;
        case cudaDevAttrMaxTexture1DLinearWidth: value = 0; return true;  // pas de champ : textures non émulées
        case cudaDevAttrMaxTexture2DLinearWidth: value = p.maxTexture2DLinear[0]; return true;
        case cudaDevAttrMaxTexture2DLinearHeight: value = p.maxTexture2DLinear[1]; return true;
        case cudaDevAttrMaxTexture2DLinearPitch: value = p.maxTexture2DLinear[2]; return true;
        case cudaDevAttrMaxTexture2DMipmappedWidth: value = p.maxTexture2DMipmap[0]; return true;
        case cudaDevAttrMaxTexture2DMipmappedHeight: value = p.maxTexture2DMipmap[1]; return true;
        case cudaDevAttrComputeCapabilityMajor: value = p.major; return true;
        case cudaDevAttrComputeCapabilityMinor: value = p.minor; return true;
        case cudaDevAttrMaxTexture1DMipmappedWidth: value = p.maxTexture1DMipmap; return true;
        case cudaDevAttrStreamPrioritiesSupported: value = p.streamPrioritiesSupported; return true;
        case cudaDevAttrGlobalL1CacheSupported: value = p.globalL1CacheSupported; return true;
        case cudaDevAttrLocalL1CacheSupported: value = p.localL1CacheSupported; return true;
        case cudaDevAttrMaxSharedMemoryPerMultiprocessor: value = int(p.sharedMemPerMultiprocessor); return true;
        case cudaDevAttrMaxRegistersPerMultiprocessor: value = p.regsPerMultiprocessor; return true;
        case cudaDevAttrManagedMemory: value = p.managedMemory; return true;
        case cudaDevAttrIsMultiGpuBoard: value = p.isMultiGpuBoard; return true;
        case cudaDevAttrMultiGpuBoardGroupID: value = p.multiGpuBoardGroupID; return true;
        case cudaDevAttrHostNativeAtomicSupported: value = p.hostNativeAtomicSupported; return true;
        // Un processeur calcule en double à peu près aussi vite qu'en simple ; mais la valeur
        // annonce un périphérique de capacité 9.0, où le rapport vaut 2 (tableau « Arithmetic
        // Instructions » du guide : deux fois plus d'opérations fp32 que fp64 par cycle et par SM) :
        // un programme qui choisit son type sur ce critère fait le même choix que sur ce GPU.
        case cudaDevAttrSingleToDoublePrecisionPerfRatio: value = 2; return true;
        case cudaDevAttrPageableMemoryAccess: value = p.pageableMemoryAccess; return true;
        case cudaDevAttrConcurrentManagedAccess: value = p.concurrentManagedAccess; return true;
        case cudaDevAttrComputePreemptionSupported: value = p.computePreemptionSupported; return true;
        case cudaDevAttrCanUseHostPointerForRegisteredMem: value = p.canUseHostPointerForRegisteredMem; return true;
        case cudaDevAttrCooperativeLaunch: value = p.cooperativeLaunch; return true;
        case cudaDevAttrMaxSharedMemoryPerBlockOptin: value = int(p.sharedMemPerBlockOptin); return true;
        case cudaDevAttrCanFlushRemoteWrites: value = 0; return true;
        case cudaDevAttrHostRegisterSupported: value = p.hostRegisterSupported; return true;
        case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
            value = p.pageableMemoryAccessUsesHostPageTables;
            return true;
        case cudaDevAttrDirectManagedMemAccessFromHost: value = p.directManagedMemAccessFromHost; return true;
        case cudaDevAttrMaxBlocksPerMultiprocessor: value = p.maxBlocksPerMultiProcessor; return true;
        case cudaDevAttrMaxPersistingL2CacheSize: value = p.persistingL2CacheMaxSize; return true;
        case cudaDevAttrMaxAccessPolicyWindowSize: value = p.accessPolicyMaxWindowSize; return true;
        case cudaDevAttrReservedSharedMemoryPerBlock: value = int(p.reservedSharedMemPerBlock); return true;
        case cudaDevAttrSparseCudaArraySupported: value = p.sparseCudaArraySupported; return true;
        case cudaDevAttrHostRegisterReadOnlySupported: value = p.hostRegisterReadOnlySupported; return true;
        case cudaDevAttrTimelineSemaphoreInteropSupported: value = p.timelineSemaphoreInteropSupported; return true;
        case cudaDevAttrMemoryPoolsSupported: value = p.memoryPoolsSupported; return true;
        case cudaDevAttrGPUDirectRDMASupported: value = p.gpuDirectRDMASupported; return true;
        case cudaDevAttrGPUDirectRDMAFlushWritesOptions: value = int(p.gpuDirectRDMAFlushWritesOptions); return true;
        case cudaDevAttrGPUDirectRDMAWritesOrdering: value = p.gpuDirectRDMAWritesOrdering; return true;
        case cudaDevAttrMemoryPoolSupportedHandleTypes: value = int(p.memoryPoolSupportedHandleTypes); return true;
        case cudaDevAttrClusterLaunch: value = p.clusterLaunch; return true;
        case cudaDevAttrDeferredMappingCudaArraySupported: value = p.deferredMappingCudaArraySupported; return true;
        case cudaDevAttrIpcEventSupport: value = p.ipcEventSupported; return true;
        case cudaDevAttrMemSyncDomainCount: value = 1; return true;
        case cudaDevAttrNumaConfig: value = p.deviceNumaConfig; return true;
        case cudaDevAttrNumaId: value = p.deviceNumaId; return true;
        case cudaDevAttrMpsEnabled: value = p.mpsEnabled; return true;
        case cudaDevAttrHostNumaId: value = p.hostNumaId; return true;
        case cudaDevAttrD3D12CigSupported: value = 0; return true;
        case cudaDevAttrVulkanCigSupported: value = 0; return true;
        case cudaDevAttrGpuPciDeviceId: value = int(p.gpuPciDeviceID); return true;
        case cudaDevAttrGpuPciSubsystemId: value = int(p.gpuPciSubsystemID); return true;
        case cudaDevAttrHostNumaMemoryPoolsSupported: value = 0; return true;
        case cudaDevAttrHostNumaMultinodeIpcSupported: value = p.hostNumaMultinodeIpcSupported; return true;
        case cudaDevAttrHostMemoryPoolsSupported: value = 0; return true;
        case cudaDevAttrOnlyPartialHostNativeAtomicSupported: value = 0; return true;
        // Réservés par NVIDIA, sans valeur documentée.
        case cudaDevAttrReserved92:
        case cudaDevAttrReserved93:
        case cudaDevAttrReserved94:
        case cudaDevAttrReserved96:
        case cudaDevAttrReserved122:
        case cudaDevAttrReserved123:
        case cudaDevAttrReserved124:
        case cudaDevAttrReserved127:
        case cudaDevAttrReserved128:
        case cudaDevAttrReserved129:
        case cudaDevAttrReserved132:
        case cudaDevAttrReserved141:
        case cudaDevAttrReserved145:
        case cudaDevAttrMax: return false;
    }
    return false;  // valeur hors de l'énumération
}

}  // namespace simt::detail

using simt::detail::failure;

cudaError_t cudaGetDeviceCount(int* count) {
    if (!count) return failure(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
    if (!device) return failure(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : failure(cudaErrorInvalidDevice); }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int device) {
    if (!properties) return failure(cudaErrorInvalidValue);
    if (device != 0) return failure(cudaErrorInvalidDevice);
    *properties = simt::detail::emulated_properties();
    return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device) {
    if (!value) return failure(cudaErrorInvalidValue);
    if (device != 0) return failure(cudaErrorInvalidDevice);
    int result = 0;
    if (!simt::detail::device_attribute(attribute, result)) return failure(cudaErrorInvalidValue);
    *value = result;
    return cudaSuccess;
}

// Les drapeaux d'ordonnancement (attente active, cédée, bloquante) n'ont pas d'effet : une
// synchronisation rend la main quand le travail est fait, le flux étant synchrone.
cudaError_t cudaSetDeviceFlags(unsigned int flags) {
    if (flags & ~unsigned(cudaDeviceMask)) return failure(cudaErrorInvalidValue);
    const unsigned schedule = flags & cudaDeviceScheduleMask;
    if (schedule != cudaDeviceScheduleAuto && schedule != cudaDeviceScheduleSpin &&
        schedule != cudaDeviceScheduleYield && schedule != cudaDeviceScheduleBlockingSync)
        return failure(cudaErrorInvalidValue);
    simt::detail::device_flags = flags;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
    if (!flags) return failure(cudaErrorInvalidValue);
    // La projection de la mémoire de l'hôte est toujours active, comme depuis CUDA 4.
    *flags = simt::detail::device_flags.load() | cudaDeviceMapHost;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
    // Priorités non prises en charge (streamPrioritiesSupported = 0) : l'intervalle est [0, 0].
    if (least) *least = 0;
    if (greatest) *greatest = 0;
    return cudaSuccess;
}

// Il n'y a pas de GPU à profiler : les bornes d'une région profilée sont acceptées, sans effet.
cudaError_t cudaProfilerStart() { return cudaSuccess; }
cudaError_t cudaProfilerStop() { return cudaSuccess; }
