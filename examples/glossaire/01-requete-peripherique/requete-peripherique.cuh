/**
 * @file
 * @brief Ce que le pilote dit d'un GPU : nom, capacité de calcul, multiprocesseurs, cache L2,
 *        mémoire, moteurs de copie, versions du pilote et du runtime, et le code machine que le
 *        runtime a choisi dans le binaire pour cette carte.
 *
 * Tout vient de l'API runtime (cudaGetDeviceProperties, cudaDriverGetVersion,
 * cudaRuntimeGetVersion, cudaFuncGetAttributes) : rien n'est lu par NVML ni par nvidia-smi.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "common/french_format.hpp"

#include <cstddef>
#include <string>

namespace noyaux::glossaire::device_query {

// --8<-- [start:sonde]
/**
 * @brief Noyau vide : il ne sert qu'à demander au runtime quel code machine du binaire il a
 *        retenu pour la carte (cudaFuncGetAttributes en donne l'architecture).
 */
__global__ void probe_kernel() {}
// --8<-- [end:sonde]

/** @brief Propriétés d'un GPU retenues par l'exemple, avec les versions logicielles. */
struct DeviceSummary {
    std::string name;                   ///< nom commercial de la carte
    int major = 0;                      ///< capacité de calcul, partie majeure
    int minor = 0;                      ///< capacité de calcul, partie mineure
    int multiprocessors = 0;            ///< nombre de SM
    int max_threads_per_multiprocessor = 0;  ///< threads résidents au plus par SM
    int registers_per_multiprocessor = 0;    ///< registres de 32 bits par SM
    std::size_t shared_per_multiprocessor = 0;  ///< octets de mémoire partagée par SM
    std::size_t l2_bytes = 0;           ///< taille du cache L2
    std::size_t global_memory_bytes = 0;  ///< mémoire du GPU
    int copy_engines = 0;               ///< moteurs de copie (asyncEngineCount)
    int driver_version = 0;             ///< version CUDA que le pilote installé sait servir
    int runtime_version = 0;            ///< version du runtime lié au programme
    int binary_version = 0;             ///< architecture du code machine chargé (ex. 90), 0 : inconnue
    int ptx_version = 0;                ///< version virtuelle (compute_XY) de ce code
};

// --8<-- [start:requete]
/**
 * @brief Interroge le runtime sur le GPU @p device.
 * @throws CudaError si un appel échoue (numéro de GPU invalide, pas de code pour la carte…)
 */
inline DeviceSummary query_device(int device) {
    cudaDeviceProp p{};
    NOYAUX_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    DeviceSummary s;
    s.name = p.name;
    s.major = p.major;
    s.minor = p.minor;
    s.multiprocessors = p.multiProcessorCount;
    s.max_threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
    s.registers_per_multiprocessor = p.regsPerMultiprocessor;
    s.shared_per_multiprocessor = p.sharedMemPerMultiprocessor;
    s.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
    s.global_memory_bytes = p.totalGlobalMem;
    s.copy_engines = p.asyncEngineCount;
    NOYAUX_CUDA_CHECK(cudaDriverGetVersion(&s.driver_version));
    NOYAUX_CUDA_CHECK(cudaRuntimeGetVersion(&s.runtime_version));
    // Le runtime choisit le code machine du binaire au chargement, pour le GPU courant.
    int current = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&current));
    NOYAUX_CUDA_CHECK(cudaSetDevice(device));
    cudaFuncAttributes attributes{};
    NOYAUX_CUDA_CHECK(cudaFuncGetAttributes(&attributes, probe_kernel));
    NOYAUX_CUDA_CHECK(cudaSetDevice(current));
    s.binary_version = attributes.binaryVersion;
    s.ptx_version = attributes.ptxVersion;
    return s;
}
// --8<-- [end:requete]

// --8<-- [start:architecture]
/**
 * @brief Nom de la génération d'architecture NVIDIA d'une capacité de calcul (ex. 9.0 → Hopper),
 *        d'après le tableau des capacités de calcul du CUDA C++ Programming Guide.
 */
inline std::string architecture_name(int major, int minor) {
    switch (major) {
        case 7: return minor == 5 ? "Turing" : "Volta";
        case 8: return minor == 9 ? "Ada Lovelace" : "Ampere";
        case 9: return "Hopper";
        case 10:
        case 11:
        case 12: return "Blackwell";
        default: return "génération inconnue de cet exemple";
    }
}
// --8<-- [end:architecture]

/**
 * @brief Taille en octets écrite avec l'unité binaire qui convient (octets, Kio, Mio, Gio), une
 *        décimale et la virgule française (ex. 52428800 → « 50,0 Mio »).
 */
inline std::string format_bytes(std::size_t bytes) {
    static constexpr const char* kUnits[] = {"octets", "Kio", "Mio", "Gio", "Tio"};
    if (bytes < 1024) return std::to_string(bytes) + " octets";
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 4) {
        value /= 1024.0;
        ++unit;
    }
    return decimal_text(value) + " " + kUnits[unit];
}

}  // namespace noyaux::glossaire::device_query
