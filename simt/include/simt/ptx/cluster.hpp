/**
 * @file
 * @brief PTX des clusters de blocs (sm_90), cible de simt/rewrite/ptx/cluster.py :
 *        barrier.cluster, mapa, ld/st.shared::cluster, fence.*.cluster et les registres
 *        spéciaux %cluster_*, %clusterid, %is_explicit_cluster. Le moteur (phases de la
 *        barrière, mémoire des autres blocs) est dans src/cluster.cpp ; l'adressage
 *        `.shared::cluster`, dans simt/cluster_window.hpp.
 */
#pragma once

#include "simt/cluster_window.hpp"
#include "simt/engine.hpp"
#include "simt/ptx/base.hpp"

#include <atomic>
#include <cstdint>
#include <source_location>

namespace simt::ptx {

/** @brief barrier.cluster.arrive{.release,.relaxed}{.aligned} : simt ordonne toujours la mémoire. */
inline void barrier_cluster_arrive(const std::source_location& where = std::source_location::current()) {
    ::simt::detail::cluster_arrive(where);
}
/** @brief barrier.cluster.wait{.acquire}{.aligned} */
inline void barrier_cluster_wait(const std::source_location& where = std::source_location::current()) {
    ::simt::detail::cluster_wait(where);
}

/** @brief mapa.shared::cluster.{u32,u64} d, a, rang : adresse `.shared::cluster` dans le bloc visé. */
template <typename D, typename A, typename B>
void mapa_shared(D& d, const A& a, const B& rank, const std::source_location& where = std::source_location::current()) {
    put(d, ::simt::cluster_shared_address(static_cast<std::uint32_t>(get<std::uint64_t>(a)),
                                          get<std::uint32_t>(rank), where));
}
/** @brief mapa.u64 d, a, rang : pointeur générique → pointeur générique dans le bloc visé. */
template <typename D, typename A, typename B>
void mapa_generic(D& d, const A& a, const B& rank, const std::source_location& where = std::source_location::current()) {
    const void* pointer = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(get<std::uint64_t>(a)));
    put(d, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(
               ::simt::detail::cluster_map_shared(pointer, get<std::uint32_t>(rank), where))));
}

/** @brief Pointeur d'un opérande `[base+décalage]` de la fenêtre `.shared::cluster`, pour @p bytes octets. */
template <typename B>
void* cluster_operand(const B& base, std::int64_t offset, std::size_t bytes,
                      const std::source_location& where = std::source_location::current()) {
    return ::simt::cluster_shared_pointer(shared_operand(base, offset), bytes, where);
}

/** @brief fence.{sc,acq_rel}.cluster, fence.mbarrier_init.release.cluster : celle du processeur. */
inline void fence_cluster() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    ::simt::detail::yield_point();
}

/** @brief %cluster_ctarank */
inline std::uint32_t sreg_cluster_ctarank() { return ::simt::detail::cluster_place().block_rank; }
/** @brief %cluster_nctarank */
inline std::uint32_t sreg_cluster_nctarank() {
    const dim3 d = ::simt::detail::cluster_place().dims;
    return d.x * d.y * d.z;
}
/** @brief Composante @p axis (0, 1, 2) d'un dim3. */
inline std::uint32_t axis_of(dim3 v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }
/** @brief %clusterid.x/y/z : indice du cluster dans la grille. */
inline std::uint32_t sreg_clusterid(int axis) { return axis_of(::simt::detail::cluster_place().index, axis); }
/** @brief %nclusterid.x/y/z : dimensions de la grille en clusters. */
inline std::uint32_t sreg_nclusterid(int axis) { return axis_of(::simt::detail::cluster_place().grid, axis); }
/** @brief %cluster_ctaid.x/y/z : indice du bloc dans son cluster. */
inline std::uint32_t sreg_cluster_ctaid(int axis) { return axis_of(::simt::detail::cluster_place().block_index, axis); }
/** @brief %cluster_nctaid.x/y/z : dimensions du cluster en blocs. */
inline std::uint32_t sreg_cluster_nctaid(int axis) { return axis_of(::simt::detail::cluster_place().dims, axis); }
/** @brief %is_explicit_cluster : vrai si le lancement a des dimensions de cluster. */
inline bool sreg_is_explicit_cluster() { return ::simt::detail::cluster_place().explicit_dims; }

}  // namespace simt::ptx
