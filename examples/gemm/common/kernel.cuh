/**
 * @file
 * @brief Ce que chaque étape de l'échelle GEMM fournit au lanceur, aux tests et au benchmark
 *        communs (un nom, une granularité de forme, une vérification et un lancement), et
 *        l'adaptateur qui le tire de ce que l'étape déclare.
 */
#pragma once

#include "gemm.hpp"

#include "common/cuda_check.cuh"
#include "common/device.cuh"

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <tuple>

namespace noyaux::gemm {

/** @brief Type d'entrée d'une étape : `Kernel::Input` s'il est déclaré, fp32 sinon. */
template <typename Kernel>
struct InputOf {
    using type = float;  ///< les étapes SIMT (1 à 11)
};
/** @brief Une étape qui déclare son type d'entrée (bf16 pour les Tensor Cores). */
template <typename Kernel>
    requires requires { typename Kernel::Input; }
struct InputOf<Kernel> {
    using type = typename Kernel::Input;  ///< le type déclaré
};
/** @brief Type des éléments de A et de B que lit l'étape @p Kernel. */
template <typename Kernel>
using input_of = typename InputOf<Kernel>::type;

/**
 * @brief Une étape de l'échelle :
 * - `name` : nom affiché ;
 * - `granularity` : M, N et K doivent en être des multiples ({1, 1, 1} : toute forme) ;
 * - `entry()` : le noyau, pour vérifier qu'il a du code pour le GPU présent ;
 * - `launch(args, stream)` : vérifie la forme (UnsupportedShapeError) puis lance, sans attendre ;
 * - `Input` (facultatif) : type des éléments de A et de B, fp32 par défaut.
 */
template <typename Kernel>
concept GemmKernel = requires(const GemmArgsOf<input_of<Kernel>>& args, cudaStream_t stream) {
    { Kernel::name } -> std::convertible_to<const char*>;
    { Kernel::granularity } -> std::convertible_to<Shape>;
    { Kernel::entry() } -> std::convertible_to<const void*>;
    Kernel::launch(args, stream);
};

/** @brief Vrai si @p shape respecte la granularité du noyau. */
template <GemmKernel Kernel>
bool accepts(const Shape& shape) {
    constexpr Shape g = Kernel::granularity;
    return shape.m > 0 && shape.n > 0 && shape.k > 0 && shape.m % g.m == 0 && shape.n % g.n == 0 &&
           shape.k % g.k == 0;
}

/** @brief Refuse, avec un message en français, une forme que le noyau ne traite pas. */
template <GemmKernel Kernel>
void check_shape(const Shape& shape) {
    constexpr Shape g = Kernel::granularity;
    require_multiples(shape, g.m, g.n, g.k, Kernel::name);
}

/** @brief Le pointeur de float tel que le noyau le reçoit. */
inline const float* device_pointer(const float* pointer) { return pointer; }
/** @brief Le pointeur de bf16 de l'hôte, vu comme le type CUDA de même disposition. */
inline const __nv_bfloat16* device_pointer(const bf16* pointer) {
    return reinterpret_cast<const __nv_bfloat16*>(pointer);
}

/**
 * @brief Refuse A, B ou C s'ils ne commencent pas à une adresse multiple de @p alignment
 *        octets. cudaMalloc aligne bien plus ; seul un pointeur pris au milieu d'un tampon échoue.
 */
template <typename Input>
void check_alignment(const GemmArgsOf<Input>& args, std::size_t alignment, const char* kernel) {
    for (const void* pointer : {static_cast<const void*>(args.a), static_cast<const void*>(args.b),
                                static_cast<const void*>(args.c)})
        if (reinterpret_cast<std::uintptr_t>(pointer) % alignment != 0)
            throw std::invalid_argument(std::string(kernel) +
                                        " : A, B et C doivent commencer à une adresse multiple de " +
                                        std::to_string(alignment) + " octets (accès de " +
                                        std::to_string(8 * alignment) + " bits)");
}

/**
 * @brief Tailles d'un tuilage de bloc : chaque bloc calcule une tuile BM×BN de C en avançant
 *        dans K par tranches de BK ; chacun de ses threads, un carré TM×TN de cette tuile.
 */
template <int BM, int BN, int BK, int TM, int TN>
struct BlockTiling {
    static constexpr int block_m = BM;   ///< lignes de C par bloc
    static constexpr int block_n = BN;   ///< colonnes de C par bloc
    static constexpr int block_k = BK;   ///< profondeur d'une tranche de A et de B
    static constexpr int thread_m = TM;  ///< lignes de C par thread
    static constexpr int thread_n = TN;  ///< colonnes de C par thread
    /** @brief Threads par bloc : un par carré TM×TN de la tuile de C. */
    static constexpr int threads = (BM / TM) * (BN / TN);
};

/** @brief Grille et bloc d'un lancement. */
struct LaunchGeometry {
    dim3 grid;   ///< blocs
    dim3 block;  ///< threads par bloc
};

/**
 * @brief Architecture minimale d'une étape (ex. 90 pour la TMA et wgmma) : celle qu'elle
 *        déclare par `minimum_architecture`, 0 sinon (toute architecture de la compilation).
 */
template <typename Kernel>
constexpr int minimum_architecture_of() {
    if constexpr (requires { Kernel::minimum_architecture; })
        return Kernel::minimum_architecture;
    else
        return 0;
}

/**
 * @brief Refuse, en français, une étape dont le code retenu pour le GPU présent vient d'une
 *        architecture plus ancienne que son minimum (une étape de Hopper compilée pour sm_80 n'y
 *        est qu'un piège). Sous simt, qui exécute le PTX de toute architecture, rien n'est refusé.
 * @throws UnsupportedArchitectureError
 */
template <GemmKernel Kernel>
void require_architecture() {
#ifndef SIMT_EMULATOR
    if constexpr (minimum_architecture_of<Kernel>() > 0)
        require_kernel_architecture(Kernel::entry(), Kernel::name, minimum_architecture_of<Kernel>(),
                                    Kernel::architecture_feature);
#endif
}

/** @brief Pourquoi l'étape ne peut pas s'exécuter sur le GPU présent ; vide si elle le peut. */
template <GemmKernel Kernel>
std::string unavailable_reason() {
    try {
        require_architecture<Kernel>();
    } catch (const UnsupportedArchitectureError& error) {
        return error.what();
    }
    return {};
}

/** @brief Au-delà de 48 Kio de mémoire partagée dynamique, un noyau doit en demander la permission. */
constexpr std::size_t kDefaultDynamicSharedLimit = 48 * 1024;

/**
 * @brief Autorise @p kernel à recevoir @p bytes octets de mémoire partagée dynamique
 *        (cudaFuncSetAttribute), une fois par programme : l'appel coûte du temps d'hôte, que
 *        le benchmark verrait entre ses événements.
 */
template <auto Kernel, std::size_t Bytes>
void allow_dynamic_shared() {
    if constexpr (Bytes > kDefaultDynamicSharedLimit) {
        static const bool allowed = [] {
            NOYAUX_CUDA_CHECK(cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(Bytes)));
            return true;
        }();
        (void)allowed;
    }
}

