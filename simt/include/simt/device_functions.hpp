/**
 * @file
 * @brief Fonctions du périphérique émulées : barrières, warps, atomiques, barrières
 *        mémoire, intrinsèques mathématiques et de bits, horloge.
 */
#pragma once

#include "simt/engine.hpp"

#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <source_location>
#include <type_traits>

// ---- Barrières de bloc ----------------------------------------------------------------

inline void __syncthreads(const std::source_location& where = std::source_location::current()) {
    simt::detail::block_barrier(simt::detail::BarrierKind::sync, 0, where);
}
inline int __syncthreads_count(int predicate,
                               const std::source_location& where = std::source_location::current()) {
    return simt::detail::block_barrier(simt::detail::BarrierKind::count, predicate, where);
}
inline int __syncthreads_and(int predicate,
                             const std::source_location& where = std::source_location::current()) {
    return simt::detail::block_barrier(simt::detail::BarrierKind::all, predicate, where);
}
inline int __syncthreads_or(int predicate,
                            const std::source_location& where = std::source_location::current()) {
    return simt::detail::block_barrier(simt::detail::BarrierKind::any, predicate, where);
}

// ---- Warps ----------------------------------------------------------------------------

namespace simt::detail {

template <typename T>
T warp_shuffle(WarpOp op, unsigned mask, T value, int parameter, int width,
               const std::source_location& where) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 16,
                  "simt : type trop grand ou non copiable pour un shuffle");
    T result{};
    warp_collective(op, mask, &value, &result, sizeof(T), parameter, width, where);
    return result;
}

}  // namespace simt::detail

template <typename T>
T __shfl_sync(unsigned mask, T value, int source_lane, int width = warpSize,
              const std::source_location& where = std::source_location::current()) {
    return simt::detail::warp_shuffle(simt::detail::WarpOp::shfl, mask, value, source_lane, width, where);
}
template <typename T>
T __shfl_up_sync(unsigned mask, T value, unsigned delta, int width = warpSize,
                 const std::source_location& where = std::source_location::current()) {
    return simt::detail::warp_shuffle(simt::detail::WarpOp::shfl_up, mask, value, int(delta), width, where);
}
template <typename T>
T __shfl_down_sync(unsigned mask, T value, unsigned delta, int width = warpSize,
                   const std::source_location& where = std::source_location::current()) {
    return simt::detail::warp_shuffle(simt::detail::WarpOp::shfl_down, mask, value, int(delta), width, where);
}
template <typename T>
T __shfl_xor_sync(unsigned mask, T value, int lane_mask, int width = warpSize,
                  const std::source_location& where = std::source_location::current()) {
    return simt::detail::warp_shuffle(simt::detail::WarpOp::shfl_xor, mask, value, lane_mask, width, where);
}
inline unsigned __ballot_sync(unsigned mask, int predicate,
                              const std::source_location& where = std::source_location::current()) {
    unsigned result = 0;
    simt::detail::warp_collective(simt::detail::WarpOp::ballot, mask, &predicate, &result,
                                  sizeof(int), 0, warpSize, where);
    return result;
}
inline int __all_sync(unsigned mask, int predicate,
                      const std::source_location& where = std::source_location::current()) {
    int result = 0;
    simt::detail::warp_collective(simt::detail::WarpOp::all, mask, &predicate, &result,
                                  sizeof(int), 0, warpSize, where);
    return result;
}
inline int __any_sync(unsigned mask, int predicate,
                      const std::source_location& where = std::source_location::current()) {
    int result = 0;
    simt::detail::warp_collective(simt::detail::WarpOp::any, mask, &predicate, &result,
                                  sizeof(int), 0, warpSize, where);
    return result;
}
inline void __syncwarp(unsigned mask = 0xffffffffu,
                       const std::source_location& where = std::source_location::current()) {
    int unused = 0;
    simt::detail::warp_collective(simt::detail::WarpOp::sync, mask, &unused, &unused, sizeof(int),
                                  0, warpSize, where);
}
inline unsigned __activemask() { return simt::detail::active_mask(); }

