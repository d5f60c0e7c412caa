/**
 * @file
 * @brief Étape de décodeur des exemples 4 et 5 (partie GPU) : les trois opérations d'une couche
 *        écrites une fois, en fonctions de bloc, et les tampons qu'elles lisent et écrivent.
 *        Le megakernel, les noyaux séparés et le graphe de tâches appellent les mêmes
 *        fonctions : à entrée égale, ils rendent le même résultat au bit près.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/device_buffer.cuh"
#include "megakernels/common/decoder_step.hpp"

#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

namespace noyaux::megakernels {

/** @brief Threads par bloc de toutes les variantes (huit warps). */
constexpr unsigned kDecoderThreads = 256;
/** @brief Warps par bloc. */
constexpr unsigned kDecoderWarps = kDecoderThreads / 32;

/** @brief Adresses des poids et des activations sur le GPU, passées par valeur aux noyaux. */
struct DecoderOperands {
    const float* gain;     ///< g, layers × D
    const float* w_up;     ///< W1, layers × H × D
    const float* b_up;     ///< b1, layers × H
    const float* w_down;   ///< W2, layers × D × H
    float* x;              ///< vecteur résiduel (D), mis à jour sur place
    float* normed;         ///< n = RMSNorm(x) ⊙ g (D)
    float* up;             ///< h = SiLU(W1·n + b1) (H)
    int hidden;            ///< D
    int intermediate;      ///< H
};

/** @brief Octets de la page de mémoire partagée : le plus long vecteur lu par une matvec. */
inline std::size_t page_bytes(const DecoderShape& shape) {
    return static_cast<std::size_t>(shape.hidden > shape.intermediate ? shape.hidden : shape.intermediate) *
           sizeof(float);
}

/** @brief Somme sur le warp, même ordre d'additions sur toutes les lanes. */
__device__ inline float warp_sum(float value) {
    for (int offset = 16; offset > 0; offset >>= 1) value += __shfl_xor_sync(0xffffffffu, value, offset);
    return value;
}

// --8<-- [start:rmsnorm]
/** @brief n = RMSNorm(x) ⊙ g pour la couche @p layer, par tout le bloc (une seule instruction). */
__device__ inline void rms_norm_op(const DecoderOperands& op, int layer) {
    __shared__ float partial[kDecoderWarps];
    float squares = 0.0f;
    for (int i = static_cast<int>(threadIdx.x); i < op.hidden; i += static_cast<int>(blockDim.x))
        squares += op.x[i] * op.x[i];
    squares = warp_sum(squares);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = squares;
    __syncthreads();
    float total = 0.0f;
    for (unsigned w = 0; w < kDecoderWarps; ++w) total += partial[w];  // même ordre partout
    const float inv = rsqrtf(total / static_cast<float>(op.hidden) + kRmsEpsilon);
    const float* gain = op.gain + static_cast<std::size_t>(layer) * op.hidden;
    for (int i = static_cast<int>(threadIdx.x); i < op.hidden; i += static_cast<int>(blockDim.x))
        op.normed[i] = op.x[i] * inv * gain[i];
    __syncthreads();  // partial réutilisé par l'opération suivante du bloc
}
// --8<-- [end:rmsnorm]

// --8<-- [start:page]
/**
 * @brief Copie le vecteur @p source (@p count réels, écrit par d'autres blocs) dans la page de
 *        mémoire partagée du bloc : chaque ligne de la matvec le relit de là.
 */
__device__ inline void load_page(float* page, const float* source, int count) {
    for (int i = static_cast<int>(threadIdx.x); i < count; i += static_cast<int>(blockDim.x)) page[i] = source[i];
    __syncthreads();
}
// --8<-- [end:page]

/** @brief Produit scalaire d'une ligne de poids et de la page, par un warp (lanes entrelacées). */
__device__ inline float row_dot(const float* __restrict__ row, const float* page, int cols) {
    float acc = 0.0f;
    for (int c = static_cast<int>(threadIdx.x % 32); c < cols; c += 32) acc = fmaf(row[c], page[c], acc);
    return warp_sum(acc);
}

