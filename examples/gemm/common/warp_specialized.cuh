/**
 * @file
 * @brief Le noyau GEMM à warps spécialisés des étapes 15 et 16 (sm_90a), paramétré par sa
 *        configuration : un groupe de warps producteur, dont un seul thread émet les copies TMA,
 *        et un ou plusieurs groupes consommateurs qui multiplient par wgmma. Ils se parlent par
 *        deux mbarrier par étage : « plein » (les octets de la TMA sont arrivés) et « vide » (les
 *        consommateurs ont fini de lire). setmaxnreg retire des registres au producteur, qui n'en
 *        a presque pas besoin, pour les donner aux consommateurs, qui tiennent les accumulateurs.
 *        Les étapes 15 et 16 donnent une tuile de C à chaque bloc. L'étape 18 le rend
 *        persistant (une grille à la taille du GPU, les tuiles parcourues dans un ordre de
 *        common/tile_scheduler.hpp) et le lance en clusters de blocs voisins en M, qui
 *        partagent la tuile de B : chaque bloc en charge une part et la diffuse (TMA multicast)
 *        à tout le cluster.
 */
#pragma once

#include "gemm/common/fragment_epilogue.cuh"
#include "gemm/common/hopper.cuh"
#include "gemm/common/kernel.cuh"
#include "gemm/common/tile_order_table.cuh"
#include "gemm/common/tile_scheduler.hpp"
#include "gemm/common/tma_host.cuh"
#include "gemm/common/wgmma_descriptor.hpp"

#include <cuda.h>
#include <cuda_bf16.h>

#include <cstddef>
#include <cstdint>
#include <tuple>

namespace noyaux::gemm {

/**
 * @brief Les tailles communes aux noyaux à warps spécialisés, déduites de @p BlockM, @p BlockN,
 *        @p Consumers (groupes de warps consommateurs) et @p Stages. Chaque consommateur prend
 *        BlockM / Consumers lignes de la tuile de C, par wgmma de 64 lignes et de BlockN colonnes.
 *        @p Cluster blocs voisins en M forment un cluster, qui partage la tuile de B. L'ordre des
 *        tuiles (`order`, en lignes par défaut) ne compte que pour une grille persistante.
 */
template <int BlockM, int BlockN, int Consumers, int Stages, int ProducerRegisters, int ConsumerRegisters,
          int Cluster = 1>
struct WarpSpecializedShape {
    static constexpr int block_m = BlockM;        ///< lignes de C par bloc
    static constexpr int block_n = BlockN;        ///< colonnes de C par bloc : le N du wgmma
    static constexpr int block_k = 64;            ///< profondeur d'un étage : une ligne de 128 octets
    static constexpr int stages = Stages;         ///< étages du pipeline
    static constexpr int consumers = Consumers;   ///< groupes de warps consommateurs
    static constexpr int threads = 128 * (1 + Consumers);  ///< le producteur, puis les consommateurs
    static constexpr int producer_registers = ProducerRegisters;  ///< setmaxnreg.dec du producteur
    static constexpr int consumer_registers = ConsumerRegisters;  ///< setmaxnreg.inc des consommateurs
    static constexpr int wgmma_m = 64;            ///< lignes d'un wgmma
    static constexpr int wgmma_k = 16;            ///< profondeur d'un wgmma bf16
    static constexpr int consumer_rows = BlockM / Consumers;     ///< lignes de C d'un consommateur
    static constexpr int m_tiles = consumer_rows / wgmma_m;      ///< wgmma empilés en M par consommateur
    static constexpr int accumulators = BlockN / 2;              ///< registres fp32 d'un wgmma par thread
    static constexpr int cluster = Cluster;       ///< blocs voisins en M qui partagent la tuile de B
    static constexpr int cluster_m = block_m * cluster;          ///< lignes de C d'un cluster
    static constexpr schedule::Order order = schedule::Order::row_major;  ///< ordre des tuiles
    static constexpr int group = 8;               ///< ordre groupé : lignes de tuiles par bande
    static constexpr int box_cols = 64;           ///< colonnes d'une boîte TMA de B : 128 octets
    static constexpr int b_boxes = block_n / box_cols;            ///< boîtes de B par étage
    static constexpr int b_boxes_per_block = b_boxes / cluster;   ///< boîtes de B que charge chaque bloc
    static constexpr int a_bytes = block_m * block_k * 2;        ///< tuile de A : une boîte BlockM × 64
    static constexpr int b_box_bytes = block_k * box_cols * 2;   ///< une boîte de B : 64 × 64
    static constexpr int b_bytes = block_k * block_n * 2;        ///< tuile de B : BlockN / 64 boîtes
    static constexpr int stage_bytes = a_bytes + b_bytes;        ///< octets qu'attend le mbarrier « plein »
    /** @brief Mémoire partagée dynamique : les étages, plus de quoi aligner le début sur 1 024 octets. */
    static constexpr std::size_t shared_bytes = std::size_t(stages) * stage_bytes + 1024;

