/**
 * @file
 * @brief Cartes de tenseur du TMA côté hôte : cuTensorMapEncodeTiled de simt (mêmes refus que
 *        le pilote, documentés dans cuda.h, avec un message en français), et les points d'entrée
 *        du pilote que l'API runtime rend (cudaGetDriverEntryPoint, …ByVersion) : un programme
 *        obtient l'encodeur comme sur GPU, sans lier libcuda.
 */
#include "tensor_map.hpp"

#include "internal.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace simt::detail {

namespace {

constexpr std::uint64_t kMagic = 0x50414d5454534953ull;  // « SISTTMAP » : carte de simt
constexpr std::uint64_t kNoInterleave = 0;

}  // namespace

unsigned tensor_element_size(unsigned data_type) {
    switch (data_type) {
        case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
        case CU_TENSOR_MAP_DATA_TYPE_UINT16:
        case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
        case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 2;
        case CU_TENSOR_MAP_DATA_TYPE_UINT32:
        case CU_TENSOR_MAP_DATA_TYPE_INT32:
        case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
        case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
        case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
        case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return 4;
        case CU_TENSOR_MAP_DATA_TYPE_UINT64:
        case CU_TENSOR_MAP_DATA_TYPE_INT64:
        case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 8;
        default: return 0;  // types compactés 16U4/16U6 de Blackwell : non modélisés
    }
}

bool tensor_element_is_floating(unsigned data_type) {
    switch (data_type) {
        case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
        case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
        case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
        case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
        case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
        case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ:
        case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return true;
        default: return false;
    }
}

void encode_tensor_map(const TensorMapInfo& info, std::uint64_t* opaque) {
    std::memset(opaque, 0, CU_TENSOR_MAP_NUM_QWORDS * sizeof(std::uint64_t));
    opaque[0] = kMagic;
    opaque[1] = info.address;
    std::uint64_t boxes = 0;
    std::uint64_t steps = 0;
    for (unsigned i = 0; i < 5; ++i) {
        opaque[2 + i] = info.dims[i];
        if (i > 0) opaque[6 + i] = info.strides[i];
        boxes |= std::uint64_t(info.box[i]) << (9 * i);
        steps |= std::uint64_t(info.element_strides[i]) << (4 * i);
    }
    opaque[11] = boxes;
    opaque[12] = steps | std::uint64_t(info.rank) << 20 | std::uint64_t(info.data_type) << 24 |
                 std::uint64_t(info.swizzle) << 28 | std::uint64_t(info.nan_fill) << 31 | kNoInterleave << 32;
}

bool decode_tensor_map(const std::uint64_t* opaque, TensorMapInfo& info) {
    if (opaque[0] != kMagic) return false;
    info = {};
    info.address = opaque[1];
    for (unsigned i = 0; i < 5; ++i) {
        info.dims[i] = opaque[2 + i];
        info.box[i] = unsigned(opaque[11] >> (9 * i)) & 0x1ff;
        info.element_strides[i] = unsigned(opaque[12] >> (4 * i)) & 0xf;
    }
    info.rank = unsigned(opaque[12] >> 20) & 0x7;
    info.data_type = unsigned(opaque[12] >> 24) & 0xf;
    info.swizzle = unsigned(opaque[12] >> 28) & 0x7;
    info.nan_fill = (opaque[12] >> 31) & 1;
    info.element_size = tensor_element_size(info.data_type);
    info.floating = tensor_element_is_floating(info.data_type);
    info.strides[0] = info.element_size;
    for (unsigned i = 1; i < 5; ++i) info.strides[i] = opaque[6 + i];
    return info.rank >= 1 && info.rank <= 5 && info.element_size != 0;
}

namespace {

/** @brief Refus de l'encodeur : message en français, CUDA_ERROR_INVALID_VALUE comme le pilote. */
CUresult refuse(const std::string& problem) {
    report("simt : cuTensorMapEncodeTiled refuse la carte : " + problem);
    return CUDA_ERROR_INVALID_VALUE;
}

std::string index_text(const char* array, unsigned i) { return std::string(array) + "[" + std::to_string(i) + "]"; }

}  // namespace

}  // namespace simt::detail