/** @brief L'attribut de lancement d'un cluster de @p blocks blocs voisins en x. */
inline cudaLaunchAttribute cluster_dimension(unsigned blocks) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = blocks;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    return attribute;
}

// --8<-- [start:adaptateur]
/**
 * @brief L'adaptateur commun à toutes les étapes (patron CRTP : `struct MonEtape :
 *        GemmStep<MonEtape>`). L'étape déclare `name`, `kernel` et `geometry(shape)`, et, si
 *        elle s'en écarte, `granularity` et `alignment` ; l'adaptateur en tire ce qu'attend
 *        le concept GemmKernel. Une étape peut aussi déclarer :
 * - `shared_bytes` : sa mémoire partagée dynamique (au-delà de 48 Kio, demandée au runtime) ;
 * - `kernel_arguments(args)` : un std::tuple des arguments de son noyau (ses tensor maps, par
 *   exemple), qui est alors lancé par cudaLaunchKernelEx au lieu de (m, n, k, α, A, B, β, C) ;
 * - `minimum_architecture` et `architecture_feature` : l'architecture qu'exige son noyau (90)
 *   et ce qui l'exige, pour le message de refus (voir require_architecture) ;
 * - `cluster_size` : des clusters de ce nombre de blocs voisins en x (attribut de lancement) ;
 * - `cooperative` (vrai) : un lancement coopératif, que CUDA refuse
 *   (cudaErrorCooperativeLaunchTooLarge) si toute la grille ne peut pas résider à la fois, au
 *   lieu de laisser un bloc en attendre un autre qui n'a pas démarré (étape 19).
 */
