/**
 * @file
 * @brief État partagé entre le moteur d'exécution et l'API runtime émulée.
 */
#pragma once

#include "simt/engine.hpp"
#include "simt/occupancy.hpp"

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

/** @brief Un flux : ses drapeaux (bloquant ou non envers le flux hérité). */
struct CUstream_st {
    unsigned flags = 0;
};

namespace simt::detail {
struct Capture;
}

/** @brief Un événement : l'instant de son dernier enregistrement hors capture. */
struct CUevent_st {
    std::chrono::steady_clock::time_point time{};
    bool recorded = false;
    /** Capture où il a été enregistré en dernier (fourche de flux), nulle hors capture. */
    std::shared_ptr<simt::detail::Capture> capture;
    /** Nœuds qu'attend un flux qui attend cet événement, dans cette capture. */
    std::vector<struct CUgraphNode_st*> nodes;
};

namespace simt::detail {

/** @brief Consigne l'erreur que renverra cudaGetLastError. */
void record_error(cudaError_t error);

/** @brief Erreur collante d'un noyau fautif (cudaSuccess sinon), effacée par cudaDeviceReset. */
cudaError_t sticky_error();
void set_sticky_error(cudaError_t error);
void clear_errors();

/** @brief Émet un diagnostic en français (sortie d'erreur et last_diagnostic()). */
void report(const std::string& message);

/** @brief Propriétés du périphérique émulé. */
const cudaDeviceProp& emulated_properties();

/** @brief Mémoire partagée dynamique autorisée pour @p kernel (cudaFuncSetAttribute). */
std::size_t dynamic_shared_limit(const void* kernel);

/**
 * @brief Occupation de @p kernel lancé en blocs de @p threads threads avec
 *        @p dynamic_shared_bytes octets de mémoire partagée dynamique (occupancy.cpp) : ce
 *        que rend cudaOccupancyMaxActiveBlocksPerMultiprocessor et ce qu'applique le moteur.
 */
Occupancy kernel_occupancy(const void* kernel, unsigned threads, std::size_t dynamic_shared_bytes);

/** @brief Blocs résidents sur tout le périphérique émulé, au moins un par multiprocesseur (launch.cpp). */
unsigned resident_blocks(const void* kernel, const LaunchShape& shape);

// ---- cluster_api.cpp : clusters de blocs, côté hôte ------------------------------------------

/**
 * @brief Donne à @p shape les dimensions de cluster du noyau (`__cluster_dims__`, ou
 *        cudaFuncAttributeRequiredCluster*) quand le lancement n'en donne pas ; refuse celles
 *        qui les contredisent (cudaErrorInvalidClusterSize, @p why dit pourquoi).
 */
cudaError_t apply_kernel_cluster_dims(const void* kernel, LaunchShape& shape, std::string& why);

/**
 * @brief Refuse un lancement à clusters que le pilote refuserait : grille qui n'est pas un
 *        multiple du cluster, plus de 8 blocs sans cudaFuncAttributeNonPortableClusterSizeAllowed,
 *        plus de 16, ou un cluster plus grand que les @p resident_blocks blocs résidents.
 */
cudaError_t validate_cluster(const void* kernel, const LaunchShape& shape, unsigned resident_blocks,
                             std::string& why);

/**
 * @brief cudaFuncSetAttribute pour les attributs de cluster.
 * @return false si @p attribute n'en est pas un ; sinon true, l'erreur dans @p result
 */
bool set_cluster_attribute(const void* kernel, cudaFuncAttribute attribute, int value, cudaError_t& result);

/** @brief Remplit les champs de cluster de cudaFuncGetAttributes. */
void cluster_attributes(const void* kernel, cudaFuncAttributes& attributes);

/** @brief Nombre d'ordres de threads du mode « courses de données ». */
int thread_orders();

// ---- graphs.cpp : capture de flux et graphes CUDA -----------------------------------------

/** @brief Ce qu'une opération demande au flux, du point de vue de la capture. */
enum class StreamUse {
    device_sync,  ///< cudaDeviceSynchronize : attend tous les flux
    stream_sync,  ///< cudaStreamSynchronize, cudaStreamQuery : attend un flux
    sync_copy,    ///< cudaMemcpy, cudaMemset synchrones : passent par le flux hérité
};

/**
 * @brief Vérifie qu'@p api (de nature @p use, sur @p stream) est permise pendant les
 *        captures en cours ; sinon invalide la capture concernée, émet un diagnostic et
 *        rend l'erreur de CUDA (cudaErrorStreamCaptureUnsupported ou …Implicit), consignée.
 */
cudaError_t check_capture(const char* api, StreamUse use, cudaStream_t stream);

/**
 * @brief Si @p shape.stream capture, enregistre le lancement comme nœud (rien n'est exécuté)
 *        et rend true, l'erreur éventuelle dans @p result ; false si le flux ne capture pas.
 */
bool capture_kernel(const void* kernel, const char* name, const LaunchShape& shape,
                    const ThreadBody& body, cudaError_t& result);

/** @brief Comme capture_kernel, pour une copie asynchrone (cudaMemcpyAsync). */
bool capture_copy(void* destination, const void* source, std::size_t count, cudaMemcpyKind kind,
                  cudaStream_t stream, cudaError_t& result);

/** @brief Comme capture_kernel, pour un remplissage asynchrone (cudaMemsetAsync). */
bool capture_fill(void* destination, int value, std::size_t count, cudaStream_t stream,
                  cudaError_t& result);

/** @brief Comme capture_kernel, pour cudaEventRecord (fourche et jonction de flux). */
bool capture_event_record(cudaEvent_t event, cudaStream_t stream, cudaError_t& result);

/** @brief Comme capture_kernel, pour cudaStreamWaitEvent sur un événement capturé. */
bool capture_event_wait(cudaStream_t stream, cudaEvent_t event, cudaError_t& result);

/** @brief Invalide la capture de @p stream après une erreur (un lancement refusé). */
void invalidate_capture(cudaStream_t stream);

/**
 * @brief Un appel que la capture de @p stream changerait en nœud que simt n'émule pas (nœud
 *        @p node_kind : « d'allocation », « d'hôte ») : si le flux capture, diagnostic qui
 *        nomme @p api, capture invalidée, @p error consignée.
 * @return true si l'appel est refusé (il rend alors @p error).
 */
bool refused_during_capture(const char* api, cudaStream_t stream, const char* node_kind, cudaError_t error);

/** @brief Oublie la capture de @p stream détruit. */
void forget_stream(cudaStream_t stream);

// ---- launch.cpp : types des noyaux ---------------------------------------------------------

/** @brief Fabrique des corps de threads de @p kernel, ou nullptr s'il n'a jamais été vu typé. */
BodyFactory kernel_body_factory(const void* kernel);

// ---- runtime_api.cpp : mémoire, pour les copies des graphes -----------------------------

/** @brief cudaMemcpy sans la vérification de capture (nœud de copie d'un graphe). */
cudaError_t copy_memory(void* destination, const void* source, std::size_t count, cudaMemcpyKind kind);

/** @brief cudaMemset sans la vérification de capture (nœud de remplissage d'un graphe). */
cudaError_t fill_memory(void* destination, int value, std::size_t count);

/** @brief Consigne @p error pour cudaGetLastError et la rend. */
cudaError_t failure(cudaError_t error);

// ---- host_memory.cpp : mémoire de l'hôte verrouillée ou enregistrée ----------------------

/** @brief Plages de l'hôte verrouillées (cudaMallocHost, cudaHostAlloc, cudaHostRegister). */
std::vector<std::pair<void*, std::size_t>> pinned_host_ranges();

// ---- memory_pools.cpp : allocation ordonnée par flux ------------------------------------

/** @brief cudaFree de @p pointer : le retire de la réserve qui l'a alloué, s'il y en a une. */
void forget_pool_allocation(const void* pointer);

// ---- device.cpp : le périphérique émulé -------------------------------------------------

/** @brief Valeur de l'attribut @p attribute du périphérique ; false s'il n'existe pas. */
bool device_attribute(cudaDeviceAttr attribute, int& value);

/** @brief Copie de toutes les allocations du périphérique, pour rejouer un lancement. */
using MemorySnapshot = std::vector<std::pair<void*, std::vector<std::byte>>>;
MemorySnapshot snapshot_device_memory();
void restore_device_memory(const MemorySnapshot& snapshot);

// ---- replay_memory.cpp : le reste de la mémoire que rejoue le mode « courses de données » --

/** @brief Une région de mémoire restaurée entre deux ordres, nommée pour les diagnostics. */
struct ReplayRegion {
    std::byte* begin;
    std::size_t size;
    std::string name;  ///< « variable compteur », « mémoire hôte épinglée »…
};

/**
 * @brief Enregistre une région de l'hôte qu'un noyau peut écrire (mémoire épinglée, gérée
 *        hors de cudaMalloc, enregistrée par cudaHostRegister) : le mode « courses de
 *        données » la restaure entre deux ordres. @p kind la nomme dans les diagnostics.
 */
void register_replay_region(void* begin, std::size_t size, const char* kind);

/** @brief Oublie la région qui commence à @p begin (libérée ou désenregistrée). */
void unregister_replay_region(void* begin);

/** @brief Variables globales du programme et régions enregistrées. */
std::vector<ReplayRegion> replay_regions();
std::vector<std::vector<std::byte>> snapshot_regions(const std::vector<ReplayRegion>& regions);
/** @brief Réécrit les octets de @p regions qui diffèrent de @p copies. */
void restore_regions(const std::vector<ReplayRegion>& regions,
                     const std::vector<std::vector<std::byte>>& copies);

}  // namespace simt::detail
