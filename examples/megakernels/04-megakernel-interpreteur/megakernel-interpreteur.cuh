/**
 * @file
 * @brief Exemple 4 : un megakernel interpréteur. Un seul noyau persistant, lancé une fois par
 *        étape de décodeur ; chaque bloc lit sa file d'instructions (programme.hpp), attend le
 *        compteur de chacune, l'exécute et signale le sien. Pour comparer : les mêmes opérations
 *        en noyaux séparés lancés dans un flux, puis capturés en graphe CUDA
 *        (noyaux::CapturedGraph, examples/common/captured_graph.cuh).
 */
#pragma once

#include <cuda_runtime.h>

#include "common/captured_graph.cuh"
#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/stream.cuh"
#include "megakernels/common/co_residence.cuh"
#include "megakernels/common/decoder_ops.cuh"
#include "megakernels/common/synchronisation.cuh"
#include "ordonnancement.hpp"
#include "programme.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace noyaux::megakernels::interpreter {

/** @brief État de fin d'exécution, écrit par le megakernel lui-même. */
struct KernelStatus {
    unsigned int finished_blocks;  ///< blocs qui ont vidé leur file
    unsigned int mismatches;       ///< compteurs dont la valeur finale diffère de celle du validateur
};

/** @brief Ce que le megakernel reçoit : le programme, ses compteurs, les opérandes. */
struct MegakernelParams {
    const Instruction* instructions;        ///< toutes les files, bout à bout
    const std::uint32_t* queue_begin;       ///< bornes des files (queue_count + 1)
    unsigned int* counters;                 ///< compteurs, à zéro au lancement
    const unsigned int* expected_counters;  ///< valeurs finales prévues par le validateur
    std::uint32_t counter_count;            ///< nombre de compteurs
    KernelStatus* status;                   ///< à zéro au lancement
    DecoderOperands operands;               ///< poids et activations
};

// --8<-- [start:megakernel]
/**
 * @brief L'interpréteur : le bloc b exécute la file b. Avant une instruction, un thread attend
 *        son compteur (acquire), puis tout le bloc passe la barrière et calcule ; après, le bloc
 *        se synchronise et un thread signale (release). Enfin le bloc 0 attend que tous les blocs
 *        aient fini et compare les compteurs aux valeurs prévues par le validateur.
 */
__global__ void __launch_bounds__(kDecoderThreads) decoder_megakernel(MegakernelParams p) {
    extern __shared__ float page[];
    const std::uint32_t first = p.queue_begin[blockIdx.x];
    const std::uint32_t last = p.queue_begin[blockIdx.x + 1];
    for (std::uint32_t i = first; i < last; ++i) {
        const Instruction ins = p.instructions[i];
        if (ins.wait_counter != kNoCounter) {
            if (threadIdx.x == 0) wait_acquire(&p.counters[ins.wait_counter], ins.wait_target);
            __syncthreads();
        }
        execute_op(ins.opcode, p.operands, static_cast<int>(ins.layer), static_cast<int>(ins.begin),
                   static_cast<int>(ins.end), page);
        __syncthreads();
        if (ins.signal_counter != kNoCounter && threadIdx.x == 0)
            signal_release(&p.counters[ins.signal_counter], ins.signal_amount);
    }
    // Vérification finale : tous les blocs ont fini, chaque compteur vaut ce que prévoyait l'hôte.
    if (threadIdx.x == 0) signal_release(&p.status->finished_blocks);
    if (blockIdx.x != 0) return;
    if (threadIdx.x == 0) wait_acquire(&p.status->finished_blocks, gridDim.x);
    __syncthreads();
    for (std::uint32_t c = threadIdx.x; c < p.counter_count; c += blockDim.x)
        if (p.counters[c] != p.expected_counters[c]) atomicAdd(&p.status->mismatches, 1u);
}
// --8<-- [end:megakernel]

/** @brief Noyau séparé : la RMSNorm d'une couche, un bloc. */
__global__ void __launch_bounds__(kDecoderThreads) rms_norm_kernel(DecoderOperands op, int layer) {
    rms_norm_op(op, layer);
}

/** @brief Noyau séparé : une tranche de la matvec montante (+ biais, SiLU) par bloc. */
__global__ void __launch_bounds__(kDecoderThreads) up_silu_kernel(DecoderOperands op, int layer, int rows) {
    extern __shared__ float page[];
    const int begin = static_cast<int>(blockIdx.x) * rows;
    up_silu_op(op, layer, begin, begin + rows, page);
}

