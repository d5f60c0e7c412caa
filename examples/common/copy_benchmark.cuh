/**
 * @file
 * @brief La référence de bande passante des benchmarks : une copie GPU → GPU du runtime,
 *        chronométrée par événements CUDA (temps manuel de Google Benchmark).
 */
#pragma once

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "event_timer.cuh"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>

namespace noyaux {

/**
 * @brief Copie @p bytes octets d'un tampon GPU à un autre à chaque itération ; le volume
 *        compté est lecture plus écriture, 2 × @p bytes, comme pour les noyaux comparés.
 */
inline void time_device_copy(benchmark::State& state, std::size_t bytes) {
    DeviceBuffer<unsigned char> source(bytes);
    DeviceBuffer<unsigned char> destination(bytes);
    NOYAUX_CUDA_CHECK(cudaMemset(source.data(), 0, bytes));
    EventTimer timer;
    for (auto _ : state) {
        timer.start();
        NOYAUX_CUDA_CHECK(cudaMemcpyAsync(destination.data(), source.data(), bytes,
                                          cudaMemcpyDeviceToDevice));
        state.SetIterationTime(timer.stop_ms() / 1e3);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 2 * bytes));
}

}  // namespace noyaux
