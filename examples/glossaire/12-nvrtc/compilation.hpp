/**
 * @file
 * @brief Logique hôte de l'exemple 12 : compiler une source CUDA C++ pendant l'exécution avec
 *        NVRTC (libnvrtc du toolkit), vers de la PTX ou un cubin, et retrouver le nom décoré
 *        d'une instanciation de gabarit. NVRTC n'a besoin ni de GPU ni de pilote : ces
 *        fonctions sont testées aussi sur l'émulateur.
 */
#pragma once

#include <nvrtc.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::glossaire::runtime_compilation {

// --8<-- [start:source]
/**
 * @brief La source compilée à l'exécution : y ← a·x + y, @c Unroll éléments par thread. Le
 *        déroulement est un paramètre de gabarit : choisi au lancement du programme, il devient
 *        une constante pour le compilateur.
 */
inline constexpr const char* kSaxpySource = R"(
template <int Unroll>
__global__ void saxpy(float a, const float* __restrict__ x, float* __restrict__ y, int n) {
    const int base = (blockIdx.x * blockDim.x + threadIdx.x) * Unroll;
#pragma unroll
    for (int k = 0; k < Unroll; ++k) {
        const int i = base + k;
        if (i < n) y[i] = fmaf(a, x[i], y[i]);
    }
}
)";
// --8<-- [end:source]

/** @brief Un appel à NVRTC a échoué (hors erreur de compilation de la source). */
class NvrtcError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/** @brief La source ne compile pas ; le message contient le journal de NVRTC. */
class CompilationError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/** @brief Lève NvrtcError si @p result n'est pas NVRTC_SUCCESS, en nommant l'appel. */
inline void check_nvrtc(nvrtcResult result, const char* call) {
    if (result != NVRTC_SUCCESS)
        throw NvrtcError(std::string("erreur NVRTC ") + nvrtcGetErrorString(result) + " dans " + call);
}

/** @brief Version de la bibliothèque NVRTC chargée, « majeure.mineure ». */
inline std::string nvrtc_version() {
    int major = 0;
    int minor = 0;
    check_nvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
    return std::to_string(major) + "." + std::to_string(minor);
}

/** @brief Architectures réelles que cette NVRTC sait viser (ex. 75, 80, 90…). */
inline std::vector<int> supported_architectures() {
    int count = 0;
    check_nvrtc(nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs");
    std::vector<int> archs(static_cast<std::size_t>(count));
    check_nvrtc(nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs");
    return archs;
}

/**
 * @brief Option d'architecture pour un GPU de capacité @p major.@p minor : « sm_XY » pour un
 *        cubin (code machine de ce GPU seulement), « compute_XY » pour de la PTX (compilée
 *        ensuite par le pilote, sur ce GPU ou un plus récent).
 * @throws std::invalid_argument si NVRTC ne prend pas en charge cette architecture
 */
inline std::string architecture_option(int major, int minor, bool cubin) {
    const int arch = 10 * major + minor;
    const std::vector<int> archs = supported_architectures();
    if (std::find(archs.begin(), archs.end(), arch) == archs.end()) {
        std::string list;
        for (int a : archs) list += (list.empty() ? "" : ", ") + std::to_string(a);
        throw std::invalid_argument("NVRTC " + nvrtc_version() + " ne sait pas compiler pour l'architecture " +
                                    std::to_string(arch) + " (prises en charge : " + list + ")");
    }
    return std::string("--gpu-architecture=") + (cubin ? "sm_" : "compute_") + std::to_string(arch);
}

/** @brief Résultat d'une compilation : le code et le nom décoré du noyau demandé. */
struct CompiledKernel {
    std::string lowered_name;  ///< symbole du noyau dans le code (ex. _Z5saxpyILi4EEvfPKfPfi)
    std::vector<char> image;   ///< PTX (terminée par un zéro) ou cubin
    bool cubin = false;        ///< vrai pour un cubin, faux pour de la PTX
    std::string log;           ///< journal de NVRTC (avertissements éventuels)
};

// --8<-- [start:compiler]
/**
 * @brief Compile @p source (nommée @p file_name dans les messages) et rend le code du noyau
 *        désigné par @p name_expression (ex. « saxpy<4> »), pour l'option d'architecture
 *        @p architecture (voir architecture_option).
 * @throws CompilationError si la source ne compile pas, avec le journal de NVRTC ;
 *         NvrtcError si un autre appel échoue
 */
inline CompiledKernel compile_kernel(const std::string& source, const std::string& file_name,
                                     const std::string& name_expression, const std::string& architecture) {
    nvrtcProgram program = nullptr;
    check_nvrtc(nvrtcCreateProgram(&program, source.c_str(), file_name.c_str(), 0, nullptr, nullptr),
                "nvrtcCreateProgram");
    // Le programme est détruit quoi qu'il arrive, y compris quand une exception sort d'ici.
    struct Guard {
        nvrtcProgram* p;
        ~Guard() { nvrtcDestroyProgram(p); }
    } guard{&program};

    // Le nom d'une instanciation de gabarit est décoré : NVRTC le rend après compilation.
    check_nvrtc(nvrtcAddNameExpression(program, name_expression.c_str()), "nvrtcAddNameExpression");
    const bool cubin = architecture.find("=sm_") != std::string::npos;
    const char* options[] = {architecture.c_str(), "--std=c++17"};
    const nvrtcResult compiled = nvrtcCompileProgram(program, 2, options);

    CompiledKernel result;
    std::size_t log_size = 0;
    check_nvrtc(nvrtcGetProgramLogSize(program, &log_size), "nvrtcGetProgramLogSize");
    result.log.resize(log_size);
    check_nvrtc(nvrtcGetProgramLog(program, result.log.data()), "nvrtcGetProgramLog");
    if (!result.log.empty() && result.log.back() == '\0') result.log.pop_back();
    if (compiled != NVRTC_SUCCESS)
        throw CompilationError("la compilation de « " + file_name + " » par NVRTC a échoué (" +
                               nvrtcGetErrorString(compiled) + "). Journal de NVRTC :\n" + result.log);

    const char* lowered = nullptr;
    check_nvrtc(nvrtcGetLoweredName(program, name_expression.c_str(), &lowered), "nvrtcGetLoweredName");
    result.lowered_name = lowered;
    std::size_t size = 0;
    if (cubin) {
        check_nvrtc(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
        result.image.resize(size);
        check_nvrtc(nvrtcGetCUBIN(program, result.image.data()), "nvrtcGetCUBIN");
    } else {
        check_nvrtc(nvrtcGetPTXSize(program, &size), "nvrtcGetPTXSize");
        result.image.resize(size);
        check_nvrtc(nvrtcGetPTX(program, result.image.data()), "nvrtcGetPTX");
    }
    result.cubin = cubin;
    return result;
}
// --8<-- [end:compiler]

/**
 * @brief L'expression qui désigne saxpy pour un déroulement @p unroll, ex. « saxpy<4> ».
 * @throws std::invalid_argument si @p unroll n'est pas 1, 2, 4 ou 8
 */
inline std::string saxpy_expression(int unroll) {
    if (unroll != 1 && unroll != 2 && unroll != 4 && unroll != 8)
        throw std::invalid_argument("déroulement : 1, 2, 4 ou 8 (demandé : " + std::to_string(unroll) + ")");
    return "saxpy<" + std::to_string(unroll) + ">";
}

}  // namespace noyaux::glossaire::runtime_compilation