    static_assert(consumer_rows % wgmma_m == 0, "chaque consommateur prend des multiples de 64 lignes");
    static_assert(block_n == 128 || block_n == 256, "wgmma m64n128k16 ou m64n256k16");
    static_assert(a_bytes % 1024 == 0 && b_box_bytes % 1024 == 0, "boîtes alignées sur un atome de 1 024 octets");
    static_assert(cluster >= 1 && cluster <= 8, "cluster portable : au plus 8 blocs");
    static_assert(b_boxes % cluster == 0, "chaque bloc du cluster charge autant de boîtes de B");
    /**
     * @brief Registres par thread que ptxas peut donner au plus à l'entrée du noyau, avec
     *        `__launch_bounds__(threads, 1)` : 65 536 / threads arrondi à 8 vers le bas, 255 au
     *        plus (168 à 384 threads). ptxas en donne parfois moins : 232 à l'étape 15 (256
     *        threads), le plus grand setmaxnreg du noyau (cuobjdump -res-usage).
     */
    static constexpr int entry_registers = 65536 / threads / 8 * 8 < 255 ? 65536 / threads / 8 * 8 : 255;
    /** @brief La réserve du bloc : ce qu'il reçoit au lancement, et que setmaxnreg ne fait que redistribuer. */
    static constexpr int block_registers = threads * entry_registers;
    // Au-delà de la réserve, setmaxnreg.inc attendrait pour toujours des registres qu'aucun groupe
    // ne rend : 128 × (40 + 2 × 232) = 64 512 aux étapes 16 et 18, toute la réserve de 384 × 168,
    // alors que le SM en a 65 536. À l'étape 15, ptxas donne moins que entry_registers (232, le
    // plus grand setmaxnreg), et la somme y tient d'elle-même ; aux étapes 16 et 18, le test sass
    // exige exactement les 168 que suppose cette borne (registres==168).
    static_assert(producer_registers <= consumer_registers, "setmaxnreg : le producteur en prend moins");
    static_assert(128 * (producer_registers + consumers * consumer_registers) <= block_registers,
                  "setmaxnreg : la somme des registres dépasse la réserve du bloc (threads × registres à l'entrée)");
};


#if NOYAUX_HAS_WGMMA
/** @brief Un wgmma de 64 lignes et de C::block_n colonnes (128 ou 256), B N-majeur. */
template <class C>
__device__ __forceinline__ void wgmma_block_n(float (&acc)[C::accumulators], std::uint64_t desc_a,
                                              std::uint64_t desc_b) {
    if constexpr (C::block_n == 128)
        hopper::wgmma_m64n128k16<1>(acc, desc_a, desc_b, 1);
    else
        hopper::wgmma_m64n256k16<1>(acc, desc_a, desc_b, 1);
}
#endif

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C, A (M×K) et B (K×N) en bf16 décrites par @p map_a et @p map_b, C
 *        (M×N) en fp32, tout en ligne. M multiple de C::cluster_m, N de C::block_n, K de 64.
 *
 * Groupe de warps 0 : le producteur. Son thread 0 attend qu'un étage soit « vide », y annonce
 * les octets attendus sur le mbarrier « plein » et lance les copies TMA. Groupes 1 et suivants :
 * les consommateurs. Chacun attend l'étage « plein », lance ses wgmma, et signale « vide » dès
 * que les wgmma de l'étage précédent sont terminés. Il n'y a plus de __syncthreads dans la
 * boucle : producteur et consommateurs n'attendent que les barrières de l'étage qui les concerne.
 * `__launch_bounds__(threads, 1)` donne à ptxas le nombre exact de registres à l'entrée, sans
 * quoi il ignore setmaxnreg (note C7508).
 *
 * Les tuiles : le cluster c de la grille prend les tuiles de rang c, c + (clusters de la
 * grille)… de l'ordre C::order (pour Hilbert, lu dans @p order_table). Aux étapes 15 et 16, la
 * grille a un bloc par tuile : la boucle ne fait qu'un tour. À l'étape 18, persistante, elle en
 * fait plusieurs ; le compteur `iteration` des étapes de K continue d'une tuile à l'autre, si
 * bien que l'étage et la parité de chaque mbarrier restent justes sans réinitialisation, et le
 * producteur charge déjà la tuile suivante pendant que les consommateurs écrivent la leur.
 *
 * Avec C::cluster > 1 (étape 18), les C::cluster blocs d'un cluster sont voisins en M : même
 * tuile de B. Le producteur de chacun n'en charge qu'une part (C::b_boxes_per_block boîtes),
 * diffusée à tout le cluster ; chaque « plein » attend donc des octets venus de tous les blocs,
 * et chaque « vide » les arrivées des consommateurs de tous les blocs, car une recharge écrit
 * chez tous.
 */
template <class C>
__global__ void __launch_bounds__(C::threads, 1)
    gemm_warp_specialized_bf16(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                               int m, int n, int k, float alpha, float beta, float* __restrict__ c,
                               const schedule::Tile* __restrict__ order_table) {
#if NOYAUX_HAS_WGMMA
    using namespace hopper;
    extern __shared__ unsigned char shared_raw[];
    __shared__ std::uint64_t full[C::stages];   // « les octets de l'étage sont arrivés »
    __shared__ std::uint64_t empty[C::stages];  // « les consommateurs ont fini de le lire »
    unsigned char* const tiles = shared_raw + (1024 - shared_address(shared_raw) % 1024) % 1024;
    const auto a_tile = [&](int s) { return tiles + s * C::stage_bytes; };
    const auto b_tile = [&](int s) { return tiles + s * C::stage_bytes + C::a_bytes; };

    const int steps = k / C::block_k;
    const int warpgroup = int(threadIdx.x) / 128;
    const int rank = C::cluster > 1 ? int(cluster_rank()) : 0;  // place du bloc dans son cluster, en M
    // --8<-- [start:tuiles]
    schedule::TileCursor<C::order> cursor(m / C::cluster_m, n / C::block_n, C::group, int(blockIdx.x) / C::cluster,
                                          int(gridDim.x) / C::cluster, order_table);
    // La première ligne de C du bloc dans une tuile du cluster.
    const auto first_row = [rank](schedule::Tile tile) { return tile.m * C::cluster_m + rank * C::block_m; };
    // --8<-- [end:tuiles]
    if (threadIdx.x == 0) {
        for (int s = 0; s < C::stages; ++s) {
            mbarrier_init(&full[s], 1);                    // l'arrivée du producteur
            mbarrier_init(&empty[s], 4 * C::consumers * C::cluster);  // une par warp consommateur du cluster
        }
        fence_mbarrier_init();
        fence_proxy_async();  // et visibles de la TMA, qui passe par le proxy asynchrone
    }
    // --8<-- [start:cluster-debut]
    if constexpr (C::cluster > 1)
        cluster_sync();  // les mbarrier de tous les blocs sont prêts avant la première diffusion
    else
        __syncthreads();  // la seule barrière du bloc : les mbarrier sont prêts
    // --8<-- [end:cluster-debut]

    if (warpgroup == 0) {
        // --8<-- [start:producteur]
        setmaxnreg_dec<C::producer_registers>();  // tout le groupe de warps, puis un seul thread travaille
        if (threadIdx.x == 0) {
            int iteration = 0;  // étapes de K chargées par ce bloc, toutes tuiles confondues
            for (schedule::Tile tile; cursor.next(tile);) {
                const int m0 = first_row(tile), n0 = tile.n * C::block_n;
                for (int step = 0; step < steps; ++step, ++iteration) {
                    const int s = iteration % C::stages, round = iteration / C::stages;
                    // Au tour r ≥ 1, l'étage doit avoir été vidé r fois : phase r − 1 de « vide ».
                    if (round > 0) mbarrier_wait(&empty[s], (round - 1) % 2);
                    mbarrier_arrive_expect_tx(&full[s], C::stage_bytes);
                    tma_load_2d(a_tile(s), &map_a, &full[s], step * C::block_k, m0);
                    // --8<-- [start:diffusion]
                    if constexpr (C::cluster > 1) {
                        // Mes boîtes de B, écrites au même endroit chez tous les blocs du cluster.
                        for (int box = rank * C::b_boxes_per_block; box < (rank + 1) * C::b_boxes_per_block; ++box)
                            tma_load_2d_multicast(b_tile(s) + box * C::b_box_bytes, &map_b, &full[s],
                                                  n0 + box * C::box_cols, step * C::block_k,
                                                  std::uint16_t((1u << C::cluster) - 1));
                    } else {
                        for (int box = 0; box < C::b_boxes; ++box)
                            tma_load_2d(b_tile(s) + box * C::b_box_bytes, &map_b, &full[s], n0 + box * C::box_cols,
                                        step * C::block_k);
                    }
                    // --8<-- [end:diffusion]
                }
            }
        }
        // --8<-- [end:producteur]
        if constexpr (C::cluster > 1) {
            __syncwarp();    // barrier.cluster est .aligned : le warp 0 s'y présente réuni
            cluster_sync();  // la barrière finale attend tous les threads, producteur compris
        }
        return;
    }

    // --8<-- [start:consommateur]
    setmaxnreg_inc<C::consumer_registers>();
    const int consumer = warpgroup - 1;
    const int lane = int(threadIdx.x) % 32;
    // --8<-- [start:rendu]
    // L'étage de l'étape i est rendu au producteur ; avec un cluster, à celui de chaque bloc, car
    // sa recharge écrit chez tous.
    const auto release = [&](int i) {
        if (lane != 0) return;
        if constexpr (C::cluster > 1) {
            for (int block = 0; block < C::cluster; ++block)
                mbarrier_arrive_cluster(&empty[i % C::stages], std::uint32_t(block));
        } else {
            mbarrier_arrive(&empty[i % C::stages]);
        }
    };
    // --8<-- [end:rendu]
    int iteration = 0;  // étapes de K consommées par ce bloc, toutes tuiles confondues
    for (schedule::Tile tile; cursor.next(tile);) {
        float acc[C::m_tiles][C::accumulators] = {};
        for (int step = 0; step < steps; ++step, ++iteration) {
            const int s = iteration % C::stages;
            mbarrier_wait(&full[s], (iteration / C::stages) % 2);
            wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < C::block_k / C::wgmma_k; ++kk) {
                const std::uint64_t desc_b = wgmma::mn_major_128b(
                    shared_address(b_tile(s)) + wgmma::mn_major_step_offset(kk), C::b_box_bytes);
#pragma unroll
                for (int mt = 0; mt < C::m_tiles; ++mt) {
                    const int row = consumer * C::consumer_rows + mt * C::wgmma_m;
                    const std::uint64_t desc_a =
                        wgmma::k_major_128b(shared_address(a_tile(s)) + row * 128 + wgmma::k_major_step_offset(kk));
                    wgmma_block_n<C>(acc[mt], desc_a, desc_b);
                }
            }
            wgmma_commit_group();
            // Les wgmma de l'étage précédent sont finis pour ce warp : il le rend au producteur.
            wgmma_wait_group<1>();
            if (step > 0) release(iteration - 1);
        }
        wgmma_wait_group<0>();
        release(iteration - 1);  // le dernier étage de la tuile : le producteur y charge la suivante

        // Épilogue, comme à l'étape 14 : chaque sous-tuile de 64 lignes est la sortie d'un wgmma.
#pragma unroll
        for (int mt = 0; mt < C::m_tiles; ++mt)
            store_wgmma_tile(acc[mt], c, n, first_row(tile) + consumer * C::consumer_rows + mt * C::wgmma_m,
                             tile.n * C::block_n, alpha, beta);
    }
    // --8<-- [end:consommateur]
    // Aucun bloc ne quitte tant qu'un voisin peut encore écrire dans sa mémoire partagée.
    if constexpr (C::cluster > 1) cluster_sync();
#else
    __trap();  // wgmma et setmaxnreg n'existent que pour sm_90a : le programme refuse ce GPU
#endif
}
// --8<-- [end:noyau]