// --8<-- [start:matvec]
/** @brief h[r] = SiLU(W1[r]·n + b1[r]) pour r dans [@p begin, @p end), couche @p layer. */
__device__ inline void up_silu_op(const DecoderOperands& op, int layer, int begin, int end, float* page) {
    load_page(page, op.normed, op.hidden);
    const std::size_t base = static_cast<std::size_t>(layer) * op.intermediate;
    for (int r = begin + static_cast<int>(threadIdx.x / 32); r < end; r += static_cast<int>(kDecoderWarps)) {
        const float v = row_dot(op.w_up + (base + r) * op.hidden, page, op.hidden) + op.b_up[base + r];
        if (threadIdx.x % 32 == 0) op.up[r] = v / (1.0f + expf(-v));
    }
    __syncthreads();  // la page est réécrite par l'opération suivante du bloc
}

/** @brief x[r] += W2[r]·h pour r dans [@p begin, @p end), couche @p layer. */
__device__ inline void down_residual_op(const DecoderOperands& op, int layer, int begin, int end, float* page) {
    load_page(page, op.up, op.intermediate);
    const std::size_t base = static_cast<std::size_t>(layer) * op.hidden;
    for (int r = begin + static_cast<int>(threadIdx.x / 32); r < end; r += static_cast<int>(kDecoderWarps)) {
        const float v = row_dot(op.w_down + (base + r) * op.intermediate, page, op.intermediate);
        if (threadIdx.x % 32 == 0) op.x[r] += v;
    }
    __syncthreads();
}
// --8<-- [end:matvec]

/** @brief Exécute l'opération @p code sur [@p begin, @p end) de la couche @p layer, par tout le bloc. */
__device__ inline void execute_op(Opcode code, const DecoderOperands& op, int layer, int begin, int end,
                                  float* page) {
    switch (code) {
        case Opcode::kRmsNorm: rms_norm_op(op, layer); break;
        case Opcode::kUpSilu: up_silu_op(op, layer, begin, end, page); break;
        case Opcode::kDownResidual: down_residual_op(op, layer, begin, end, page); break;
        case Opcode::kNop: break;
    }
}

/** @brief Poids et activations d'une étape sur le GPU ; l'entrée est recopiée dans x à chaque exécution. */
class DecoderDeviceState {
public:
    /** @brief Copie les poids de @p weights et l'entrée @p input sur le GPU. */
    DecoderDeviceState(const DecoderWeights& weights, const std::vector<float>& input)
        : shape_(weights.shape), gain_(std::span<const float>(weights.gain)),
          w_up_(std::span<const float>(weights.w_up)), b_up_(std::span<const float>(weights.b_up)),
          w_down_(std::span<const float>(weights.w_down)), input_(std::span<const float>(input)),
          x_(input.size()), normed_(input.size()), up_(static_cast<std::size_t>(weights.shape.intermediate)) {
        if (input.size() != static_cast<std::size_t>(shape_.hidden))
            throw std::invalid_argument("l'entrée doit compter D éléments");
    }
    /** @brief Dimensions. */
    const DecoderShape& shape() const { return shape_; }
    /** @brief Les adresses à passer aux noyaux. */
    DecoderOperands operands() {
        return {gain_.data(), w_up_.data(), b_up_.data(), w_down_.data(), x_.data(), normed_.data(), up_.data(),
                shape_.hidden, shape_.intermediate};
    }
    /** @brief Remet x à l'entrée (asynchrone, capturable dans un graphe). */
    void reset_input(cudaStream_t stream) {
        NOYAUX_CUDA_CHECK(cudaMemcpyAsync(x_.data(), input_.data(), input_.bytes(), cudaMemcpyDeviceToDevice, stream));
    }
    /** @brief Le vecteur résiduel après l'étape. */
    std::vector<float> result() const { return x_.download(); }

private:
    DecoderShape shape_;
    DeviceBuffer<float> gain_, w_up_, b_up_, w_down_, input_, x_, normed_, up_;
};

}  // namespace noyaux::megakernels