// ---- Réductions de warp (capacité 8.0 : redux.sync) ------------------------------------
// Chaque lane du masque reçoit la réduction des valeurs de toutes les lanes non terminées du
// masque (PTX ISA, redux.sync) ; mêmes règles de masque que les shuffles et les votes.
// add, min et max existent pour unsigned et int (min et max comparent alors avec signe ; la
// somme est tronquée à 32 bits) ; and, or et xor pour unsigned seulement.

namespace simt::detail {

template <typename T>
T warp_reduce(WarpOp op, unsigned mask, T value, const std::source_location& where) {
    static_assert(sizeof(T) == 4, "simt : les réductions de warp portent sur 32 bits");
    T result{};
    warp_collective(op, mask, &value, &result, sizeof(T), std::is_signed_v<T> ? 1 : 0, warpSize, where);
    return result;
}

}  // namespace simt::detail

#define SIMT_WARP_REDUCE(NAME, OP, TYPE)                                                        \
    inline TYPE NAME(unsigned mask, TYPE value,                                                \
                     const std::source_location& where = std::source_location::current()) {    \
        return simt::detail::warp_reduce<TYPE>(simt::detail::WarpOp::OP, mask, value, where); \
    }
SIMT_WARP_REDUCE(__reduce_add_sync, reduce_add, unsigned)
SIMT_WARP_REDUCE(__reduce_add_sync, reduce_add, int)
SIMT_WARP_REDUCE(__reduce_min_sync, reduce_min, unsigned)
SIMT_WARP_REDUCE(__reduce_min_sync, reduce_min, int)
SIMT_WARP_REDUCE(__reduce_max_sync, reduce_max, unsigned)
SIMT_WARP_REDUCE(__reduce_max_sync, reduce_max, int)
SIMT_WARP_REDUCE(__reduce_and_sync, reduce_and, unsigned)
SIMT_WARP_REDUCE(__reduce_or_sync, reduce_or, unsigned)
SIMT_WARP_REDUCE(__reduce_xor_sync, reduce_xor, unsigned)
#undef SIMT_WARP_REDUCE

// ---- Correspondances de warp (capacité 7.0 : match.sync) -------------------------------
// Valeurs de 32 ou 64 bits (entiers, float, double), comparées bit à bit, entre les lanes non
// terminées du masque (PTX ISA, match.sync).

namespace simt::detail {

template <typename T>
unsigned warp_match(WarpOp op, unsigned mask, T value, const std::source_location& where) {
    static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                  "simt : __match_any_sync et __match_all_sync comparent des valeurs de 32 ou 64 bits");
    unsigned char result[sizeof(T)] = {};  // warp_collective rend sizeof(T) octets ; le masque en tête
    warp_collective(op, mask, &value, result, sizeof(T), 0, warpSize, where);
    unsigned lanes = 0;
    std::memcpy(&lanes, result, sizeof lanes);
    return lanes;
}

}  // namespace simt::detail

/** @brief Les lanes du masque dont la valeur est celle de la lane appelante. */
template <typename T>
unsigned __match_any_sync(unsigned mask, T value,
                          const std::source_location& where = std::source_location::current()) {
    return simt::detail::warp_match(simt::detail::WarpOp::match_any, mask, value, where);
}
/** @brief Les lanes du masque si toutes ont la même valeur (@p predicate vrai), sinon 0. */
template <typename T>
unsigned __match_all_sync(unsigned mask, T value, int* predicate,
                          const std::source_location& where = std::source_location::current()) {
    const unsigned lanes = simt::detail::warp_match(simt::detail::WarpOp::match_all, mask, value, where);
    *predicate = lanes != 0;
    return lanes;
}

// ---- Atomiques (mémoire globale et partagée) -------------------------------------------
// Les blocs tournent sur plusieurs threads du système : de vraies opérations atomiques.
// Chaque atomique cède ensuite la main, pour qu'une attente active progresse.
// Le type se déduit de l'adresse seule (std::type_identity_t pour les valeurs) : CUDA a
// une surcharge par type, si bien que atomicAdd(&compteur_unsigned, 1) y est valide.

