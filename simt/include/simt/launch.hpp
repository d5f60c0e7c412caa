/**
 * @file
 * @brief Lancement de noyaux : la réécriture des sources transforme
 *        `k<<<grille, bloc, smem, flux>>>(args)` en `::simt::launch(k, grille, bloc, smem, flux)(args)`.
 */
#pragma once

#include "simt/engine.hpp"

#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

namespace simt {

namespace detail {

/**
 * @brief Corps de thread qui possède sa copie des arguments (comme CUDA, par valeur) : il
 *        survit à l'appel qui l'a créé, ce qu'exige un lancement enregistré dans un graphe.
 */
template <typename... Params>
ThreadBody owning_body(void (*kernel)(Params...), std::decay_t<Params>... args) {
    auto copied = std::make_shared<const std::tuple<std::decay_t<Params>...>>(std::move(args)...);
    return [copied, kernel] { std::apply(kernel, *copied); };
}

/** @brief Comme owning_body, les arguments lus à travers le tableau `void**` de l'API C. */
template <typename... Params>
ThreadBody body_from_pointers(void (*kernel)(Params...), void** args) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return owning_body(kernel, *static_cast<std::decay_t<Params>*>(args[I])...);
    }(std::index_sequence_for<Params...>{});
}

/** @brief BodyFactory d'un noyau aux paramètres @p Params. */
template <typename... Params>
ThreadBody body_factory(const void* kernel, void** args) {
    return body_from_pointers(reinterpret_cast<void (*)(Params...)>(const_cast<void*>(kernel)), args);
}

/** @brief Retient le type de @p kernel pour cudaGraphAddKernelNode (voir remember_kernel). */
template <typename... Params>
void remember(void (*kernel)(Params...)) {
    remember_kernel(reinterpret_cast<const void*>(kernel), &body_factory<Params...>);
}

}  // namespace detail

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
        auto* kernel = kernel_;
        detail::remember(kernel);
        detail::launch_grid(reinterpret_cast<const void*>(kernel), name_, shape_,
                            detail::owning_body(kernel, static_cast<std::decay_t<Params>>(
                                                            std::forward<Args>(args))...));
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
    detail::remember(kernel);
    return detail::launch_grid(reinterpret_cast<const void*>(kernel),
                               detail::kernel_name(reinterpret_cast<const void*>(kernel)),
                               {grid, block, dynamic_shared_bytes, stream, true},
                               detail::body_from_pointers(kernel, args));
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
 *        coopératif est honoré, les clusters sont refusés (non émulés). Le lancement à
 *        dépendance programmatique (PDL) est accepté : le flux émulé étant séquentiel, le
 *        noyau ne démarre qu'après la fin du précédent, ce qui satisfait d'avance
 *        cudaGridDependencySynchronize ; l'événement programmatique est enregistré à la fin
 *        de la grille, ce qui est plus tard que ne le promet CUDA, jamais plus tôt.
 */
template <typename... Params, typename... Args>
cudaError_t launch_kernel_ex(const cudaLaunchConfig_t* config, void (*kernel)(Params...),
                             Args&&... args) {
    static_assert(sizeof...(Args) == sizeof...(Params),
                  "simt : le noyau ne reçoit pas ce nombre d'arguments");
    if (config == nullptr) return cudaErrorInvalidValue;
    if (config->numAttrs > 0 && config->attrs == nullptr)
        return detail::refuse_launch("cudaLaunchConfig_t annonce des attributs (numAttrs) mais attrs est nul",
                                     cudaErrorInvalidValue);
    LaunchShape shape{config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream, false};
    cudaEvent_t programmatic_event = nullptr;
    for (unsigned i = 0; i < config->numAttrs; ++i) {
        const cudaLaunchAttribute& attribute = config->attrs[i];
        if (attribute.id == cudaLaunchAttributeCooperative) {
            shape.cooperative = attribute.val.cooperative != 0;
        } else if (attribute.id == cudaLaunchAttributeProgrammaticEvent) {
            programmatic_event = attribute.val.programmaticEvent.event;
            if (programmatic_event == nullptr) return detail::refuse_launch(
                "cudaLaunchAttributeProgrammaticEvent sans événement", cudaErrorInvalidResourceHandle);
        } else if (attribute.id == cudaLaunchAttributeClusterDimension &&
                   attribute.val.clusterDim.x * attribute.val.clusterDim.y * attribute.val.clusterDim.z > 1) {
            return detail::refuse_launch(
                "les clusters de blocs (cudaLaunchAttributeClusterDimension) ne sont pas émulés ; "
                "cet exemple est réservé au GPU",
                cudaErrorNotSupported);
        }
    }
    detail::remember(kernel);
    const cudaError_t error = detail::launch_grid(
        reinterpret_cast<const void*>(kernel), detail::kernel_name(reinterpret_cast<const void*>(kernel)),
        shape, detail::owning_body(kernel, static_cast<std::decay_t<Params>>(std::forward<Args>(args))...));
    if (error != cudaSuccess || programmatic_event == nullptr) return error;
    return cudaEventRecord(programmatic_event, config->stream);
}

/** @brief Mémoire partagée dynamique (`extern __shared__ T nom[];` après réécriture). */
template <typename T>
T* dynamic_shared_memory() {
    return static_cast<T*>(detail::dynamic_shared_memory());
}

}  // namespace simt
