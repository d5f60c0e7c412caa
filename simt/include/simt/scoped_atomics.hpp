/**
 * @file
 * @brief Atomiques à portée : variantes `_block` et `_system` des atomiques de CUDA, et les
 *        fonctions atomiques intégrées `__nv_atomic_*` (CUDA 12.8 et au-delà, avec ordre
 *        mémoire et portée explicites).
 *
 * Les atomiques de simt sont celles du processeur, valables entre tous ses threads : une
 * portée plus large que demandée ne change rien à un programme correct (la portée ne fait
 * que restreindre ce que le GPU garantit). L'ordre mémoire demandé est respecté (au moins) ;
 * chaque opération cède ensuite la main, comme les autres atomiques.
 */
#pragma once

#include <atomic>
#include <type_traits>

// Ordres et portées : crt/device_functions.h ne les déclare que pour nvcc.
enum {
    __NV_ATOMIC_RELAXED,
    __NV_ATOMIC_CONSUME,
    __NV_ATOMIC_ACQUIRE,
    __NV_ATOMIC_RELEASE,
    __NV_ATOMIC_ACQ_REL,
    __NV_ATOMIC_SEQ_CST
};
enum {
    __NV_THREAD_SCOPE_THREAD,
    __NV_THREAD_SCOPE_BLOCK,
    __NV_THREAD_SCOPE_CLUSTER,
    __NV_THREAD_SCOPE_DEVICE,
    __NV_THREAD_SCOPE_SYSTEM
};

// ---- Variantes à portée des atomiques de CUDA --------------------------------------------

#define SIMT_SCOPED_ATOMIC(name)                                                               \
    template <typename T>                                                                      \
    T name##_block(T* address, std::type_identity_t<T> value) { return name(address, value); } \
    template <typename T>                                                                      \
    T name##_system(T* address, std::type_identity_t<T> value) { return name(address, value); }

SIMT_SCOPED_ATOMIC(atomicAdd)
SIMT_SCOPED_ATOMIC(atomicSub)
SIMT_SCOPED_ATOMIC(atomicExch)
SIMT_SCOPED_ATOMIC(atomicMin)
SIMT_SCOPED_ATOMIC(atomicMax)
SIMT_SCOPED_ATOMIC(atomicAnd)
SIMT_SCOPED_ATOMIC(atomicOr)
SIMT_SCOPED_ATOMIC(atomicXor)
#undef SIMT_SCOPED_ATOMIC

inline unsigned atomicInc_block(unsigned* address, unsigned limit) { return atomicInc(address, limit); }
inline unsigned atomicInc_system(unsigned* address, unsigned limit) { return atomicInc(address, limit); }
inline unsigned atomicDec_block(unsigned* address, unsigned limit) { return atomicDec(address, limit); }
inline unsigned atomicDec_system(unsigned* address, unsigned limit) { return atomicDec(address, limit); }
template <typename T>
T atomicCAS_block(T* address, std::type_identity_t<T> compare, std::type_identity_t<T> value) {
    return atomicCAS(address, compare, value);
}
template <typename T>
T atomicCAS_system(T* address, std::type_identity_t<T> compare, std::type_identity_t<T> value) {
    return atomicCAS(address, compare, value);
}

// ---- Fonctions atomiques intégrées (__nv_atomic_*) ---------------------------------------

namespace simt::detail {

/** @brief Ordre mémoire de C++ d'un ordre __NV_ATOMIC_* (consume est traité en acquire). */
constexpr std::memory_order memory_order_of(int order) {
    switch (order) {
        case __NV_ATOMIC_RELAXED: return std::memory_order_relaxed;
        case __NV_ATOMIC_CONSUME:
        case __NV_ATOMIC_ACQUIRE: return std::memory_order_acquire;
        case __NV_ATOMIC_RELEASE: return std::memory_order_release;
        case __NV_ATOMIC_ACQ_REL: return std::memory_order_acq_rel;
        default: return std::memory_order_seq_cst;
    }
}

/** @brief Ordre d'un chargement : release n'y a pas de sens, acq_rel devient acquire. */
constexpr std::memory_order load_order_of(int order) {
    const std::memory_order o = memory_order_of(order);
    return o == std::memory_order_release ? std::memory_order_relaxed
                                          : o == std::memory_order_acq_rel ? std::memory_order_acquire : o;
}

/** @brief Ordre d'un stockage : acquire n'y a pas de sens, acq_rel devient release. */
constexpr std::memory_order store_order_of(int order) {
    const std::memory_order o = memory_order_of(order);
    return o == std::memory_order_acquire ? std::memory_order_relaxed
                                          : o == std::memory_order_acq_rel ? std::memory_order_release : o;
}

/**
 * @brief Lecture-modification-écriture atomique de *@p address par une boucle compare-échange
 *        (@p update calcule la nouvelle valeur à partir de l'ancienne), suivie du point
 *        d'attente des atomiques ; rend l'ancienne valeur. Toutes les __nv_atomic_fetch_* et
 *        l'échange y passent.
 */
template <typename T, typename Update>
T fetch_update(T* address, int order, Update update) {
    std::atomic_ref<T> target(*address);
    T old = target.load(std::memory_order_relaxed);
    while (!target.compare_exchange_weak(old, update(old), memory_order_of(order), std::memory_order_relaxed)) {
    }
    yield_point(address, sizeof(T));
    return old;
}

}  // namespace simt::detail

