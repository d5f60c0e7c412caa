/**
 * @file
 * @brief Un flux CUDA non bloquant, détruit avec l'objet (RAII). La capture en graphe exige un
 *        flux explicite, pas le flux par défaut hérité.
 */
#pragma once

#include <cuda_runtime.h>

#include "cuda_check.cuh"

namespace noyaux {

/** @brief Un flux non bloquant, détruit avec l'objet. */
class Stream {
public:
    Stream() { NOYAUX_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream() { cudaStreamDestroy(stream_); }
    /** @brief Le flux. */
    cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

}  // namespace noyaux
