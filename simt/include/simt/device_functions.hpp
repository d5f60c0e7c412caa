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

// ---- Intrinsèques ------------------------------------------------------------------------

inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __frsqrt_rn(float x) { return 1.0f / std::sqrt(x); }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline unsigned __float2uint_rn(float x) { return static_cast<unsigned>(std::nearbyint(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __clz(int x) { return std::countl_zero(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1; }
inline int __ffsll(long long x) {
    return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1;
}
inline unsigned __brev(unsigned x) {
    unsigned result = 0;
    for (int bit = 0; bit < 32; ++bit) result |= ((x >> bit) & 1u) << (31 - bit);
    return result;
}
inline int __mul24(int a, int b) { return (a << 8 >> 8) * (b << 8 >> 8); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
    return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
template <typename T>
T __ldg(const T* address) {
    return *address;
}

// min et max globaux de CUDA (le C++ n'a que std::min et std::max), avec les surcharges de
// crt/math_functions.hpp : sans celles de long et unsigned long, min(n, m) sur deux size_t
// serait ambigu. Un mélange signé / non signé se compare en non signé, comme sur GPU.
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline unsigned min(int a, unsigned b) { return min(static_cast<unsigned>(a), b); }
inline unsigned max(int a, unsigned b) { return max(static_cast<unsigned>(a), b); }
inline unsigned min(unsigned a, int b) { return min(a, static_cast<unsigned>(b)); }
inline unsigned max(unsigned a, int b) { return max(a, static_cast<unsigned>(b)); }
inline long min(long a, long b) { return a < b ? a : b; }
inline long max(long a, long b) { return a > b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
inline unsigned long min(long a, unsigned long b) { return min(static_cast<unsigned long>(a), b); }
inline unsigned long max(long a, unsigned long b) { return max(static_cast<unsigned long>(a), b); }
inline unsigned long min(unsigned long a, long b) { return min(a, static_cast<unsigned long>(b)); }
inline unsigned long max(unsigned long a, long b) { return max(a, static_cast<unsigned long>(b)); }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline unsigned long long min(long long a, unsigned long long b) {
    return min(static_cast<unsigned long long>(a), b);
}
inline unsigned long long max(long long a, unsigned long long b) {
    return max(static_cast<unsigned long long>(a), b);
}
inline unsigned long long min(unsigned long long a, long long b) {
    return min(a, static_cast<unsigned long long>(b));
}
inline unsigned long long max(unsigned long long a, long long b) {
    return max(a, static_cast<unsigned long long>(b));
}
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double min(float a, double b) { return std::fmin(static_cast<double>(a), b); }
inline double max(float a, double b) { return std::fmax(static_cast<double>(a), b); }
inline double min(double a, float b) { return std::fmin(a, static_cast<double>(b)); }
inline double max(double a, float b) { return std::fmax(a, static_cast<double>(b)); }
