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

/**
 * @brief Version de la PTX dont vient le code que le GPU courant exécuterait pour @p kernel
 *        (ex. 90 pour un noyau compilé pour sm_90a, 80 pour un code compilé à la volée depuis
 *        la PTX de compute_80).
 * @throws UnsupportedArchitectureError si le noyau n'a aucun code pour ce GPU
 */
int kernel_ptx_version(const void* kernel, const char* kernel_name);

/** @brief Surcharge pour un pointeur de noyau typé. */
template <typename... Args>
int kernel_ptx_version(void (*kernel)(Args...), const char* kernel_name) {
    return kernel_ptx_version(reinterpret_cast<const void*>(kernel), kernel_name);
}

/**
 * @brief Exige que le code retenu pour @p kernel sur le GPU courant vienne d'une architecture
 *        au moins égale à @p minimum (ex. 90). Un exemple Hopper est aussi compilé pour sm_80,
 *        sans la fonction qu'il montre : ce code-là ne doit pas être lancé.
 * @param kernel le noyau
 * @param kernel_name son nom, pour le message
 * @param minimum l'architecture minimale, ex. 90 pour sm_90
 * @param feature ce qui demande cette architecture, pour le message (ex. « la TMA »)
 * @throws UnsupportedArchitectureError sinon, en nommant le GPU et l'architecture requise
 */
void require_kernel_architecture(const void* kernel, const char* kernel_name, int minimum, const char* feature);

/** @brief Surcharge pour un pointeur de noyau typé. */
template <typename... Args>
void require_kernel_architecture(void (*kernel)(Args...), const char* kernel_name, int minimum,
                                 const char* feature) {
    require_kernel_architecture(reinterpret_cast<const void*>(kernel), kernel_name, minimum, feature);
}

}  // namespace noyaux