template <typename T>
T __nv_atomic_fetch_add(T* address, std::type_identity_t<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
    return simt::detail::fetch_update(address, order, [value](T old) { return T(old + value); });
}
template <typename T>
T __nv_atomic_fetch_sub(T* address, std::type_identity_t<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
    return simt::detail::fetch_update(address, order, [value](T old) { return T(old - value); });
}
template <typename T>
T __nv_atomic_fetch_min(T* address, std::type_identity_t<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
    return simt::detail::fetch_update(address, order, [value](T old) { return value < old ? value : old; });
}
template <typename T>
T __nv_atomic_fetch_max(T* address, std::type_identity_t<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
    return simt::detail::fetch_update(address, order, [value](T old) { return value > old ? value : old; });
}
template <typename T>
T __nv_atomic_fetch_and(T* address, std::type_identity_t<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
    return simt::detail::fetch_update(address, order, [value](T old) { return T(old & value); });
}
template <typename T>
T __nv_atomic_fetch_or(T* address, std::type_identity_t<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
    return simt::detail::fetch_update(address, order, [value](T old) { return T(old | value); });
}
template <typename T>
T __nv_atomic_fetch_xor(T* address, std::type_identity_t<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
    return simt::detail::fetch_update(address, order, [value](T old) { return T(old ^ value); });
}

// Les mêmes, sans rendre l'ancienne valeur.
#define SIMT_NV_ATOMIC_VOID(name)                                                                        \
    template <typename T>                                                                               \
    void __nv_atomic_##name(T* address, std::type_identity_t<T> value, int order,                       \
                            int scope = __NV_THREAD_SCOPE_SYSTEM) {                                     \
        __nv_atomic_fetch_##name(address, value, order, scope);                                         \
    }
SIMT_NV_ATOMIC_VOID(add)
SIMT_NV_ATOMIC_VOID(sub)
SIMT_NV_ATOMIC_VOID(min)
SIMT_NV_ATOMIC_VOID(max)
SIMT_NV_ATOMIC_VOID(and)
SIMT_NV_ATOMIC_VOID(or)
SIMT_NV_ATOMIC_VOID(xor)
#undef SIMT_NV_ATOMIC_VOID

template <typename T>
T __nv_atomic_exchange_n(T* address, std::type_identity_t<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
    return simt::detail::fetch_update(address, order, [value](T) { return value; });
}
template <typename T>
void __nv_atomic_exchange(T* address, T* value, T* previous, int order, int scope = __NV_THREAD_SCOPE_SYSTEM) {
    *previous = __nv_atomic_exchange_n(address, *value, order, scope);
}
template <typename T>
bool __nv_atomic_compare_exchange_n(T* address, T* expected, std::type_identity_t<T> desired, bool weak,
                                    int success_order, int failure_order, int = __NV_THREAD_SCOPE_SYSTEM) {
    std::atomic_ref<T> target(*address);
    const std::memory_order success = simt::detail::memory_order_of(success_order);
    const std::memory_order failure = simt::detail::load_order_of(failure_order);
    const bool exchanged = weak ? target.compare_exchange_weak(*expected, desired, success, failure)
                                : target.compare_exchange_strong(*expected, desired, success, failure);
    simt::detail::yield_point(address, sizeof(T));
    return exchanged;
}
template <typename T>
bool __nv_atomic_compare_exchange(T* address, T* expected, T* desired, bool weak, int success_order,
                                  int failure_order, int scope = __NV_THREAD_SCOPE_SYSTEM) {
    return __nv_atomic_compare_exchange_n(address, expected, *desired, weak, success_order, failure_order, scope);
}
template <typename T>
T __nv_atomic_load_n(T* address, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
    const T value = std::atomic_ref<T>(*address).load(simt::detail::load_order_of(order));
    simt::detail::yield_point();
    return value;
}
template <typename T>
void __nv_atomic_load(T* address, T* result, int order, int scope = __NV_THREAD_SCOPE_SYSTEM) {
    *result = __nv_atomic_load_n(address, order, scope);
}
template <typename T>
void __nv_atomic_store_n(T* address, std::type_identity_t<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
    std::atomic_ref<T>(*address).store(value, simt::detail::store_order_of(order));
    simt::detail::yield_point(address, sizeof(T));
}
template <typename T>
void __nv_atomic_store(T* address, T* value, int order, int scope = __NV_THREAD_SCOPE_SYSTEM) {
    __nv_atomic_store_n(address, *value, order, scope);
}
inline void __nv_atomic_thread_fence(int order, int = __NV_THREAD_SCOPE_SYSTEM) {
    std::atomic_thread_fence(simt::detail::memory_order_of(order));
    simt::detail::yield_point();
}