/**
 * @brief Un noyau à warps spécialisés de configuration @p Config pour le lanceur, les tests et
 *        le benchmark communs ; @p Step est la structure de l'étape (nom affiché). La grille a
 *        un bloc par tuile de C ; une étape persistante déclare la sienne (`geometry`).
 */
template <class Step, class Config>
struct WarpSpecializedStep : TiledStep<Step, Config, 16, bf16> {
    static constexpr auto kernel = gemm_warp_specialized_bf16<Config>;  ///< le noyau lancé
    /** @brief Un cluster de Config::cluster blocs voisins en M : M multiple de cluster × block_m. */
    static constexpr Shape granularity{Config::cluster_m, Config::block_n, Config::block_k};
    static constexpr int cluster_size = Config::cluster;                 ///< blocs par cluster (en x)
    static constexpr std::size_t shared_bytes = Config::shared_bytes;   ///< au-delà de 48 Kio : demandée au runtime
    static constexpr int minimum_architecture = 90;                     ///< wgmma et setmaxnreg : sm_90a
    static constexpr const char* architecture_feature = "wgmma, setmaxnreg et la TMA";  ///< pour le refus

    /** @brief Les tuiles de C, une par cluster : (M / cluster_m) × (N / block_n). */
    static constexpr int tile_count(const Shape& shape) {
        return (shape.m / Config::cluster_m) * (shape.n / Config::block_n);
    }

