/**
 * @file
 * @brief Tensor maps (TMA) encodées sur l'hôte : cuTensorMapEncodeTiled, fonction du pilote,
 *        obtenue par le runtime (cudaGetDriverEntryPointByVersion) ; aucun binaire n'est lié à
 *        libcuda, et tous démarrent donc sans pilote. Les paramètres sont d'abord vérifiés par
 *        validate() (tensor_map.hpp) : une règle enfreinte donne une erreur en français, pas un
 *        CUDA_ERROR_INVALID_VALUE. cuda.h ne sert qu'à ses types.
 */
#pragma once

#include "tensor_map.hpp"

#include "common/cuda_check.cuh"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace noyaux::gemm::tma {

// --8<-- [start:encodeur]
/**
 * @brief cuTensorMapEncodeTiled (interface de CUDA 12.0), demandée au pilote par le runtime.
 * @throws CudaError si le runtime échoue ; std::runtime_error si le pilote n'a pas ce symbole
 */
inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
    // Demandée une fois par programme ; un échec n'est pas retenu, l'appel suivant réessaie.
    static const PFN_cuTensorMapEncodeTiled_v12000 encoder = [] {
        void* function = nullptr;
        cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
        NOYAUX_CUDA_CHECK(
            cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &status));
        if (status != cudaDriverEntryPointSuccess || function == nullptr)
            throw std::runtime_error(
                "le pilote ne fournit pas cuTensorMapEncodeTiled (pilote CUDA 12.0 ou plus requis)");
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
    }();
    return encoder;
}

/** @brief Le type d'élément de la TMA pour des éléments de @p element_bytes octets (bf16 ou fp32). */
inline CUtensorMapDataType data_type(std::uint32_t element_bytes) {
    switch (element_bytes) {
        case 2: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
        case 4: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
        default:
            throw TensorMapError("élément de " + std::to_string(element_bytes) +
                                 " octets : seuls le bf16 (2 octets) et le fp32 (4 octets) sont encodés ici");
    }
}

/**
 * @brief Encode la tensor map 2D de @p map (bf16 ou fp32, selon map.element_bytes) : boîte
 *        map.box_rows × map.box_cols, permutation map.swizzle en mémoire partagée, éléments hors
 *        de la matrice lus comme des zéros.
 * @throws TensorMapError si une règle de la TMA est enfreinte ; std::runtime_error si le
 *         pilote refuse malgré tout
 */
inline CUtensorMap encode(const OperandMap& map) {
    validate(map);
    const CUtensorMapDataType type = data_type(map.element_bytes);
    const cuuint64_t dims[2] = {map.cols, map.rows};  // la dimension contiguë d'abord
    const cuuint64_t strides[1] = {map.row_stride_bytes};
    const cuuint32_t box[2] = {map.box_cols, map.box_rows};
    const cuuint32_t element_strides[2] = {1, 1};
    CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    switch (map.swizzle) {
        case Swizzle::none: swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; break;
        case Swizzle::bytes32: swizzle = CU_TENSOR_MAP_SWIZZLE_32B; break;
        case Swizzle::bytes64: swizzle = CU_TENSOR_MAP_SWIZZLE_64B; break;
        case Swizzle::bytes128: swizzle = CU_TENSOR_MAP_SWIZZLE_128B; break;
    }
    CUtensorMap encoded{};
    const CUresult result = tensor_map_encoder()(
        &encoded, type, 2, reinterpret_cast<void*>(map.address), dims, strides, box, element_strides,
        CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
        throw std::runtime_error("cuTensorMapEncodeTiled a refusé la tensor map (code " +
                                 std::to_string(static_cast<int>(result)) + ")");
    return encoded;
}
// --8<-- [end:encodeur]

/**
 * @brief encode(), mémorisé pour les derniers paramètres vus : une tensor map ne dépend que de
 *        ses paramètres (adresse comprise), si bien qu'un lanceur appelé en boucle sur les mêmes
 *        matrices (le benchmark, entre ses événements) ne repasse ni par la validation ni par le
 *        pilote.
 */
inline CUtensorMap encode_cached(const OperandMap& map) {
    struct Entry {
        OperandMap map;
        CUtensorMap encoded;
    };
    static thread_local std::array<std::optional<Entry>, 4> entries;  // A et B de deux GEMM
    static thread_local std::size_t next = 0;
    for (const std::optional<Entry>& entry : entries)
        if (entry && entry->map == map) return entry->encoded;
    const CUtensorMap encoded = encode(map);
    entries[next++ % entries.size()] = Entry{map, encoded};
    return encoded;
}

}  // namespace noyaux::gemm::tma