// L'encodeur de simt, sous le nom du pilote : le même symbole sert à qui l'appelle directement
// (cuda.h) et à qui l'obtient par cudaGetDriverEntryPoint.
CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
                                        cuuint32_t tensorRank, void* globalAddress, const cuuint64_t* globalDim,
                                        const cuuint64_t* globalStrides, const cuuint32_t* boxDim,
                                        const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                                        CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                        CUtensorMapFloatOOBfill oobFill) {
    using namespace simt::detail;
    using std::to_string;
    if (tensorMap == nullptr) return refuse("pointeur tensorMap nul");
    if (reinterpret_cast<std::uintptr_t>(tensorMap) % 64 != 0)
        return refuse("l'adresse de tensorMap doit être alignée sur 64 octets");
    if (tensorRank < 1 || tensorRank > 5)
        return refuse("rang " + to_string(tensorRank) + " hors de [1, 5]");
    const unsigned size = tensor_element_size(tensorDataType);
    if (unsigned(tensorDataType) > CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B)
        return refuse("type d'élément inconnu (" + to_string(int(tensorDataType)) + ")");
    if (size == 0)
        return refuse("les types compactés 16U4/16U6 (Blackwell) ne sont pas modélisés par simt");
    if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE)
        return refuse(unsigned(interleave) > CU_TENSOR_MAP_INTERLEAVE_32B
                          ? "entrelacement inconnu (" + to_string(int(interleave)) + ")"
                          : "l'entrelacement 16B/32B n'est pas modélisé par simt (seul CU_TENSOR_MAP_INTERLEAVE_NONE l'est)");
    if (unsigned(swizzle) > CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B)
        return refuse("mode de swizzle inconnu (" + to_string(int(swizzle)) + ")");
    if (swizzle > CU_TENSOR_MAP_SWIZZLE_128B)
        return refuse("les swizzles 128B_ATOM_* (Blackwell) ne sont pas modélisés par simt");
    if (unsigned(l2Promotion) > CU_TENSOR_MAP_L2_PROMOTION_L2_256B)
        return refuse("promotion L2 inconnue (" + to_string(int(l2Promotion)) + ")");
    if (unsigned(oobFill) > CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
        return refuse("remplissage hors limites inconnu (" + to_string(int(oobFill)) + ")");
    if (oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && !tensor_element_is_floating(tensorDataType))
        return refuse("le remplissage par NaN exige un type d'élément flottant");
    if (globalAddress == nullptr) return refuse("adresse globale nulle");
    if (reinterpret_cast<std::uintptr_t>(globalAddress) % 16 != 0)
        return refuse("l'adresse globale doit être alignée sur 16 octets");
    if (globalDim == nullptr || boxDim == nullptr || elementStrides == nullptr ||
        (tensorRank > 1 && globalStrides == nullptr))
        return refuse("tableau globalDim, globalStrides, boxDim ou elementStrides nul");
    TensorMapInfo info;
    info.rank = tensorRank;
    info.data_type = tensorDataType;
    info.element_size = size;
    info.swizzle = swizzle;
    info.nan_fill = oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
    info.address = reinterpret_cast<std::uintptr_t>(globalAddress);
    for (unsigned i = 0; i < tensorRank; ++i) {
        if (globalDim[i] == 0 || globalDim[i] > (1ull << 32))
            return refuse(index_text("globalDim", i) + " = " + to_string(globalDim[i]) + " hors de [1, 2^32]");
        if (i + 1 < tensorRank) {
            const cuuint64_t stride = globalStrides[i];
            if (stride % 16 != 0)
                return refuse(index_text("globalStrides", i) + " = " + to_string(stride) +
                              " octets, pas un multiple de 16");
            if (stride >= (1ull << 40))
                return refuse(index_text("globalStrides", i) + " = " + to_string(stride) + " octets, pas sous 2^40");
        }
        if (boxDim[i] == 0 || boxDim[i] > 256)
            return refuse(index_text("boxDim", i) + " = " + to_string(boxDim[i]) + " hors de [1, 256]");
        if (elementStrides[i] == 0 || elementStrides[i] > 8)
            return refuse(index_text("elementStrides", i) + " = " + to_string(elementStrides[i]) + " hors de [1, 8]");
        info.dims[i] = globalDim[i];
        info.strides[i] = i == 0 ? size : globalStrides[i - 1];
        info.box[i] = boxDim[i];
        // Le pas de la première dimension est ignoré sans entrelacement (cuda.h).
        info.element_strides[i] = i == 0 ? 1 : elementStrides[i];
    }
    const unsigned inner_bytes = boxDim[0] * size;
    if (inner_bytes % 16 != 0)
        return refuse("la dimension intérieure de la boîte fait " + to_string(inner_bytes) +
                      " octets (boxDim[0] × taille d'un élément), pas un multiple de 16");
    const unsigned span = swizzle == CU_TENSOR_MAP_SWIZZLE_NONE ? 0 : 16u << unsigned(swizzle);
    if (span != 0 && inner_bytes > span)
        return refuse("la dimension intérieure de la boîte fait " + to_string(inner_bytes) + " octets, plus que les " +
                      to_string(span) + " octets du swizzle");
    for (unsigned i = tensorRank; i < 5; ++i) {
        info.dims[i] = 1;
        info.box[i] = 1;
        info.element_strides[i] = 1;
    }
    encode_tensor_map(info, tensorMap->opaque);
    return CUDA_SUCCESS;
}

namespace {

/** @brief Les fonctions du pilote que simt fournit, par nom. */
void* driver_function(const char* symbol) {
    if (std::strcmp(symbol, "cuTensorMapEncodeTiled") == 0) return reinterpret_cast<void*>(&cuTensorMapEncodeTiled);
    return nullptr;
}

cudaError_t entry_point(const char* symbol, void** function, cudaDriverEntryPointQueryResult* status) {
    if (symbol == nullptr || function == nullptr) return simt::detail::failure(cudaErrorInvalidValue);
    *function = driver_function(symbol);
    if (status != nullptr)
        *status = *function ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
    if (*function == nullptr)
        simt::detail::report(std::string("simt : la fonction du pilote « ") + symbol +
                             " » n'est pas fournie par l'émulateur (seule cuTensorMapEncodeTiled l'est)");
    return cudaSuccess;
}

}  // namespace

cudaError_t cudaGetDriverEntryPoint(const char* symbol, void** funcPtr, unsigned long long,
                                    cudaDriverEntryPointQueryResult* driverStatus) {
    return entry_point(symbol, funcPtr, driverStatus);
}

cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** funcPtr, unsigned int cudaVersion,
                                             unsigned long long, cudaDriverEntryPointQueryResult* driverStatus) {
    // cuTensorMapEncodeTiled existe depuis CUDA 12.0.
    if (cudaVersion < 12000 && symbol != nullptr && driver_function(symbol) != nullptr) {
        if (funcPtr != nullptr) *funcPtr = nullptr;
        if (driverStatus != nullptr) *driverStatus = cudaDriverEntryPointVersionNotSufficent;
        return cudaSuccess;
    }
    return entry_point(symbol, funcPtr, driverStatus);
}
