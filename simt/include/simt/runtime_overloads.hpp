/**
 * @file
 * @brief Surcharges C++ de l'API runtime que cuda_runtime.h ne déclare que sous nvcc
 *        (#if defined(__CUDACC__)) : elles acceptent le noyau ou la variable elle-même,
 *        là où l'API C demande un `const void*`. Sans elles, `cudaFuncSetAttribute(noyau, …)`
 *        ou `cudaMemcpyToSymbol(constante, …)`, corrects pour nvcc, ne compilent pas avec g++.
 */
#pragma once

#include "simt/launch.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace simt::detail {

/** @brief Retient le type d'un noyau passé à une surcharge typée (voir remember_kernel). */
template <class T>
void remember_if_kernel(T* kernel) {
    if constexpr (std::is_function_v<T>) remember(kernel);
}

}  // namespace simt::detail

template <class T>
inline cudaError_t cudaFuncSetAttribute(T* kernel, cudaFuncAttribute attribute, int value) {
    simt::detail::remember_if_kernel(kernel);
    return ::cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel), attribute, value);
}

template <class T>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, T* kernel) {
    simt::detail::remember_if_kernel(kernel);
    return ::cudaFuncGetAttributes(attributes, reinterpret_cast<const void*>(kernel));
}

template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T* kernel, int block_size,
                                                                 std::size_t dynamic_shared_bytes) {
    simt::detail::remember_if_kernel(kernel);
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void*>(kernel),
                                                           block_size, dynamic_shared_bytes);
}

template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, T* kernel, int block_size,
                                                                          std::size_t dynamic_shared_bytes,
                                                                          unsigned int flags) {
    simt::detail::remember_if_kernel(kernel);
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        blocks, reinterpret_cast<const void*>(kernel), block_size, dynamic_shared_bytes, flags);
}

template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* source, std::size_t count,
                                      std::size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    return ::cudaMemcpyToSymbol(static_cast<const void*>(&symbol), source, count, offset, kind);
}

template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* destination, const T& symbol, std::size_t count,
                                        std::size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    return ::cudaMemcpyFromSymbol(destination, static_cast<const void*>(&symbol), count, offset, kind);
}
