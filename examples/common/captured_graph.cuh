/**
 * @file
 * @brief Un graphe CUDA capturé depuis un flux puis instancié : ce que soumet une fonction
 *        pendant la capture (cudaStreamBeginCapture … cudaStreamEndCapture) devient un graphe
 *        que l'on relance d'un seul appel (cudaGraphLaunch).
 */
#pragma once

#include <cuda_runtime.h>

#include "cuda_check.cuh"

#include <cstddef>

namespace noyaux {

/**
 * @brief Graphe capturé et instancié une fois, relancé autant de fois qu'on veut. Ce qui a été
 *        soumis pendant la capture (pointeurs, tailles, arguments) est inscrit dans le graphe.
 */
class CapturedGraph {
public:
    /**
     * @brief Capture ce que @p submit soumet à @p stream, puis instancie le graphe. Pendant la
     *        capture, rien ne s'exécute : chaque lancement devient un nœud, relié aux précédents
     *        par l'ordre du flux. Si @p submit lève une exception, la capture est close (graphe
     *        partiel détruit) avant de la propager : le flux reste utilisable.
     * @param stream flux explicite (pas le flux par défaut hérité)
     * @param submit appelable `void(cudaStream_t)` qui soumet le travail à capturer
     * @throws CudaError si la capture ou l'instanciation échoue
     */
    template <typename Submit>
    CapturedGraph(cudaStream_t stream, Submit&& submit) {
        NOYAUX_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        try {
            submit(stream);
        } catch (...) {
            cudaGraph_t partial = nullptr;
            cudaStreamEndCapture(stream, &partial);
            if (partial != nullptr) cudaGraphDestroy(partial);
            throw;
        }
        NOYAUX_CUDA_CHECK(cudaStreamEndCapture(stream, &graph_));
        NOYAUX_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
    }
    CapturedGraph(const CapturedGraph&) = delete;
    CapturedGraph& operator=(const CapturedGraph&) = delete;
    ~CapturedGraph() {
        if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
        if (graph_ != nullptr) cudaGraphDestroy(graph_);
    }

    /** @brief Relance tout le graphe d'un seul appel, dans @p stream (asynchrone). */
    void launch(cudaStream_t stream) const { NOYAUX_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

    /** @brief Nombre de nœuds du graphe capturé (un par lancement soumis pendant la capture). */
    std::size_t node_count() const {
        std::size_t count = 0;
        NOYAUX_CUDA_CHECK(cudaGraphGetNodes(graph_, nullptr, &count));
        return count;
    }

private:
    cudaGraph_t graph_ = nullptr;
    cudaGraphExec_t exec_ = nullptr;
};

}  // namespace noyaux
