/**
 * @file
 * @brief Atomiques de libcu++ (cuda::atomic_ref, cuda::atomic, cuda::std::atomic…) sur le
 *        processeur, chacune suivie d'un point où la fibre cède la main, comme atomicAdd et
 *        les autres atomiques de simt.
 *
 * Sous g++, libcu++ exécute ses atomiques par les fonctions `__atomic_*_host` de ce fichier
 * du toolkit. Elles ne cèdent jamais la main : un thread CUDA qui attend qu'un autre bloc du
 * même thread du système lève un drapeau (`while (ref.load(acquire) == 0) {}`) tournerait
 * sans fin. Ce remplacement inclut l'original en renommant ses fonctions, puis définit sous
 * leur nom d'origine des enveloppes qui appellent l'original et cèdent la main : tout ce que
 * libcu++ construit au-dessus (ordres mémoire, portées, wait/notify) passe par elles. Ses
 * opérations étant noexcept, le point d'attente est yield_point_noexcept, qui n'interrompt
 * pas un thread par une exception.
 */
#pragma once

#include "simt/engine.hpp"

#define __atomic_thread_fence_host simt_libcudacxx_thread_fence
#define __atomic_store_host simt_libcudacxx_store
#define __atomic_load_host simt_libcudacxx_load
#define __atomic_exchange_host simt_libcudacxx_exchange
#define __atomic_compare_exchange_strong_host simt_libcudacxx_compare_exchange_strong
#define __atomic_compare_exchange_weak_host simt_libcudacxx_compare_exchange_weak
#define __atomic_fetch_add_host simt_libcudacxx_fetch_add
#define __atomic_fetch_sub_host simt_libcudacxx_fetch_sub
#define __atomic_fetch_and_host simt_libcudacxx_fetch_and
#define __atomic_fetch_or_host simt_libcudacxx_fetch_or
#define __atomic_fetch_xor_host simt_libcudacxx_fetch_xor
#define __atomic_fetch_max_host simt_libcudacxx_fetch_max
#define __atomic_fetch_min_host simt_libcudacxx_fetch_min
#include_next <cuda/std/__atomic/functions/host.h>
#undef __atomic_thread_fence_host
#undef __atomic_store_host
#undef __atomic_load_host
#undef __atomic_exchange_host
#undef __atomic_compare_exchange_strong_host
#undef __atomic_compare_exchange_weak_host
#undef __atomic_fetch_add_host
#undef __atomic_fetch_sub_host
#undef __atomic_fetch_and_host
#undef __atomic_fetch_or_host
#undef __atomic_fetch_xor_host
#undef __atomic_fetch_max_host
#undef __atomic_fetch_min_host

#include <cuda/std/__type_traits/is_void.h>

_LIBCUDACXX_BEGIN_NAMESPACE_STD

/** @brief Appelle @p operation, puis cède la main ; rend son résultat. */
template <typename _Operation>
inline decltype(auto) __simt_then_yield(_Operation __operation)
{
  if constexpr (is_void_v<decltype(__operation())>)
  {
    __operation();
    ::simt::detail::yield_point_noexcept();
  }
  else
  {
    auto __result = __operation();
    ::simt::detail::yield_point_noexcept();
    return __result;
  }
}

inline void __atomic_thread_fence_host(memory_order __order)
{
  __simt_then_yield([&] { simt_libcudacxx_thread_fence(__order); });
}

template <typename _Tp, typename _Up>
inline void __atomic_store_host(_Tp* __a, _Up __val, memory_order __order)
{
  __simt_then_yield([&] { simt_libcudacxx_store(__a, __val, __order); });
}

template <typename _Tp>
inline auto __atomic_load_host(_Tp* __a, memory_order __order) -> remove_cv_t<_Tp>
{
  return __simt_then_yield([&] { return simt_libcudacxx_load(__a, __order); });
}

template <typename _Tp, typename _Up>
inline auto __atomic_exchange_host(_Tp* __a, _Up __val, memory_order __order) -> remove_cv_t<_Tp>
{
  return __simt_then_yield([&] { return simt_libcudacxx_exchange(__a, __val, __order); });
}

template <typename _Tp, typename _Up>
inline bool __atomic_compare_exchange_strong_host(
  _Tp* __a, _Up* __expected, _Up __desired, memory_order __success, memory_order __failure)
{
  return __simt_then_yield([&] {
    return simt_libcudacxx_compare_exchange_strong(__a, __expected, __desired, __success, __failure);
  });
}

template <typename _Tp, typename _Up>
inline bool __atomic_compare_exchange_weak_host(
  _Tp* __a, _Up* __expected, _Up __desired, memory_order __success, memory_order __failure)
{
  return __simt_then_yield([&] {
    return simt_libcudacxx_compare_exchange_weak(__a, __expected, __desired, __success, __failure);
  });
}

#define SIMT_LIBCUDACXX_FETCH(operation)                                                 \
  template <typename _Tp, typename _Td>                                                  \
  inline remove_cv_t<_Tp> __atomic_fetch_##operation##_host(_Tp* __a, _Td __operand,    \
                                                            memory_order __order)        \
  {                                                                                      \
    return __simt_then_yield(                                                            \
      [&] { return simt_libcudacxx_fetch_##operation(__a, __operand, __order); });       \
  }
SIMT_LIBCUDACXX_FETCH(add)
SIMT_LIBCUDACXX_FETCH(sub)
SIMT_LIBCUDACXX_FETCH(and)
SIMT_LIBCUDACXX_FETCH(or)
SIMT_LIBCUDACXX_FETCH(xor)
SIMT_LIBCUDACXX_FETCH(max)
SIMT_LIBCUDACXX_FETCH(min)
#undef SIMT_LIBCUDACXX_FETCH

_LIBCUDACXX_END_NAMESPACE_STD