namespace simt::detail {

template <typename T, typename Update>
T atomic_update(T* address, Update update) {
    std::atomic_ref<T> target(*address);
    T old = target.load();
    while (!target.compare_exchange_weak(old, update(old))) {
    }
    yield_point(address, sizeof(T));
    return old;
}

}  // namespace simt::detail

template <typename T>
T atomicAdd(T* address, std::type_identity_t<T> value) {
    const T old = std::atomic_ref<T>(*address).fetch_add(value);
    simt::detail::yield_point(address, sizeof(T));
    return old;
}
template <typename T>
T atomicSub(T* address, std::type_identity_t<T> value) {
    const T old = std::atomic_ref<T>(*address).fetch_sub(value);
    simt::detail::yield_point(address, sizeof(T));
    return old;
}
template <typename T>
T atomicExch(T* address, std::type_identity_t<T> value) {
    const T old = std::atomic_ref<T>(*address).exchange(value);
    simt::detail::yield_point(address, sizeof(T));
    return old;
}
template <typename T>
T atomicMin(T* address, std::type_identity_t<T> value) {
    return simt::detail::atomic_update(address, [value](T old) { return value < old ? value : old; });
}
template <typename T>
T atomicMax(T* address, std::type_identity_t<T> value) {
    return simt::detail::atomic_update(address, [value](T old) { return value > old ? value : old; });
}
template <typename T>
T atomicAnd(T* address, std::type_identity_t<T> value) {
    return simt::detail::atomic_update(address, [value](T old) { return T(old & value); });
}
template <typename T>
T atomicOr(T* address, std::type_identity_t<T> value) {
    return simt::detail::atomic_update(address, [value](T old) { return T(old | value); });
}
template <typename T>
T atomicXor(T* address, std::type_identity_t<T> value) {
    return simt::detail::atomic_update(address, [value](T old) { return T(old ^ value); });
}
inline unsigned atomicInc(unsigned* address, unsigned limit) {
    return simt::detail::atomic_update(address, [limit](unsigned old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned atomicDec(unsigned* address, unsigned limit) {
    return simt::detail::atomic_update(
        address, [limit](unsigned old) { return (old == 0 || old > limit) ? limit : old - 1; });
}
template <typename T>
T atomicCAS(T* address, std::type_identity_t<T> compare, std::type_identity_t<T> value) {
    std::atomic_ref<T>(*address).compare_exchange_strong(compare, value);
    simt::detail::yield_point(address, sizeof(T));
    return compare;  // vaut l'ancienne valeur, que l'échange ait eu lieu ou non
}

// ---- Barrières mémoire, horloge, arrêt -------------------------------------------------

inline void __threadfence() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    simt::detail::yield_point();
}
inline void __threadfence_block() { __threadfence(); }
inline void __threadfence_system() { __threadfence(); }
inline void __nanosleep(unsigned) { simt::detail::yield_point(); }

// ---- Lancement à dépendance programmatique (PDL) ----------------------------------------
// Le toolkit ne les déclare que pour nvcc (cuda_device_runtime_api.h, griddepcontrol en PTX,
// capacité 9.0). Le flux émulé est séquentiel : une grille ne démarre qu'après la fin de
// celle dont elle dépend, si bien que l'attente est déjà satisfaite et que le signal, permis
// avant comme après l'attente, n'a rien à avancer. Un point d'attente chacun, comme sur GPU
// où ce sont des instructions qui peuvent suspendre le warp.

/** @brief Attend la fin des grilles dont dépend celle-ci : déjà finies dans l'émulateur. */
inline void cudaGridDependencySynchronize() { simt::detail::yield_point(); }
/** @brief Autorise le lancement de la grille suivante : sans effet sur un flux séquentiel. */
inline void cudaTriggerProgrammaticLaunchCompletion() { simt::detail::yield_point(); }
inline long long clock64() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch()).count();
}
[[noreturn]] inline void __trap(const std::source_location& where = std::source_location::current()) {
    simt::detail::trap("__trap()", where);
}

template <typename T>
T __ldg(const T* address) {
    return *address;
}

#include "simt/intrinsics.hpp"
#include "simt/scoped_atomics.hpp"
