/**
 * @file
 * @brief Producteurs et consommateurs entre blocs d'une même grille, par les primitives de
 *        examples/megakernels/common/synchronisation.cuh : un relais de drapeaux (chaque bloc
 *        attend le préfixe du bloc précédent, y ajoute sa somme et publie le sien) et un compteur
 *        (des blocs producteurs publient, des blocs consommateurs attendent qu'ils aient tous
 *        publié). Avant tout lancement, la grille est refusée si elle ne tient pas entière sur le GPU.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "megakernels/common/co_residence.cuh"
#include "megakernels/common/synchronisation.cuh"
#include "relais.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace noyaux::megakernels::relay {

/** @brief Threads par bloc. */
constexpr unsigned kThreads = 256;

/**
 * @brief Somme des kChunk éléments du bloc courant, rendue à tous ses threads.
 * @param input   l'entrée
 * @param scratch kThreads entiers de mémoire partagée
 */
__device__ inline std::uint32_t block_chunk_sum(const std::uint32_t* input, std::uint32_t* scratch) {
    const std::uint32_t* chunk = input + static_cast<std::size_t>(blockIdx.x) * kChunk;
    std::uint32_t sum = 0;
    for (unsigned i = threadIdx.x; i < kChunk; i += blockDim.x) sum += chunk[i];
    scratch[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) scratch[threadIdx.x] += scratch[threadIdx.x + half];
        __syncthreads();
    }
    const std::uint32_t total = scratch[0];
    __syncthreads();  // scratch peut resservir
    return total;
}

// --8<-- [start:relais]
/**
 * @brief Préfixes en relais : le bloc b calcule sa somme (en parallèle des autres), attend le
 *        drapeau du bloc b − 1, lit son préfixe, écrit le sien, puis lève son propre drapeau.
 *        Les drapeaux portent le numéro du lancement (@p epoch, 1, 2, 3…) : jamais remis à zéro.
 * @param input    blocks × kChunk entiers
 * @param prefixes un préfixe inclusif par bloc
 * @param flags    un drapeau par bloc, à zéro à l'allocation
 * @param epoch    numéro de ce lancement, plus grand que celui du précédent
 */
__global__ void __launch_bounds__(kThreads) relay_prefixes(const std::uint32_t* __restrict__ input,
                                                          std::uint32_t* prefixes, unsigned* flags, unsigned epoch) {
    __shared__ std::uint32_t scratch[kThreads];
    const std::uint32_t own = block_chunk_sum(input, scratch);  // travail indépendant d'abord
    if (threadIdx.x == 0) {
        std::uint32_t before = 0;
        if (blockIdx.x > 0) {
            wait_acquire(&flags[blockIdx.x - 1], epoch);  // le préfixe du précédent est visible
            before = prefixes[blockIdx.x - 1];
        }
        prefixes[blockIdx.x] = before + own;
    }
    __syncthreads();  // contrat de publish_flag : les écritures du bloc avant la publication
    if (threadIdx.x == 0) publish_flag(&flags[blockIdx.x], epoch);
}
// --8<-- [end:relais]

// --8<-- [start:compteur]
/**
 * @brief Compteur : les @p producers premiers blocs écrivent la somme de leur morceau puis
 *        publient (signal_release) ; les autres blocs attendent que le compteur atteigne
 *        producers × epoch (cible monotone : jamais remis à zéro), puis additionnent toutes les
 *        sommes publiées.
 * @param input     producers × kChunk entiers
 * @param sums      une somme par producteur
 * @param totals    un total par consommateur
 * @param ready     le compteur, à zéro à l'allocation
 * @param producers nombre de blocs producteurs (les suivants consomment)
 * @param epoch     numéro de ce lancement
 */
__global__ void __launch_bounds__(kThreads) fan_in_counter(const std::uint32_t* __restrict__ input,
                                                          std::uint32_t* sums, std::uint32_t* totals,
                                                          unsigned* ready, unsigned producers, unsigned epoch) {
    __shared__ std::uint32_t scratch[kThreads];
    if (blockIdx.x < producers) {
        const std::uint32_t own = block_chunk_sum(input, scratch);
        if (threadIdx.x == 0) sums[blockIdx.x] = own;
        __syncthreads();  // contrat de signal_release
        if (threadIdx.x == 0) signal_release(ready);
        return;
    }
    if (threadIdx.x == 0) wait_acquire(ready, producers * epoch);
    __syncthreads();  // tout le bloc voit ce que les producteurs ont publié
    std::uint32_t partial = 0;
    for (unsigned p = threadIdx.x; p < producers; p += blockDim.x) partial += sums[p];
    scratch[threadIdx.x] = partial;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) scratch[threadIdx.x] += scratch[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) totals[blockIdx.x - producers] = scratch[0];
}
// --8<-- [end:compteur]

