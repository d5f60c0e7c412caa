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

/**
 * @brief Un argument converti vers le type du paramètre @p Param, comme à l'appel du noyau.
 *        `0` ou `NULL` passés à un paramètre pointeur arrivent ici en entier (le littéral
 *        a perdu sa qualité de pointeur nul en traversant le modèle) : ils deviennent le
 *        pointeur nul (voir null_pointer_arguments pour un entier non nul).
 */
template <typename Param, typename Arg>
std::decay_t<Param> kernel_argument(Arg&& arg) {
    using Target = std::decay_t<Param>;
    if constexpr (std::is_pointer_v<Target> && std::is_integral_v<std::remove_cvref_t<Arg>>)
        return nullptr;
    else
        return static_cast<Target>(std::forward<Arg>(arg));
}

/**
 * @brief Vrai si aucun entier non nul n'est passé à un paramètre pointeur ; sinon, le
 *        lancement est refusé (nvcc refuserait de le compiler).
 */
template <typename... Params, typename... Args>
bool null_pointer_arguments(const Args&... args) {
    const bool valid = ([&] {
        if constexpr (std::is_pointer_v<std::decay_t<Params>> && std::is_integral_v<Args>)
            return args == 0;
        else
            return true;
    }() && ...);
    if (!valid)
        refuse_launch("un entier non nul est passé à un paramètre pointeur du noyau", cudaErrorInvalidValue);
    return valid;
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
        if (!detail::null_pointer_arguments<Params...>(args...)) return;
        detail::remember(kernel);
        detail::launch_grid(reinterpret_cast<const void*>(kernel), name_, shape_,
                            detail::owning_body(kernel, detail::kernel_argument<Params>(
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

namespace detail {

/** @brief Un type passé en valeur (pour interroger les lambdas de SIMT_KERNEL). */
template <typename T>
struct TypeTag {
    using type = T;  ///< le type transporté
};

/** @brief Pointeur d'un noyau qui n'est ni surchargé ni un modèle à déduire (sinon, échec de substitution). */
template <typename... Params, typename Tag>
auto unique_kernel(void (*kernel)(Params...), Tag) {
    return kernel;
}

/**
 * @brief L'expression lancée par `k<<<…>>>(args)`, telle que l'écrit le source (voir
 *        SIMT_KERNEL) : un nom de noyau peut désigner plusieurs surcharges, un modèle dont
 *        les arguments se déduisent de ceux de l'appel, ou un noyau à arguments par défaut,
 *        ce qu'un pointeur de fonction ne sait pas porter.
 */
template <typename Call, typename Exact, typename Unique>
struct KernelExpression {
    Call call;         ///< appelle le noyau comme le source : surcharges, déduction, arguments par défaut
    Exact exact;       ///< pointeur de la surcharge aux paramètres d'un TypeTag<void (*)(P...)>
    Unique unique;     ///< pointeur du noyau s'il est seul de son nom (TypeTag<void>)
    const char* text;  ///< l'expression écrite, qui nomme le noyau quand aucun pointeur n'est connu
};

/** @brief Guide de déduction (agrégat de lambdas). */
template <typename Call, typename Exact, typename Unique>
KernelExpression(Call, Exact, Unique, const char*) -> KernelExpression<Call, Exact, Unique>;

/** @brief Nombre de paramètres d'un pointeur de noyau. */
template <typename Kernel>
struct Arity;

/** @brief Spécialisation pour `void (*)(Params...)`. */
template <typename... Params>
struct Arity<void (*)(Params...)> : std::integral_constant<std::size_t, sizeof...(Params)> {};

/** @brief Adresse propre à un site de lancement dont le noyau n'a pas de pointeur connu. */
template <typename Call>
void launch_site() {}

/** @brief Lancement d'un noyau dont l'appel omet des arguments par défaut : @p call les complète. */
template <typename Call, typename... Params, typename... Args>
void launch_with_defaults(const Call& call, void (*kernel)(Params...), const LaunchShape& shape,
                          Args&&... args) {
    using Declared = std::tuple<std::decay_t<Params>...>;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        static_assert(std::is_invocable_v<const Call&, const std::tuple_element_t<I, Declared>&...>,
                      "simt : le noyau ne reçoit pas ce nombre d'arguments (il en manque, sans valeur par défaut)");
        if (!null_pointer_arguments<std::tuple_element_t<I, Declared>...>(args...)) return;
        remember(kernel);
        auto copied = std::make_shared<const std::tuple<std::tuple_element_t<I, Declared>...>>(
            kernel_argument<std::tuple_element_t<I, Declared>>(std::forward<Args>(args))...);
        launch_grid(reinterpret_cast<const void*>(kernel), kernel_name(reinterpret_cast<const void*>(kernel)),
                    shape, [copied, call] { std::apply(call, *copied); });
    }(std::index_sequence_for<Args...>{});
}

}  // namespace detail

/** @brief Lancement configuré d'une expression de noyau (SIMT_KERNEL), en attente de ses arguments. */
template <typename Expression>
class ExpressionLaunch {
public:
    /** @brief @p expression : le noyau tel qu'écrit ; @p shape : la configuration `<<<…>>>`. */
    ExpressionLaunch(Expression expression, LaunchShape shape) : expression_(expression), shape_(shape) {}

    /**
     * @brief Choisit le noyau comme le ferait nvcc : le seul de son nom (arguments par défaut
     *        complétés), sinon la surcharge ou l'instance de modèle dont les paramètres sont
     *        exactement les types des arguments, sinon l'appel tel qu'écrit (le noyau n'a
     *        alors pas d'adresse connue : il est nommé par son expression).
     */
    template <typename... Args>
    void operator()(Args&&... args) const {
        using Exact = void (*)(std::decay_t<Args>...);
        if constexpr (std::is_invocable_v<decltype(expression_.unique) const&, detail::TypeTag<void>>) {
            auto* kernel = expression_.unique(detail::TypeTag<void>{});
            if constexpr (sizeof...(Args) < detail::Arity<decltype(kernel)>::value)
                detail::launch_with_defaults(expression_.call, kernel, shape_, std::forward<Args>(args)...);
            else
                KernelLaunch(kernel, detail::kernel_name(reinterpret_cast<const void*>(kernel)), shape_)(
                    std::forward<Args>(args)...);
        } else if constexpr (std::is_invocable_v<decltype(expression_.exact) const&, detail::TypeTag<Exact>>) {
            auto* kernel = expression_.exact(detail::TypeTag<Exact>{});
            KernelLaunch(kernel, detail::kernel_name(reinterpret_cast<const void*>(kernel)), shape_)(
                std::forward<Args>(args)...);
        } else {
            static_assert(std::is_invocable_v<decltype(expression_.call) const&, std::decay_t<Args>&...>,
                          "simt : aucun noyau de ce nom n'accepte ces arguments (nombre ou types)");
            auto copied = std::make_shared<const std::tuple<std::decay_t<Args>...>>(std::forward<Args>(args)...);
            auto call = expression_.call;
            detail::launch_grid(reinterpret_cast<const void*>(&detail::launch_site<decltype(call)>),
                                expression_.text, shape_, [copied, call] { std::apply(call, *copied); });
        }
    }

private:
    Expression expression_;
    LaunchShape shape_;
};

/** @brief Cible de la réécriture de `k<<<grille, bloc, smem, flux>>>` : voir SIMT_KERNEL. */
template <typename Call, typename Exact, typename Unique>
ExpressionLaunch<detail::KernelExpression<Call, Exact, Unique>> launch(
    detail::KernelExpression<Call, Exact, Unique> expression, dim3 grid, dim3 block,
    std::size_t dynamic_shared_bytes = 0, cudaStream_t stream = nullptr) {
    return {expression, {grid, block, dynamic_shared_bytes, stream, false}};
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
 * @brief `cudaLaunchCooperativeKernel((void*)noyau, …)`, sa forme usuelle : la réécriture
 *        retire la conversion en void* et passe le noyau par SIMT_KERNEL, ce qui rend son type.
 */
template <typename Call, typename Exact, typename Unique>
cudaError_t launch_cooperative(detail::KernelExpression<Call, Exact, Unique> expression, dim3 grid,
                               dim3 block, void** args, std::size_t dynamic_shared_bytes = 0,
                               cudaStream_t stream = nullptr) {
    static_assert(std::is_invocable_v<Unique const&, detail::TypeTag<void>>,
                  "simt : le noyau converti en void* pour cudaLaunchCooperativeKernel doit être seul "
                  "de son nom (ni surchargé, ni modèle sans arguments explicites)");
    return launch_cooperative(expression.unique(detail::TypeTag<void>{}), grid, block, args,
                              dynamic_shared_bytes, stream);
}

/**
 * @brief `cudaLaunchCooperativeKernel(pointeur, …)` où le pointeur est déjà un void* (une
 *        variable) : le type du noyau, donc celui de ses arguments, est perdu ; refusé à la
 *        compilation avec une explication.
 */
template <typename T>
    requires(!std::is_function_v<T>)
cudaError_t launch_cooperative(T*, dim3, dim3, void**, std::size_t = 0, cudaStream_t = nullptr) {
    static_assert(std::is_function_v<T>,
                  "simt : passer le noyau lui-même à cudaLaunchCooperativeKernel (ou « (void*)noyau »), "
                  "pas une variable void* : l'émulateur lit les types des arguments dans celui du noyau");
    return cudaErrorNotSupported;
}

/**
 * @brief Équivalent de cudaLaunchKernelEx : forme du lancement lue dans @p config ; les
 *        attributs coopératif et de dimensions de cluster sont honorés. Le lancement à
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
        } else if (attribute.id == cudaLaunchAttributeClusterDimension) {
            const auto& dims = attribute.val.clusterDim;
            shape.cluster = dim3(dims.x, dims.y, dims.z);
            shape.explicit_cluster = true;  // vérifiées au lancement (validate_cluster)
        }
    }
    if (!detail::null_pointer_arguments<Params...>(args...)) return cudaErrorInvalidValue;
    detail::remember(kernel);
    const cudaError_t error = detail::launch_grid(
        reinterpret_cast<const void*>(kernel), detail::kernel_name(reinterpret_cast<const void*>(kernel)),
        shape, detail::owning_body(kernel, detail::kernel_argument<Params>(std::forward<Args>(args))...));
    if (error != cudaSuccess || programmatic_event == nullptr) return error;
    return cudaEventRecord(programmatic_event, config->stream);
}

/** @brief Mémoire partagée dynamique (`extern __shared__ T nom[];` après réécriture). */
template <typename T>
T* dynamic_shared_memory() {
    return static_cast<T*>(detail::dynamic_shared_memory());
}

}  // namespace simt

/**
 * @brief Le noyau d'un lancement réécrit, sous trois formes que le compilateur choisit à
 *        l'instanciation (voir ExpressionLaunch) : l'appel tel qu'écrit, le pointeur de la
 *        surcharge aux paramètres donnés, le pointeur du noyau seul de son nom. Une macro,
 *        parce qu'un nom surchargé ou un modèle sans arguments ne se passe pas à une fonction.
 */
#define SIMT_KERNEL(...)                                                                          \
    ::simt::detail::KernelExpression {                                                            \
        [&](auto&&... simt_args) -> decltype(__VA_ARGS__(static_cast<decltype(simt_args)&&>(simt_args)...)) { \
            __VA_ARGS__(static_cast<decltype(simt_args)&&>(simt_args)...);                        \
        },                                                                                        \
        [&](auto simt_tag) -> decltype(static_cast<typename decltype(simt_tag)::type>(__VA_ARGS__)) { \
            return static_cast<typename decltype(simt_tag)::type>(__VA_ARGS__);                   \
        },                                                                                        \
        [&](auto simt_tag) -> decltype(::simt::detail::unique_kernel(__VA_ARGS__, simt_tag)) {    \
            return ::simt::detail::unique_kernel(__VA_ARGS__, simt_tag);                          \
        },                                                                                        \
        #__VA_ARGS__                                                                              \
    }
