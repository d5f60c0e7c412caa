/**
 * @file
 * @brief Recouvrir les copies par le calcul : des lots traités chacun par copie vers le GPU,
 *        noyau, copie vers l'hôte, répartis sur plusieurs flux ; mémoire hôte épinglée
 *        (cudaMallocHost), tampons du GPU pris et rendus dans l'ordre du flux
 *        (cudaMallocAsync, cudaFreeAsync), événements pour ordonner les flux entre eux.
 *
 * Réservé au GPU : l'émulateur simt n'a pas l'allocateur ordonné par flux (cudaMallocAsync)
 * et exécute tout dans l'ordre, sans recouvrement.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "decoupage.hpp"

#include <cstddef>
#include <vector>

namespace noyaux::glossaire::streams {

// --8<-- [start:noyau]
/**
 * @brief x ← x·a + b, répété @p iterations fois sur chaque élément (FMA explicite, donc le même
 *        arrondi que std::fma sur l'hôte) : assez de calcul pour équilibrer les copies.
 */
__global__ void repeated_fma(float* __restrict__ data, std::size_t n, float a, float b, int iterations) {
    const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        float x = data[i];
        for (int k = 0; k < iterations; ++k) x = fmaf(x, a, b);
        data[i] = x;
    }
}
// --8<-- [end:noyau]

/** @brief Flux et événements de l'exemple, créés une fois et détruits avec lui. */
class StreamSet {
public:
    /** @brief @p count flux non bloquants (ils ne s'ordonnent pas sur le flux par défaut). */
    explicit StreamSet(unsigned count) : streams_(count), done_(count) {
        for (unsigned s = 0; s < count; ++s) {
            NOYAUX_CUDA_CHECK(cudaStreamCreateWithFlags(&streams_[s], cudaStreamNonBlocking));
            NOYAUX_CUDA_CHECK(cudaEventCreateWithFlags(&done_[s], cudaEventDisableTiming));
        }
        NOYAUX_CUDA_CHECK(cudaEventCreate(&start_));
        NOYAUX_CUDA_CHECK(cudaEventCreate(&stop_));
    }
    StreamSet(const StreamSet&) = delete;
    StreamSet& operator=(const StreamSet&) = delete;
    ~StreamSet() {
        for (cudaStream_t s : streams_) cudaStreamDestroy(s);
        for (cudaEvent_t e : done_) cudaEventDestroy(e);
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }

    /** @brief Nombre de flux. */
    unsigned size() const { return static_cast<unsigned>(streams_.size()); }

    // --8<-- [start:pipeline]
    /**
     * @brief Traite @p n éléments de @p host_in vers @p host_out (mémoire épinglée) par lots, et
     *        rend la durée en millisecondes, du premier envoi à la dernière copie revenue.
     *
     * Chaque lot, dans son flux : tampon pris par cudaMallocAsync, copie vers le GPU, noyau,
     * copie vers l'hôte, tampon rendu par cudaFreeAsync. Un flux n'attend que ses propres lots :
     * pendant qu'un lot calcule, le suivant peut déjà traverser le bus, sur un autre moteur de
     * copie. Les événements ordonnent les flux entre eux : tous partent après l'événement
     * « départ » du flux 0, et le flux 0 attend la fin de tous avant l'événement « arrivée ».
     */
    float run(const float* host_in, float* host_out, std::size_t n, std::size_t chunks, float a, float b,
              int iterations) {
        const std::vector<Chunk> plan = split_into_chunks(n, chunks, size());
        cudaStream_t first = streams_[0];
        NOYAUX_CUDA_CHECK(cudaEventRecord(start_, first));
        for (unsigned s = 1; s < size(); ++s) NOYAUX_CUDA_CHECK(cudaStreamWaitEvent(streams_[s], start_, 0));
        for (const Chunk& chunk : plan) {
            cudaStream_t stream = streams_[chunk.stream];
            const std::size_t bytes = chunk.count * sizeof(float);
            float* device = nullptr;
            NOYAUX_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&device), bytes, stream));
            NOYAUX_CUDA_CHECK(cudaMemcpyAsync(device, host_in + chunk.offset, bytes, cudaMemcpyHostToDevice, stream));
            repeated_fma<<<256, 256, 0, stream>>>(device, chunk.count, a, b, iterations);
            NOYAUX_CUDA_CHECK(cudaGetLastError());
            NOYAUX_CUDA_CHECK(cudaMemcpyAsync(host_out + chunk.offset, device, bytes, cudaMemcpyDeviceToHost, stream));
            NOYAUX_CUDA_CHECK(cudaFreeAsync(device, stream));  // rendu quand le flux y arrive
        }
        for (unsigned s = 1; s < size(); ++s) {
            NOYAUX_CUDA_CHECK(cudaEventRecord(done_[s], streams_[s]));
            NOYAUX_CUDA_CHECK(cudaStreamWaitEvent(first, done_[s], 0));
        }
        NOYAUX_CUDA_CHECK(cudaEventRecord(stop_, first));
        NOYAUX_CUDA_CHECK(cudaEventSynchronize(stop_));
        float ms = 0.0f;
        NOYAUX_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
        return ms;
    }
    // --8<-- [end:pipeline]

private:
    std::vector<cudaStream_t> streams_;
    std::vector<cudaEvent_t> done_;
    cudaEvent_t start_{};
    cudaEvent_t stop_{};
};

/** @brief Tableau hôte épinglé (cudaMallocHost) : copiable par DMA sans tampon intermédiaire. */
class PinnedBuffer {
public:
    /** @brief @p n flottants épinglés. */
    explicit PinnedBuffer(std::size_t n) : size_(n) {
        NOYAUX_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), n * sizeof(float)));
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    ~PinnedBuffer() { cudaFreeHost(data_); }
    /** @brief Début du tableau. */
    float* data() { return data_; }
    /** @brief Nombre d'éléments. */
    std::size_t size() const { return size_; }

private:
    float* data_ = nullptr;
    std::size_t size_;
};

}  // namespace noyaux::glossaire::streams
