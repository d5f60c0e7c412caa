/**
 * @file
 * @brief Détection du GPU et de la compatibilité d'architecture, avec des erreurs
 *        en français plutôt qu'un échec obscur au premier lancement de noyau.
 */
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace noyaux {

/** @brief Aucun GPU CUDA utilisable (pas de pilote, pas de carte, carte occupée…). */
class NoDeviceError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/** @brief Le binaire ne contient pas de code pour l'architecture du GPU présent. */
class UnsupportedArchitectureError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/** @brief Résultat de la détection : un GPU est-il utilisable, et sinon pourquoi. */
struct DeviceProbe {
    bool usable = false;  ///< au moins un GPU répond
    int count = 0;        ///< nombre de GPU vus par le runtime
    std::string reason;   ///< explication en français quand @ref usable est faux
};

/**
 * @brief Interroge le runtime CUDA. Toute erreur de cudaGetDeviceCount (35 sans pilote,
 *        100 sans carte…) signifie « aucun GPU utilisable ».
 */
DeviceProbe probe_devices();

/**
 * @brief Exige un GPU utilisable et renvoie les propriétés du GPU courant.
 * @throws NoDeviceError si aucun GPU n'est utilisable.
 */
cudaDeviceProp require_device();

/**
 * @brief Version CUDA au format du runtime (1000 × majeure + 10 × mineure, ex. 13000) écrite
 *        « 13.0 », comme la rapportent cudaDriverGetVersion et cudaRuntimeGetVersion.
 */
std::string cuda_version_text(int version);

/** @brief Architectures pour lesquelles ce binaire a été compilé (ex. « 80;90a »). */
const char* compiled_architectures();

/**
 * @brief Vérifie que @p kernel a du code exécutable sur le GPU courant.
 * @throws UnsupportedArchitectureError sinon, en nommant l'architecture du GPU et celles du binaire.
 */
void require_kernel_image(const void* kernel, const char* kernel_name);

/** @brief Surcharge pour un pointeur de noyau typé. */
template <typename... Args>
void require_kernel_image(void (*kernel)(Args...), const char* kernel_name) {
    require_kernel_image(reinterpret_cast<const void*>(kernel), kernel_name);
}

}  // namespace noyaux