template <typename Step, typename InputType = float>
struct GemmStep {
    using Input = InputType;                                 ///< éléments de A et de B
    static constexpr Shape granularity{1, 1, 1};             ///< par défaut, toute forme
    static constexpr std::size_t alignment = sizeof(Input);  ///< par défaut, un élément à la fois
    static constexpr std::size_t shared_bytes = 0;           ///< par défaut, pas de mémoire partagée dynamique

    /** @brief Le noyau, pour vérifier qu'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(Step::kernel); }

    /** @brief Vérifie la forme, la taille de ses indices et l'alignement, puis lance sans attendre. */
    static void launch(const GemmArgsOf<Input>& args, cudaStream_t stream) {
        check_shape<Step>(args.shape);
        require_32bit_indices(args.shape, Step::name);
        if constexpr (Step::alignment > sizeof(Input)) check_alignment(args, Step::alignment, Step::name);
        const LaunchGeometry geometry = Step::geometry(args.shape);
        allow_dynamic_shared<Step::kernel, Step::shared_bytes>();
        if constexpr (requires { Step::kernel_arguments(args); }) {
            cudaLaunchConfig_t config{};
            config.gridDim = geometry.grid;
            config.blockDim = geometry.block;
            config.dynamicSmemBytes = Step::shared_bytes;
            config.stream = stream;
            cudaLaunchAttribute attributes[2]{};
            unsigned count = 0;
            if constexpr (requires { Step::cluster_size; }) {
                if constexpr (Step::cluster_size > 1) attributes[count++] = cluster_dimension(unsigned(Step::cluster_size));
            }
            if constexpr (requires { Step::cooperative; }) {
                if constexpr (Step::cooperative) {
                    attributes[count].id = cudaLaunchAttributeCooperative;
                    attributes[count++].val.cooperative = 1;
                }
            }
            config.attrs = count > 0 ? attributes : nullptr;
            config.numAttrs = count;
            const auto launch_with = [&](const auto&... arguments) {
                NOYAUX_CUDA_CHECK(cudaLaunchKernelEx(&config, Step::kernel, arguments...));
            };
            std::apply(launch_with, Step::kernel_arguments(args));
        } else {
            const auto [m, n, k] = args.shape;
            Step::kernel<<<geometry.grid, geometry.block, Step::shared_bytes, stream>>>(
                m, n, k, args.alpha, device_pointer(args.a), device_pointer(args.b), args.beta, args.c);
        }
    }
};

/**
 * @brief Une étape tuilée : un bloc de `Config::threads` threads par tuile
 *        `block_m`×`block_n` de C ; M, N et K multiples des tuiles, donc aucun bord à garder.
 * @tparam Alignment 16 pour les étapes qui lisent et écrivent par float4
 * @tparam InputType éléments de A et de B : float, ou bf16 pour les Tensor Cores
 */
template <typename Step, typename TileConfig, std::size_t Alignment = sizeof(float), typename InputType = float>
struct TiledStep : GemmStep<Step, InputType> {
    using Config = TileConfig;  ///< les tailles de tuiles de l'étape
    /** @brief Multiples des tuiles. */
    static constexpr Shape granularity{Config::block_m, Config::block_n, Config::block_k};
    static constexpr std::size_t alignment = Alignment;  ///< alignement exigé de A, B et C

    /** @brief Une grille de tuiles de C : x parcourt les colonnes, y les lignes. */
    static LaunchGeometry geometry(const Shape& shape) {
        return {dim3(shape.n / Config::block_n, shape.m / Config::block_m), dim3(Config::threads)};
    }
};
// --8<-- [end:adaptateur]

}  // namespace noyaux::gemm
