/**
 * @file
 * @brief TMA et mbarrier (Hopper, sm_90a) : une tuile 2D copiée de la mémoire globale vers la
 *        mémoire partagée par une seule instruction (cp.async.bulk.tensor), décrite par une
 *        tensor map (CUtensorMap) encodée sur l'hôte par cuTensorMapEncodeTiled ; les threads
 *        attendent l'arrivée des octets sur un mbarrier (arrive.expect_tx, try_wait.parity).
 *
 * cuTensorMapEncodeTiled est une fonction du pilote : on l'obtient par le runtime
 * (cudaGetDriverEntryPointByVersion), sans lier libcuda ; cuda.h ne sert qu'à ses types.
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
#include "tuile.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace noyaux::glossaire::tma {

/** @brief Threads par bloc : un seul lance la copie, tous attendent puis recopient la tuile. */
constexpr unsigned kThreads = 128;

#if (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900) || defined(SIMT_EMULATOR)
// --8<-- [start:mbarrier]
/** @brief Adresse dans la fenêtre de mémoire partagée, pour les opérandes .shared de la PTX. */
__device__ __forceinline__ std::uint32_t shared_address(const void* pointer) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

/** @brief Un essai d'attente : vrai si la phase de parité @p parity du mbarrier est terminée. */
__device__ __forceinline__ bool mbarrier_try_wait(std::uint32_t barrier, std::uint32_t parity) {
    std::uint32_t done = 0;
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "  selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(barrier), "r"(parity)
        : "memory");
    return done != 0;
}
// --8<-- [end:mbarrier]
#endif

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
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ alignas(128) float tile[kTileRows * kTileCols];
    __shared__ alignas(8) std::uint64_t barrier;
    const std::uint32_t bar = shared_address(&barrier);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
        // L'initialisation doit être visible du proxy asynchrone, par lequel passe la TMA.
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const int row = origins[2 * blockIdx.x];
        const int col = origins[2 * blockIdx.x + 1];
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(kTileBytes) : "memory");
        // Coordonnées de la plus interne à la plus externe : colonne, puis ligne.
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
            " [%0], [%1, {%2, %3}], [%4];" ::"r"(shared_address(tile)),
            "l"(reinterpret_cast<std::uint64_t>(&map)), "r"(col), "r"(row), "r"(bar)
            : "memory");
    }
    while (!mbarrier_try_wait(bar, 0)) {
    }
    float* out = tiles + static_cast<std::size_t>(blockIdx.x) * kTileRows * kTileCols;
    for (unsigned i = threadIdx.x; i < kTileRows * kTileCols; i += kThreads) out[i] = tile[i];
#else
    __trap();  // ni TMA ni mbarrier::complete_tx avant sm_90 : le programme ne lance jamais ce code
#endif
}
// --8<-- [end:noyau]

// --8<-- [start:tensor-map]
/**
 * @brief cuTensorMapEncodeTiled, fonction du pilote, obtenue par le runtime : le binaire n'est
 *        pas lié à libcuda, et démarre donc sans pilote.
 * @throws CudaError si le runtime échoue ; std::runtime_error si le pilote n'a pas ce symbole
 */
inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    NOYAUX_CUDA_CHECK(
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &status));
    if (status != cudaDriverEntryPointSuccess || function == nullptr)
        throw std::runtime_error("le pilote ne fournit pas cuTensorMapEncodeTiled (pilote CUDA 12.0 ou plus requis)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
}

/**
 * @brief Encode la tensor map de la matrice @p matrix (mémoire du GPU) décrite par @p spec :
 *        flottants, deux dimensions, boîte de @p spec.tile_rows × @p spec.tile_cols, sans
 *        entrelacement ni permutation ; les éléments hors de la matrice arrivent à zéro.
 * @throws std::invalid_argument si @p spec ou l'adresse enfreint une règle de la TMA ;
 *         std::runtime_error si le pilote refuse malgré tout
 */
inline CUtensorMap encode_tile_map(const float* matrix, const TileMapSpec& spec) {
    validate_tile_map(spec);
    validate_address(reinterpret_cast<std::uintptr_t>(matrix));
    const cuuint64_t dims[2] = {spec.cols, spec.rows};  // la dimension la plus interne d'abord
    const cuuint64_t strides[1] = {spec.row_pitch_bytes};
    const cuuint32_t box[2] = {spec.tile_cols, spec.tile_rows};
    const cuuint32_t element_strides[2] = {1, 1};
    CUtensorMap map{};
    const CUresult result = tensor_map_encoder()(
        &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(matrix), dims, strides, box, element_strides,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
        throw std::runtime_error("cuTensorMapEncodeTiled a refusé la tensor map (code " +
                                 std::to_string(static_cast<int>(result)) + ")");
    return map;
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
