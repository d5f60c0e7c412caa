/**
 * @file
 * @brief Clusters de blocs (Hopper) côté périphérique : les fonctions intégrées de CUDA
 *        (`__clusterDim`, `__cluster_barrier_arrive`, `__cluster_map_shared_rank`… de
 *        crt/sm_90_rt.h, que cooperative_groups::cluster_group appelle sur GPU) et
 *        l'inscription des dimensions déclarées par `__cluster_dims__` (voir la réécriture).
 *        Le moteur est dans src/cluster.cpp.
 */
#pragma once

#include "simt/cluster_window.hpp"
#include "simt/engine.hpp"
#include "simt/launch.hpp"
#include "simt/shared_window.hpp"

#include <atomic>
#include <source_location>

/** @brief Dimensions du cluster en blocs. */
inline dim3 __clusterDim() { return simt::detail::cluster_place().dims; }
/** @brief Indice du bloc dans son cluster. */
inline dim3 __clusterRelativeBlockIdx() { return simt::detail::cluster_place().block_index; }
/** @brief Dimensions de la grille en clusters. */
inline dim3 __clusterGridDimInClusters() { return simt::detail::cluster_place().grid; }
/** @brief Indice du cluster dans la grille. */
inline dim3 __clusterIdx() { return simt::detail::cluster_place().index; }
/** @brief Rang du bloc dans son cluster. */
inline unsigned __clusterRelativeBlockRank() { return simt::detail::cluster_place().block_rank; }
/** @brief Nombre de blocs du cluster. */
inline unsigned __clusterSizeInBlocks() {
    const dim3 d = simt::detail::cluster_place().dims;
    return d.x * d.y * d.z;
}
/** @brief 1 si le lancement a des dimensions de cluster (attribut ou `__cluster_dims__`). */
inline unsigned __clusterDimIsSpecified() { return simt::detail::cluster_place().explicit_dims ? 1u : 0u; }

/** @brief Arrivée à la barrière du cluster (barrier.cluster.arrive.release). */
inline void __cluster_barrier_arrive(const std::source_location& where = std::source_location::current()) {
    simt::detail::cluster_arrive(where);
}
/** @brief Arrivée sans ordre mémoire (barrier.cluster.arrive.relaxed) : simt ordonne toujours. */
inline void __cluster_barrier_arrive_relaxed(const std::source_location& where = std::source_location::current()) {
    simt::detail::cluster_arrive(where);
}
/** @brief Attente de la phase de la barrière du cluster (barrier.cluster.wait.acquire). */
inline void __cluster_barrier_wait(const std::source_location& where = std::source_location::current()) {
    simt::detail::cluster_wait(where);
}
/** @brief La même variable partagée que @p pointer, dans le bloc de rang @p rank du cluster. */
inline void* __cluster_map_shared_rank(const void* pointer, unsigned rank,
                                       const std::source_location& where = std::source_location::current()) {
    return simt::detail::cluster_map_shared(pointer, (long long)rank, where);
}
/** @brief Rang du bloc dont la mémoire partagée contient @p pointer. */
inline unsigned __cluster_query_shared_rank(const void* pointer,
                                            const std::source_location& where = std::source_location::current()) {
    return simt::detail::cluster_query_shared_rank(pointer, where);
}
/** @brief 1 si @p pointer désigne la mémoire partagée d'un bloc du cluster. */
inline unsigned __isClusterShared(const void* pointer) { return simt::detail::cluster_is_shared(pointer) ? 1u : 0u; }
/**
 * @brief Adresse partagée de @p pointer et masque des blocs visés, pour une multidiffusion
 *        (comme le toolkit : la paire telle quelle, sans autre effet).
 */
inline uint2 __cluster_map_shared_multicast(const void* pointer, unsigned cluster_cta_mask,
                                            const std::source_location& where = std::source_location::current()) {
    return make_uint2(simt::shared_address(pointer, where), cluster_cta_mask);
}
/** @brief Barrière mémoire à la portée du cluster : celle du processeur, comme __threadfence. */
inline void __threadfence_cluster() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    simt::detail::yield_point();
}

namespace simt::detail {

/**
 * @brief Inscrit les dimensions `__cluster_dims__` de @p name (un lambda qui rend le pointeur
 *        du noyau s'il est seul de son nom, voir unique_kernel) ; sans effet pour un noyau
 *        modèle ou surchargé, que check_cluster_dims signale à son premier lancement.
 */
template <typename Unique>
int register_cluster_dims_of(Unique unique, unsigned x = 1, unsigned y = 1, unsigned z = 1) {
    if constexpr (requires { unique(TypeTag<void>{}); })
        return register_cluster_dims(reinterpret_cast<const void*>(unique(TypeTag<void>{})), x, y, z);
    else
        return 0;
}

}  // namespace simt::detail

/**
 * @brief Placée par la réécriture après un noyau déclaré `__cluster_dims__(…)` : inscrit ses
 *        dimensions avant `main` (lambda sans capture, permis à la portée d'un espace de noms).
 */
#define SIMT_CLUSTER_DIMS(kernel, ...)                                                                   \
    ::simt::detail::register_cluster_dims_of(                                                           \
        [](auto simt_tag) -> decltype(::simt::detail::unique_kernel(kernel, simt_tag)) {                \
            return ::simt::detail::unique_kernel(kernel, simt_tag);                                     \
        } __VA_OPT__(, ) __VA_ARGS__)
