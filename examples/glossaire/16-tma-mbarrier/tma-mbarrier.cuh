/**
 * @file
 * @brief TMA et mbarrier (Hopper, sm_90a) : une tuile 2D copiée de la mémoire globale vers la
 *        mémoire partagée par une seule instruction (cp.async.bulk.tensor), décrite par une
 *        tensor map (CUtensorMap) encodée sur l'hôte par cuTensorMapEncodeTiled ; les threads
 *        attendent l'arrivée des octets sur un mbarrier (arrive.expect_tx, try_wait.parity).
 *
 * cuTensorMapEncodeTiled est une fonction du pilote : on l'obtient par le runtime
 * (cudaGetDriverEntryPointByVersion), sans lier libcuda ; cuda.h ne sert qu'à ses types.
 * L'encodeur et les enveloppes des instructions sont ceux de la partie GEMM
 * (gemm/common/tma_host.cuh, gemm/common/hopper.cuh).
 * Sur GPU, sm_90 ou plus : pour sm_80, le noyau se réduit à un piège, que le programme ne lance
 * jamais. L'émulateur simt exécute le même PTX : __CUDA_ARCH__ y vaut 900 dans le corps des
 * fonctions de périphérique, mais n'est pas défini à la portée du fichier (une seule passe de
 * compilation, celle de l'hôte), d'où le « || defined(SIMT_EMULATOR) » qui y garde les
 * fonctions d'enrobage du PTX.
 */
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "gemm/common/hopper.cuh"
#include "gemm/common/tma_host.cuh"
#include "tuile.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace noyaux::glossaire::tma {

/** @brief Threads par bloc : un seul lance la copie, tous attendent puis recopient la tuile. */
constexpr unsigned kThreads = 128;

// --8<-- [start:noyau]
/**
 * @brief Le bloc b copie par TMA la tuile d'origine (@p origins[2b], @p origins[2b+1]) (ligne,
 *        colonne) de la matrice décrite par @p map, puis l'écrit dans @p tiles, à la suite.
 *
 * Le thread 0 initialise le mbarrier (un seul arrivant attendu), annonce les octets à recevoir
 * (arrive.expect_tx) et lance la copie ; la TMA décompte les octets à mesure qu'ils arrivent
 * (complete_tx), et la phase 0 se termine quand tout est là. Tous les threads attendent cette
 * phase (try_wait.parity 0) avant de lire la mémoire partagée.
 */
__global__ void __launch_bounds__(kThreads)
    load_tiles(const __grid_constant__ CUtensorMap map, const int* __restrict__ origins, float* __restrict__ tiles) {
#if NOYAUX_HAS_TMA
    using namespace ::noyaux::gemm::hopper;  // une fonction par instruction PTX
    __shared__ alignas(128) float tile[kTileRows * kTileCols];
    __shared__ alignas(8) std::uint64_t barrier;
    if (threadIdx.x == 0) {
        mbarrier_init(&barrier, 1);
        // L'initialisation doit être visible du proxy asynchrone, par lequel passe la TMA.
        fence_proxy_async();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const int row = origins[2 * blockIdx.x];
        const int col = origins[2 * blockIdx.x + 1];
        mbarrier_arrive_expect_tx(&barrier, kTileBytes);
        tma_load_2d(tile, &map, &barrier, col, row);  // la colonne (dimension contiguë) d'abord
    }
    mbarrier_wait(&barrier, 0);
    float* out = tiles + static_cast<std::size_t>(blockIdx.x) * kTileRows * kTileCols;
    for (unsigned i = threadIdx.x; i < kTileRows * kTileCols; i += kThreads) out[i] = tile[i];
#else
    __trap();  // ni TMA ni mbarrier::complete_tx avant sm_90 : le programme ne lance jamais ce code
#endif
}
// --8<-- [end:noyau]

// --8<-- [start:tensor-map]
/**
 * @brief Encode la tensor map de la matrice @p matrix (mémoire du GPU) décrite par @p spec :
 *        flottants, deux dimensions, boîte de @p spec.tile_rows × @p spec.tile_cols, sans
 *        permutation ; les éléments hors de la matrice arrivent à zéro. L'encodeur est celui de
 *        la partie GEMM (gemm/common/tma_host.cuh), obtenu du pilote par le runtime.
 * @throws std::invalid_argument si @p spec ou l'adresse enfreint une règle de la TMA ;
 *         std::runtime_error si le pilote refuse malgré tout
 */
inline CUtensorMap encode_tile_map(const float* matrix, const TileMapSpec& spec) {
    return ::noyaux::gemm::tma::encode(operand_map(spec, reinterpret_cast<std::uintptr_t>(matrix)));
}
// --8<-- [end:tensor-map]

/**
 * @brief Lance load_tiles sur @p count tuiles (asynchrone).
 * @throws std::invalid_argument si @p count vaut 0
 */
inline void launch_load_tiles(const CUtensorMap& map, const int* origins, float* tiles, unsigned count,
                              cudaStream_t stream = nullptr) {
    if (count == 0) throw std::invalid_argument("au moins une tuile à charger");
    load_tiles<<<count, kThreads, 0, stream>>>(map, origins, tiles);
}

}  // namespace noyaux::glossaire::tma
