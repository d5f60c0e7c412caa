/**
 * @file
 * @brief Lancement de noyaux : la réécriture des sources transforme
 *        `k<<<grille, bloc, smem, flux>>>(args)` en `::simt::launch(k, grille, bloc, smem, flux)(args)`.
 */
#pragma once

#include "simt/engine.hpp"

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace simt {

/** @brief Lancement configuré, en attente de ses arguments. */
template <typename... Params>
class KernelLaunch {
public:
    KernelLaunch(void (*kernel)(Params...), const char* name, LaunchShape shape)
        : kernel_(kernel), name_(name), shape_(shape) {}

    /** @brief Copie les arguments (comme CUDA, par valeur) et exécute la grille. */
    template <typename... Args>
    void operator()(Args&&... args) const {
        static_assert(sizeof...(Args) == sizeof...(Params),
                      "simt : le noyau ne reçoit pas ce nombre d'arguments");
        const std::tuple<std::decay_t<Params>...> copied(static_cast<std::decay_t<Params>>(
            std::forward<Args>(args))...);
        auto* kernel = kernel_;
        detail::launch_grid(reinterpret_cast<const void*>(kernel), name_, shape_,
                            [&copied, kernel] { std::apply(kernel, copied); });
    }

private:
    void (*kernel_)(Params...);
    const char* name_;
    LaunchShape shape_;
};

/** @brief Forme de `k<<<grille, bloc, smem, flux>>>`, nommée pour les diagnostics. */
template <typename... Params>
KernelLaunch<Params...> launch_named(const char* name, void (*kernel)(Params...), dim3 grid,
                                     dim3 block, std::size_t dynamic_shared_bytes = 0,
                                     cudaStream_t stream = nullptr) {
    return {kernel, name, {grid, block, dynamic_shared_bytes, stream, false}};
}

/** @brief Comme launch_named ; le nom vient de la table des symboles (voir kernel_name). */
template <typename... Params>
KernelLaunch<Params...> launch(void (*kernel)(Params...), dim3 grid, dim3 block,
                               std::size_t dynamic_shared_bytes = 0, cudaStream_t stream = nullptr) {
    return launch_named(detail::kernel_name(reinterpret_cast<const void*>(kernel)), kernel, grid,
                        block, dynamic_shared_bytes, stream);
}

/** @brief Équivalent de cudaLaunchCooperativeKernel, avec les arguments typés. */
template <typename... Params>
cudaError_t launch_cooperative(void (*kernel)(Params...), dim3 grid, dim3 block, void** args,
                               std::size_t dynamic_shared_bytes = 0, cudaStream_t stream = nullptr) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        const std::tuple<std::decay_t<Params>...> copied(
            *static_cast<std::decay_t<Params>*>(args[I])...);
        return detail::launch_grid(reinterpret_cast<const void*>(kernel),
                                   detail::kernel_name(reinterpret_cast<const void*>(kernel)),
                                   {grid, block, dynamic_shared_bytes, stream, true},
                                   [&copied, kernel] { std::apply(kernel, copied); });
    }(std::index_sequence_for<Params...>{});
}

/**
 * @brief `cudaLaunchCooperativeKernel((void*)noyau, …)` : le type du noyau, donc celui de
 *        ses arguments, est perdu ; refusé à la compilation avec une explication.
 */
template <typename T>
    requires(!std::is_function_v<T>)
cudaError_t launch_cooperative(T*, dim3, dim3, void**, std::size_t = 0, cudaStream_t = nullptr) {
    static_assert(std::is_function_v<T>,
                  "simt : passer le noyau lui-même à cudaLaunchCooperativeKernel, sans le convertir "
                  "en void* : l'émulateur lit les types des arguments dans celui du noyau");
    return cudaErrorNotSupported;
}

/**
 * @brief Équivalent de cudaLaunchKernelEx : forme du lancement lue dans @p config ; l'attribut
 *        coopératif est honoré, les clusters sont refusés (non émulés).
 */
template <typename... Params, typename... Args>
cudaError_t launch_kernel_ex(const cudaLaunchConfig_t* config, void (*kernel)(Params...),
                             Args&&... args) {
    static_assert(sizeof...(Args) == sizeof...(Params),
                  "simt : le noyau ne reçoit pas ce nombre d'arguments");
    if (config == nullptr) return cudaErrorInvalidValue;
    LaunchShape shape{config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream, false};
    for (unsigned i = 0; i < config->numAttrs; ++i) {
        const cudaLaunchAttribute& attribute = config->attrs[i];
        if (attribute.id == cudaLaunchAttributeCooperative) {
            shape.cooperative = attribute.val.cooperative != 0;
        } else if (attribute.id == cudaLaunchAttributeClusterDimension &&
                   attribute.val.clusterDim.x * attribute.val.clusterDim.y * attribute.val.clusterDim.z > 1) {
            return detail::refuse_launch(
                "les clusters de blocs (cudaLaunchAttributeClusterDimension) ne sont pas émulés ; "
                "cet exemple est réservé au GPU",
                cudaErrorNotSupported);
        }
    }
    const std::tuple<std::decay_t<Params>...> copied(
        static_cast<std::decay_t<Params>>(std::forward<Args>(args))...);
    return detail::launch_grid(reinterpret_cast<const void*>(kernel),
                               detail::kernel_name(reinterpret_cast<const void*>(kernel)), shape,
                               [&copied, kernel] { std::apply(kernel, copied); });
}

/** @brief Mémoire partagée dynamique (`extern __shared__ T nom[];` après réécriture). */
template <typename T>
T* dynamic_shared_memory() {
    return static_cast<T*>(detail::dynamic_shared_memory());
}

}  // namespace simt
