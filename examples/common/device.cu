/**
 * @file
 * @brief Détection du GPU et de la compatibilité d'architecture.
 */
#include "device.cuh"

#include "cuda_check.cuh"

namespace noyaux {

DeviceProbe probe_devices() {
    DeviceProbe probe;
    const cudaError_t code = cudaGetDeviceCount(&probe.count);
    if (code != cudaSuccess) {
        // Effacer l'erreur pour que les appels suivants ne la voient pas.
        (void)cudaGetLastError();
        probe.count = 0;
        probe.reason = std::string("aucun GPU CUDA utilisable : cudaGetDeviceCount a renvoyé ") +
                       cudaGetErrorName(code) + " (" + std::to_string(static_cast<int>(code)) +
                       ", « " + cudaGetErrorString(code) + " »)";
        return probe;
    }
    if (probe.count == 0) {
        probe.reason = "aucun GPU CUDA utilisable : le runtime ne voit aucune carte";
        return probe;
    }
    probe.usable = true;
    return probe;
}

cudaDeviceProp require_device() {
    const DeviceProbe probe = probe_devices();
    if (!probe.usable) throw NoDeviceError(probe.reason);
    int device = 0;
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp properties{};
    NOYAUX_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    return properties;
}

std::string cuda_version_text(int version) {
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

const char* compiled_architectures() { return NOYAUX_CUDA_ARCHITECTURES; }

void require_kernel_image(const void* kernel, const char* kernel_name) {
    cudaFuncAttributes attributes{};
    const cudaError_t code = cudaFuncGetAttributes(&attributes, kernel);
    if (code == cudaErrorNoKernelImageForDevice || code == cudaErrorInvalidDeviceFunction) {
        (void)cudaGetLastError();
        const cudaDeviceProp properties = require_device();
        throw UnsupportedArchitectureError(
            std::string("architecture non prise en charge : le noyau ") + kernel_name +
            " n'a pas de code pour ce GPU (" + properties.name + ", sm_" +
            std::to_string(properties.major) + std::to_string(properties.minor) +
            ") ; ce binaire cible les architectures " + compiled_architectures() +
            ". Reconstruisez avec -DCMAKE_CUDA_ARCHITECTURES=native.");
    }
    NOYAUX_CUDA_CHECK(code);
}

int kernel_ptx_version(const void* kernel, const char* kernel_name) {
    require_kernel_image(kernel, kernel_name);
    cudaFuncAttributes attributes{};
    NOYAUX_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    return attributes.ptxVersion;
}

void require_kernel_architecture(const void* kernel, const char* kernel_name, int minimum, const char* feature) {
    const int version = kernel_ptx_version(kernel, kernel_name);
    if (version >= minimum) return;
    const cudaDeviceProp properties = require_device();
    throw UnsupportedArchitectureError(
        std::string("architecture non prise en charge : ") + feature + " demande sm_" + std::to_string(minimum) +
        " ou plus, et le code du noyau " + kernel_name + " retenu pour ce GPU (" + properties.name + ", sm_" +
        std::to_string(properties.major) + std::to_string(properties.minor) + ") vient de compute_" +
        std::to_string(version) + " ; ce binaire cible les architectures " + compiled_architectures() + ".");
}

}  // namespace noyaux
