/**
 * @file
 * @brief Un noyau persistant qui vide une file de travail atomique : chaque bloc prend un
 *        ticket (take_ticket), exécute la tâche correspondante, recommence jusqu'à épuisement ;
 *        comparé au lancement d'un bloc par tâche. Chaque tâche compte ses exécutions.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "megakernels/common/co_residence.cuh"
#include "megakernels/common/synchronisation.cuh"
#include "taches.hpp"

#include <cstdint>
#include <vector>

namespace noyaux::megakernels::queue {

/** @brief Threads par bloc. */
constexpr unsigned kThreads = 128;

/** @brief Ce que les deux noyaux écrivent : un résultat, un compte d'exécutions et le bloc exécutant par tâche. */
struct TaskOutputs {
    std::uint32_t* sums;  ///< somme de chaque tâche
    unsigned* runs;       ///< nombre d'exécutions de chaque tâche (1 attendu)
    unsigned* owners;     ///< bloc qui a exécuté chaque tâche (le dernier, s'il y en avait plusieurs)
};

/**
 * @brief Exécute la tâche @p task avec tout le bloc : chaque thread somme une part des éléments,
 *        puis une réduction en mémoire partagée ; le thread 0 écrit le résultat.
 * @param task    la tâche
 * @param scratch kThreads entiers de mémoire partagée
 * @param out     où écrire
 */
__device__ inline void run_task(unsigned task, std::uint32_t* scratch, TaskOutputs out) {
    std::uint32_t sum = 0;
    const unsigned length = task_length(task);
    for (unsigned i = threadIdx.x; i < length; i += blockDim.x) sum += element_value(task, i);
    scratch[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) scratch[threadIdx.x] += scratch[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out.sums[task] = scratch[0];
        atomicAdd(&out.runs[task], 1u);
        out.owners[task] = blockIdx.x;
    }
    __syncthreads();  // scratch resservira pour la tâche suivante
}

// --8<-- [start:persistant]
/**
 * @brief Noyau persistant : tant qu'il reste des tickets, le thread 0 en prend un, le partage
 *        au bloc par la mémoire partagée, et tout le bloc exécute la tâche. Un bloc qui tombe sur
 *        des tâches courtes en prend davantage : la charge s'équilibre d'elle-même.
 * @param tasks       nombre de tâches
 * @param next_ticket prochain ticket, à zéro avant le lancement
 * @param out         résultats
 */
__global__ void __launch_bounds__(kThreads) queue_persistent(unsigned tasks, unsigned* next_ticket, TaskOutputs out) {
    __shared__ std::uint32_t scratch[kThreads];
    __shared__ unsigned ticket;
    while (true) {
        if (threadIdx.x == 0) ticket = take_ticket(next_ticket);
        __syncthreads();
        const unsigned task = ticket;
        __syncthreads();  // tous ont lu le ticket avant que le thread 0 le remplace
        if (task >= tasks) return;  // même valeur pour tout le bloc : pas de barrière divergente
        run_task(task, scratch, out);
    }
}
// --8<-- [end:persistant]

// --8<-- [start:un-bloc-par-tache]
/** @brief Référence de comparaison : un bloc par tâche, la tâche est blockIdx.x. */
__global__ void __launch_bounds__(kThreads) queue_one_block_per_task(TaskOutputs out) {
    __shared__ std::uint32_t scratch[kThreads];
    run_task(blockIdx.x, scratch, out);
}
// --8<-- [end:un-bloc-par-tache]

/** @brief Les tampons d'une file de @p tasks tâches, et ses deux façons de la vider. */
class WorkQueue {
public:
    /**
     * @brief Alloue les résultats de @p tasks tâches.
     * @throws std::invalid_argument hors des bornes (validate_tasks)
     */
    explicit WorkQueue(unsigned tasks)
        : tasks_((validate_tasks(tasks), tasks)), sums_(tasks), runs_(tasks), owners_(tasks), next_ticket_(1) {}

    /** @brief Plus grande grille persistante utile : tous ses blocs résidents à la fois. */
    static unsigned max_persistent_blocks() {
        return static_cast<unsigned>(max_co_resident_blocks(queue_persistent, static_cast<int>(kThreads), 0));
    }

    // --8<-- [start:lancement]
    /**
     * @brief Vide la file avec @p blocks blocs persistants (asynchrone). La file n'exige pas la
     *        co-résidence (aucun bloc n'en attend un autre), mais des blocs non résidents ne
     *        démarreraient qu'une fois la file vide : inutiles.
     * @throws std::invalid_argument si @p blocks vaut 0
     */
    void run_persistent(unsigned blocks, cudaStream_t stream = nullptr) {
        if (blocks == 0) throw std::invalid_argument("la grille persistante doit compter au moins un bloc");
        reset(stream);  // le compteur de tickets repart de zéro à chaque lancement
        queue_persistent<<<blocks, kThreads, 0, stream>>>(tasks_, next_ticket_.data(), outputs());
        NOYAUX_CUDA_CHECK(cudaGetLastError());
    }
    // --8<-- [end:lancement]

    /** @brief Vide la file avec un bloc par tâche (asynchrone). */
    void run_one_block_per_task(cudaStream_t stream = nullptr) {
        reset(stream);
        queue_one_block_per_task<<<tasks_, kThreads, 0, stream>>>(outputs());
        NOYAUX_CUDA_CHECK(cudaGetLastError());
    }

    /** @brief Somme de chaque tâche. */
    std::vector<std::uint32_t> sums() const { return sums_.download(); }
    /** @brief Exécutions de chaque tâche. */
    std::vector<unsigned> runs() const { return runs_.download(); }
    /** @brief Bloc exécutant de chaque tâche. */
    std::vector<unsigned> owners() const { return owners_.download(); }
    /** @brief Nombre de tâches. */
    unsigned tasks() const { return tasks_; }

private:
    TaskOutputs outputs() { return {sums_.data(), runs_.data(), owners_.data()}; }
    void reset(cudaStream_t stream) {
        NOYAUX_CUDA_CHECK(cudaMemsetAsync(runs_.data(), 0, runs_.bytes(), stream));
        NOYAUX_CUDA_CHECK(cudaMemsetAsync(next_ticket_.data(), 0, sizeof(unsigned), stream));
    }

    unsigned tasks_;
    DeviceBuffer<std::uint32_t> sums_;
    DeviceBuffer<unsigned> runs_;
    DeviceBuffer<unsigned> owners_;
    DeviceBuffer<unsigned> next_ticket_;
};

}  // namespace noyaux::megakernels::queue
