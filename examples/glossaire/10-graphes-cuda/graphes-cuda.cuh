/**
 * @file
 * @brief Une chaîne de petits noyaux dépendants, lancée noyau par noyau dans un flux, puis
 *        capturée une fois en graphe CUDA (cudaStreamBeginCapture, cudaStreamEndCapture,
 *        cudaGraphInstantiate) et relancée d'un seul appel (cudaGraphLaunch).
 */
#pragma once

#include <cuda_runtime.h>

#include "chaine.hpp"
#include "common/captured_graph.cuh"
#include "common/cuda_check.cuh"
#include "common/stream.cuh"

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
class ChainGraph : public noyaux::CapturedGraph {
public:
    // --8<-- [start:capture]
    /**
     * @brief Capture la chaîne sur @p stream (qui ne doit pas être le flux par défaut hérité)
     *        et l'instancie (noyaux::CapturedGraph, examples/common/captured_graph.cuh). Pendant
     *        la capture, rien ne s'exécute : les lancements sont enregistrés comme nœuds du
     *        graphe, reliés par l'ordre du flux.
     * @throws std::invalid_argument si la chaîne sort des bornes ; CudaError si la capture échoue
     */
    ChainGraph(float* data, std::size_t n, int steps, cudaStream_t stream)
        : CapturedGraph(stream, [&](cudaStream_t s) { launch_chain(data, n, steps, s); }) {}
    // --8<-- [end:capture]
};

/** @brief Un flux non bloquant (la capture exige un flux explicite). */
using Stream = noyaux::Stream;

}  // namespace noyaux::glossaire::graphs
