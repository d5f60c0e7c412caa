/**
 * @file
 * @brief Chronométrage côté GPU par événements CUDA : mesure le temps du flux,
 *        sans le bruit de l'hôte.
 */
#pragma once

#include "cuda_check.cuh"

namespace noyaux {

/** @brief Paire d'événements CUDA qui encadre une séquence de travail sur un flux. */
class EventTimer {
public:
    EventTimer() {
        NOYAUX_CUDA_CHECK(cudaEventCreate(&start_));
        NOYAUX_CUDA_CHECK(cudaEventCreate(&stop_));
    }
    EventTimer(const EventTimer&) = delete;
    EventTimer& operator=(const EventTimer&) = delete;
    ~EventTimer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }

    /** @brief Enregistre le départ sur @p stream. */
    void start(cudaStream_t stream = nullptr) { NOYAUX_CUDA_CHECK(cudaEventRecord(start_, stream)); }

    /** @brief Enregistre l'arrivée sur @p stream, attend la fin et renvoie la durée en ms. */
    float stop_ms(cudaStream_t stream = nullptr) {
        NOYAUX_CUDA_CHECK(cudaEventRecord(stop_, stream));
        NOYAUX_CUDA_CHECK(cudaEventSynchronize(stop_));
        float ms = 0.0f;
        NOYAUX_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
        return ms;
    }

private:
    cudaEvent_t start_{};
    cudaEvent_t stop_{};
};

}  // namespace noyaux
