/**
 * @file
 * @brief Ce que chaque étape de l'échelle GEMM fournit au lanceur, aux tests et au benchmark
 *        communs (un nom, une granularité de forme, une vérification et un lancement), et
 *        l'adaptateur qui le tire de ce que l'étape déclare.
 */
#pragma once

#include "gemm.hpp"

#include <cuda_runtime.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace noyaux::gemm {

/**
 * @brief Une étape de l'échelle :
 * - `name` : nom affiché ;
 * - `granularity` : M, N et K doivent en être des multiples ({1, 1, 1} : toute forme) ;
 * - `entry()` : le noyau, pour vérifier qu'il a du code pour le GPU présent ;
 * - `launch(args, stream)` : vérifie la forme (UnsupportedShapeError) puis lance, sans attendre.
 */
template <typename Kernel>
concept GemmKernel = requires(const GemmArgs& args, cudaStream_t stream) {
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

/**
 * @brief Refuse A, B ou C s'ils ne commencent pas à une adresse multiple de @p alignment
 *        octets. cudaMalloc aligne bien plus ; seul un pointeur pris au milieu d'un tampon échoue.
 */
inline void check_alignment(const GemmArgs& args, std::size_t alignment, const char* kernel) {
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
template <typename Step>
struct GemmStep {
    static constexpr Shape granularity{1, 1, 1};             ///< par défaut, toute forme
    static constexpr std::size_t alignment = sizeof(float);  ///< par défaut, accès de 32 bits

    /** @brief Le noyau, pour vérifier qu'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(Step::kernel); }

    /** @brief Vérifie la forme, la taille de ses indices et l'alignement, puis lance sans attendre. */
    static void launch(const GemmArgs& args, cudaStream_t stream) {
        check_shape<Step>(args.shape);
        require_32bit_indices(args.shape, Step::name);
        if constexpr (Step::alignment > sizeof(float)) check_alignment(args, Step::alignment, Step::name);
        const LaunchGeometry geometry = Step::geometry(args.shape);
        const auto [m, n, k] = args.shape;
        Step::kernel<<<geometry.grid, geometry.block, 0, stream>>>(m, n, k, args.alpha, args.a,
                                                                    args.b, args.beta, args.c);
    }
};

/**
 * @brief Une étape tuilée : un bloc de `Config::threads` threads par tuile
 *        `block_m`×`block_n` de C ; M, N et K multiples des tuiles, donc aucun bord à garder.
 * @tparam Alignment 16 pour les étapes qui lisent et écrivent par float4
 */
template <typename Step, typename TileConfig, std::size_t Alignment = sizeof(float)>
struct TiledStep : GemmStep<Step> {
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
