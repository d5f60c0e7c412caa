/**
 * @file
 * @brief Étape 17 de l'échelle GEMM : le noyau TMA + wgmma de l'étape 14 devenu persistant. La
 *        grille n'a plus un bloc par tuile de C mais au plus autant de blocs que le GPU en garde
 *        résidents (SM × blocs par SM) ; chacun parcourt ses tuiles selon un ordre
 *        (common/tile_scheduler.hpp : en lignes, groupé, Hilbert), paramètre de l'étape, et
 *        charge les premières étapes de la tuile suivante pendant qu'il écrit la précédente.
 */
#pragma once

#include "gemm/common/kernel.cuh"
#include "gemm/common/tile_order_table.cuh"
#include "gemm/common/tile_scheduler.hpp"
#include "gemm/common/tma_wgmma.cuh"

#include "common/cuda_check.cuh"

#include <cuda.h>

#include <algorithm>
#include <cstddef>
#include <tuple>

namespace noyaux::gemm {

/** @brief Les tailles de l'étape 17 : celles de l'étape 14, plus la hauteur des bandes de l'ordre groupé. */
struct PersistentConfig : TmaWgmmaConfig {
    static constexpr int group = 8;  ///< ordre groupé : lignes de tuiles par bande
};

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C comme l'étape 14 (M et N multiples de 128, K multiple de 64), par des
 *        blocs persistants : le bloc b calcule les tuiles de rang b, b + gridDim.x… de l'ordre
 *        @p order (pour Hilbert, lu dans @p order_table). Les mbarrier sont initialisés une
 *        fois ; le compteur d'étapes du pipeline continue d'une tuile à l'autre.
 */
template <schedule::Order order>
__global__ void __launch_bounds__(PersistentConfig::threads)
    gemm_persistent_bf16(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                         int m, int n, int k, float alpha, float beta, float* __restrict__ c,
                         const schedule::Tile* __restrict__ order_table) {
#if NOYAUX_HAS_WGMMA
    using C = PersistentConfig;
    using namespace tma_wgmma;
    extern __shared__ unsigned char shared_raw[];
    __shared__ std::uint64_t full[C::stages];
    Pipeline pipeline = make_pipeline(shared_raw, full, &map_a, &map_b);
    const int steps = k / C::block_k;
    schedule::TileCursor<order> cursor(m / C::block_m, n / C::block_n, C::group, int(blockIdx.x), int(gridDim.x),
                                       order_table);
    schedule::Tile tile;
    bool more = cursor.next(tile);  // la grille n'a pas plus de blocs que de tuiles
    if (threadIdx.x == 0) {
        init_barriers(pipeline);
        if (more) load_prologue(pipeline, tile.m * C::block_m, tile.n * C::block_n, steps);
    }
    __syncthreads();  // les mbarrier sont initialisés avant que quiconque les attende

    while (more) {
        const int m0 = tile.m * C::block_m, n0 = tile.n * C::block_n;
        Accumulator acc;
        compute_tile(pipeline, m0, n0, steps, acc);
        __syncthreads();  // les wgmma des quatre warps ont fini de lire les étages
        // La TMA remplit les étages pour la tuile suivante pendant que le warpgroup écrit
        // celle-ci : l'épilogue ne laisse plus les Tensor Cores sans travail prêt.
        more = cursor.next(tile);
        if (threadIdx.x == 0 && more) load_prologue(pipeline, tile.m * C::block_m, tile.n * C::block_n, steps);
        store_tile(acc, m0, n0, n, alpha, beta, c);
    }
#else
    __trap();  // wgmma n'existe que pour sm_90a : le programme refuse ce GPU avant tout lancement
#endif
}
// --8<-- [end:noyau]

/** @brief Le nom affiché de chaque ordre, celui des tests et du benchmark. */
template <schedule::Order order>
constexpr const char* persistent_name() {
    if constexpr (order == schedule::Order::row_major)
        return "gemm_persistent_row_major_bf16";
    else if constexpr (order == schedule::Order::grouped)
        return "gemm_persistent_grouped_bf16";
    else
        return "gemm_persistent_hilbert_bf16";
}

// --8<-- [start:lancement]
/**
 * @brief L'étape 17 pour le lanceur, les tests et le benchmark communs, pour un ordre de tuiles.
 *        La grille : autant de blocs que le GPU en garde résidents à la fois (nombre de SM ×
 *        blocs par SM, que donne le calculateur d'occupation pour 97 Kio de mémoire partagée),
 *        sans dépasser le nombre de tuiles. Une seule vague : aucun bloc n'attend qu'un autre
 *        finisse pour démarrer, et la fin de la dernière vague de l'étape 14 disparaît.
 */
template <schedule::Order order>
struct PersistentKernel : TmaWgmmaStep<PersistentKernel<order>, PersistentConfig> {
    static constexpr const char* name = persistent_name<order>();  ///< nom affiché
    static constexpr auto kernel = gemm_persistent_bf16<order>;    ///< le noyau lancé

    /** @brief Une grille à une dimension : min(tuiles, blocs résidents). */
    static LaunchGeometry geometry(const Shape& shape) {
        const int tiles = (shape.m / PersistentConfig::block_m) * (shape.n / PersistentConfig::block_n);
        return {dim3(unsigned(std::min(tiles, PersistentKernel::resident_blocks()))), dim3(PersistentConfig::threads)};
    }

    /** @brief Les arguments du noyau : les tensor maps de A et de B, la forme, C, la table de l'ordre. */
    static auto kernel_arguments(const GemmArgsOf<bf16>& args) {
        const auto [map_a, map_b] = tma_wgmma::operand_maps(args);
        const schedule::Tile* table = schedule::device_order_table<order>(
            args.shape.m / PersistentConfig::block_m, args.shape.n / PersistentConfig::block_n);
        return std::make_tuple(map_a, map_b, args.shape.m, args.shape.n, args.shape.k, args.alpha, args.beta, args.c,
                               table);
    }
};
// --8<-- [end:lancement]

using PersistentRowMajorKernel = PersistentKernel<schedule::Order::row_major>;  ///< ordre en lignes
using PersistentGroupedKernel = PersistentKernel<schedule::Order::grouped>;     ///< bandes de 8 lignes de tuiles
using PersistentHilbertKernel = PersistentKernel<schedule::Order::hilbert>;     ///< courbe de Hilbert

}  // namespace noyaux::gemm