/**
 * @brief Plus grande grille que les deux noyaux acceptent : le minimum de leurs blocs
 *        co-résidents, pour que la grille qui tient pour l'un tienne aussi pour l'autre, même le
 *        jour où leurs besoins (registres, mémoire partagée) diffèrent.
 */
inline int largest_co_resident_grid() {
    const int threads = static_cast<int>(kThreads);
    return std::min(max_co_resident_blocks(relay_prefixes, threads, 0),
                    max_co_resident_blocks(fan_in_counter, threads, 0));
}

/**
 * @brief Les tampons d'une grille de @p blocks blocs et ses deux lancements. Drapeaux et
 *        compteur sont mis à zéro une fois ; chaque lancement prend un numéro plus grand.
 */
class RelayGrid {
public:
    /**
     * @brief Prépare une grille de @p blocks blocs.
     * @throws std::invalid_argument hors des bornes (validate_blocks)
     */
    explicit RelayGrid(unsigned blocks)
        : blocks_((validate_blocks(blocks), blocks)), input_(std::span<const std::uint32_t>(relay_input(blocks))),
          prefixes_(blocks), sums_(blocks), totals_(blocks), flags_(blocks), ready_(1) {
        NOYAUX_CUDA_CHECK(cudaMemset(flags_.data(), 0, flags_.bytes()));
        NOYAUX_CUDA_CHECK(cudaMemset(ready_.data(), 0, ready_.bytes()));
    }

    // --8<-- [start:lancement]
    /**
     * @brief Lance le relais (asynchrone), après avoir vérifié que toute la grille peut être
     *        résidente : sinon le bloc b attendrait un bloc b − 1 qui ne démarre qu'après lui.
     * @throws CoResidencyError si la grille ne tient pas entière sur le GPU
     * @throws std::overflow_error si le numéro du lancement ne tient plus dans un drapeau (next_epoch)
     */
    void run_relay(cudaStream_t stream = nullptr) {
        require_co_resident(relay_prefixes, static_cast<int>(blocks_), static_cast<int>(kThreads), 0);
        const unsigned epoch = next_epoch(relay_epoch_, 1);
        relay_prefixes<<<blocks_, kThreads, 0, stream>>>(input_.data(), prefixes_.data(), flags_.data(), epoch);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        relay_epoch_ = epoch;
    }
    // --8<-- [end:lancement]

    /**
     * @brief Lance le compteur (asynchrone) : la première moitié des blocs produit, l'autre consomme.
     * @throws CoResidencyError si la grille ne tient pas entière sur le GPU
     * @throws std::overflow_error si la cible producers() × numéro ne tient plus dans le compteur
     *         (next_epoch) : après environ 2³² / producers() lancements
     */
    void run_fan_in(cudaStream_t stream = nullptr) {
        require_co_resident(fan_in_counter, static_cast<int>(blocks_), static_cast<int>(kThreads), 0);
        const unsigned epoch = next_epoch(fan_in_epoch_, producers());
        fan_in_counter<<<blocks_, kThreads, 0, stream>>>(input_.data(), sums_.data(), totals_.data(),
                                                         ready_.data(), producers(), epoch);
        NOYAUX_CUDA_CHECK(cudaGetLastError());
        fan_in_epoch_ = epoch;
    }

    /** @brief Blocs producteurs du compteur. */
    unsigned producers() const { return blocks_ / 2; }
    /** @brief Blocs consommateurs du compteur. */
    unsigned consumers() const { return blocks_ - producers(); }
    /** @brief Nombre de blocs. */
    unsigned blocks() const { return blocks_; }
    /** @brief Préfixes du relais. */
    std::vector<std::uint32_t> prefixes() const { return prefixes_.download(); }
    /** @brief Totaux des consommateurs (les consumers() premiers). */
    std::vector<std::uint32_t> totals() const {
        std::vector<std::uint32_t> all = totals_.download();
        all.resize(consumers());
        return all;
    }
    /** @brief Drapeaux du relais. */
    std::vector<unsigned> flags() const { return flags_.download(); }
    /** @brief Valeur du compteur. */
    unsigned ready() const { return ready_.download()[0]; }

private:
    unsigned blocks_;
    DeviceBuffer<std::uint32_t> input_;
    DeviceBuffer<std::uint32_t> prefixes_;
    DeviceBuffer<std::uint32_t> sums_;
    DeviceBuffer<std::uint32_t> totals_;
    DeviceBuffer<unsigned> flags_;
    DeviceBuffer<unsigned> ready_;
    unsigned relay_epoch_ = 0;
    unsigned fan_in_epoch_ = 0;
};

}  // namespace noyaux::megakernels::relay