/** @brief Noyau séparé : une tranche de la matvec descendante (+ résiduel) par bloc. */
__global__ void __launch_bounds__(kDecoderThreads) down_residual_kernel(DecoderOperands op, int layer, int rows) {
    extern __shared__ float page[];
    const int begin = static_cast<int>(blockIdx.x) * rows;
    down_residual_op(op, layer, begin, begin + rows, page);
}

// --8<-- [start:separes]
/** @brief L'étape en noyaux séparés : trois lancements par couche, ordonnés par le flux (asynchrone). */
inline void launch_separate(DecoderDeviceState& state, cudaStream_t stream) {
    const DecoderShape& s = state.shape();
    const std::size_t smem = page_bytes(s);
    state.reset_input(stream);
    for (int layer = 0; layer < s.layers; ++layer) {
        rms_norm_kernel<<<1, kDecoderThreads, 0, stream>>>(state.operands(), layer);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        up_silu_kernel<<<up_slices(s), kDecoderThreads, smem, stream>>>(state.operands(), layer, s.slice_rows);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        down_residual_kernel<<<down_slices(s), kDecoderThreads, smem, stream>>>(state.operands(), layer, s.slice_rows);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
    }
}
// --8<-- [end:separes]

/** @brief Autorise la page de mémoire partagée de @p shape pour les trois noyaux qui en ont une. */
inline void allow_page(const DecoderShape& shape) {
    const int bytes = static_cast<int>(page_bytes(shape));
    NOYAUX_CUDA_CHECK(cudaFuncSetAttribute(decoder_megakernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    NOYAUX_CUDA_CHECK(cudaFuncSetAttribute(up_silu_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    NOYAUX_CUDA_CHECK(cudaFuncSetAttribute(down_residual_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}


/**
 * @brief Le megakernel prêt à lancer : programme validé et copié sur le GPU, compteurs et état.
 *        La validation a lieu ici, avant toute allocation de compteurs : un programme qui
 *        bloquerait n'est jamais lancé.
 */
class Megakernel {
public:
    /**
     * @brief Valide @p program (ScheduleError sinon), vérifie que ses files tiennent toutes en
     *        même temps sur le GPU (CoResidencyError sinon) et le copie sur le GPU.
     */
    Megakernel(const Program& program, const DecoderShape& shape)
        : report_(validate_schedule(program)), queues_(program.queue_count()), shape_(shape),
          instructions_(std::span<const Instruction>(program.instructions)),
          queue_begin_(std::span<const std::uint32_t>(program.queue_begin)),
          counters_(program.counter_count), expected_(std::span<const unsigned int>(report_.final_counters)),
          status_(1) {
        allow_page(shape_);
        require_co_resident(decoder_megakernel, queues_, static_cast<int>(kDecoderThreads), page_bytes(shape_));
    }

    // --8<-- [start:lancement]
    /**
     * @brief Une étape : x remis à l'entrée, compteurs et état remis à zéro, puis un seul
     *        lancement (asynchrone, capturable). @p reset_counters à faux reproduit le piège
     *        d'une relance sans remise à zéro : les attentes passent trop tôt, et la vérification
     *        finale du noyau le signale.
     */
    void launch(DecoderDeviceState& state, cudaStream_t stream, bool reset_counters = true) {
        state.reset_input(stream);
        if (reset_counters && counters_.size() > 0)
            NOYAUX_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, counters_.bytes(), stream));
        NOYAUX_CUDA_CHECK(cudaMemsetAsync(status_.data(), 0, status_.bytes(), stream));
        const MegakernelParams params{instructions_.data(), queue_begin_.data(), counters_.data(), expected_.data(),
                                      static_cast<std::uint32_t>(counters_.size()), status_.data(), state.operands()};
        decoder_megakernel<<<queues_, kDecoderThreads, page_bytes(shape_), stream>>>(params);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
    }
    // --8<-- [end:lancement]

    /** @brief L'état écrit par la dernière exécution (après synchronisation). */
    KernelStatus status() const { return status_.download().front(); }
    /** @brief Les compteurs après la dernière exécution. */
    std::vector<unsigned int> counters() const { return counters_.download(); }
    /** @brief Le rapport du validateur (valeurs finales prévues). */
    const ScheduleReport& report() const { return report_; }
    /** @brief Nombre de blocs (de files). */
    int queues() const { return queues_; }

private:
    ScheduleReport report_;
    int queues_;
    DecoderShape shape_;
    DeviceBuffer<Instruction> instructions_;
    DeviceBuffer<std::uint32_t> queue_begin_;
    DeviceBuffer<unsigned int> counters_;
    DeviceBuffer<unsigned int> expected_;
    DeviceBuffer<KernelStatus> status_;
};

}  // namespace noyaux::megakernels::interpreter
