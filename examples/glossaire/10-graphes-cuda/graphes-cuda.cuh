/**
 * @file
 * @brief Une chaîne de petits noyaux dépendants, lancée noyau par noyau dans un flux, puis
 *        capturée une fois en graphe CUDA (cudaStreamBeginCapture, cudaStreamEndCapture,
 *        cudaGraphInstantiate) et relancée d'un seul appel (cudaGraphLaunch).
 */
#pragma once

#include <cuda_runtime.h>

#include "chaine.hpp"
#include "common/cuda_check.cuh"

#include <cstddef>

namespace noyaux::glossaire::graphs {

// --8<-- [start:noyau]
/** @brief Une étape : x ← fma(x, a, b) sur chaque élément ; quelques microsecondes à peine. */
__global__ void chain_step(float* __restrict__ data, std::size_t n, float a, float b) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) data[i] = fmaf(data[i], a, b);
}
// --8<-- [end:noyau]

/** @brief Threads par bloc des étapes. */
constexpr unsigned kThreads = 256;

// --8<-- [start:direct]
/**
 * @brief Soumet les @p steps étapes une à une dans @p stream (asynchrone) : chacune attend la
 *        précédente par l'ordre du flux, et chacune paie son propre lancement.
 * @throws std::invalid_argument si la chaîne sort des bornes (validate_chain)
 */
inline void launch_chain(float* data, std::size_t n, int steps, cudaStream_t stream) {
    validate_chain(steps, n);
    const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
    for (int s = 0; s < steps; ++s) {
        const Step c = step_coefficients(s);
        chain_step<<<blocks, kThreads, 0, stream>>>(data, n, c.a, c.b);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
    }
}
// --8<-- [end:direct]

/**
 * @brief La même chaîne, capturée une fois en graphe puis instanciée : un cudaGraphExec_t que
 *        l'on relance autant de fois qu'on veut, d'un seul appel. Pointeur, taille et
 *        coefficients sont inscrits dans le graphe à la capture.
 */
class ChainGraph {
public:
    // --8<-- [start:capture]
    /**
     * @brief Capture la chaîne sur @p stream (qui ne doit pas être le flux par défaut hérité)
     *        et l'instancie. Pendant la capture, rien ne s'exécute : les lancements sont
     *        enregistrés comme nœuds du graphe, reliés par l'ordre du flux.
     * @throws std::invalid_argument si la chaîne sort des bornes ; CudaError si la capture échoue
     */
    ChainGraph(float* data, std::size_t n, int steps, cudaStream_t stream) {
        validate_chain(steps, n);
        NOYAUX_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        try {
            launch_chain(data, n, steps, stream);
        } catch (...) {
            cudaGraph_t partial = nullptr;
            cudaStreamEndCapture(stream, &partial);  // clôt la capture avant de rendre l'erreur
            if (partial != nullptr) cudaGraphDestroy(partial);
            throw;
        }
        NOYAUX_CUDA_CHECK(cudaStreamEndCapture(stream, &graph_));
        NOYAUX_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
    }
    // --8<-- [end:capture]
    ChainGraph(const ChainGraph&) = delete;
    ChainGraph& operator=(const ChainGraph&) = delete;
    ~ChainGraph() {
        if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
        if (graph_ != nullptr) cudaGraphDestroy(graph_);
    }

    // --8<-- [start:relance]
    /** @brief Relance toute la chaîne d'un seul appel, dans @p stream (asynchrone). */
    void launch(cudaStream_t stream) const { NOYAUX_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }
    // --8<-- [end:relance]

    /** @brief Nombre de nœuds du graphe capturé (un par noyau lancé pendant la capture). */
    std::size_t node_count() const {
        std::size_t count = 0;
        NOYAUX_CUDA_CHECK(cudaGraphGetNodes(graph_, nullptr, &count));
        return count;
    }

private:
    cudaGraph_t graph_ = nullptr;
    cudaGraphExec_t exec_ = nullptr;
};

/** @brief Un flux non bloquant, détruit avec l'objet (la capture exige un flux explicite). */
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

}  // namespace noyaux::glossaire::graphs
