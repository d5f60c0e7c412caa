/**
 * @file
 * @brief Ce que chaque étape de l'échelle GEMM fournit au lanceur, aux tests et au benchmark
 *        communs (un nom, une granularité de forme, une vérification et un lancement), et
 *        l'adaptateur qui le tire de ce que l'étape déclare.
 */
#pragma once

#include "gemm.hpp"

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>

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

// --8<-- [start:adaptateur]
/**
 * @brief L'adaptateur commun à toutes les étapes (patron CRTP : `struct MonEtape :
 *        GemmStep<MonEtape>`). L'étape déclare `name`, `kernel` et `geometry(shape)`, et, si
 *        elle s'en écarte, `granularity` et `alignment` ; l'adaptateur en tire ce qu'attend
 *        le concept GemmKernel.
 */
template <typename Step, typename InputType = float>
struct GemmStep {
    using Input = InputType;                                 ///< éléments de A et de B
    static constexpr Shape granularity{1, 1, 1};             ///< par défaut, toute forme
    static constexpr std::size_t alignment = sizeof(Input);  ///< par défaut, un élément à la fois

    /** @brief Le noyau, pour vérifier qu'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(Step::kernel); }

    /** @brief Vérifie la forme, la taille de ses indices et l'alignement, puis lance sans attendre. */
    static void launch(const GemmArgsOf<Input>& args, cudaStream_t stream) {
        check_shape<Step>(args.shape);
        require_32bit_indices(args.shape, Step::name);
        if constexpr (Step::alignment > sizeof(Input)) check_alignment(args, Step::alignment, Step::name);
        const LaunchGeometry geometry = Step::geometry(args.shape);
        const auto [m, n, k] = args.shape;
        Step::kernel<<<geometry.grid, geometry.block, 0, stream>>>(
            m, n, k, args.alpha, device_pointer(args.a), device_pointer(args.b), args.beta, args.c);
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