    /** @brief Un cluster par tuile, en une dimension : le cluster c prend la tuile de rang c. */
    static LaunchGeometry geometry(const Shape& shape) {
        return {dim3(unsigned(tile_count(shape) * Config::cluster)), dim3(Config::threads)};
    }

    /**
     * @brief Les arguments du noyau : les tensor maps de A (boîte block_m × 64) et de B (boîte
     *        64 × 64), la forme, C et la table de l'ordre des tuiles (Hilbert seulement).
     */
    static auto kernel_arguments(const GemmArgsOf<bf16>& args) {
        const auto [m, n, k] = args.shape;
        const auto address = [](const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); };
        const auto map = [](std::uint64_t rows, std::uint64_t cols, std::uint32_t box_rows, std::uint32_t box_cols,
                            std::uintptr_t base) {
            return tma::encode_cached(
                tma::operand_map(rows, cols, cols, 2, box_rows, box_cols, tma::Swizzle::bytes128, base));
        };
        const CUtensorMap map_a = map(m, k, Config::block_m, Config::block_k, address(args.a));   // A : M × K
        const CUtensorMap map_b = map(k, n, Config::block_k, Config::box_cols, address(args.b));  // B : K × N
        const schedule::Tile* table =
            schedule::device_order_table<Config::order>(m / Config::cluster_m, n / Config::block_n);
        return std::make_tuple(map_a, map_b, m, n, k, args.alpha, args.beta, args.c, table);
    }
};

}  // namespace noyaux::gemm
