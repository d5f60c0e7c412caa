/**
 * @file
 * @brief Ce que partagent les étapes TMA + wgmma (14, 17 et 19) : les tailles de tuile, le pipeline
 *        d'étages en mémoire partagée (copies TMA attendues sur un mbarrier, wgmma m64n128k16
 *        sur chaque étage), l'écriture d'une tuile de C et l'encodage des tensor maps de A et de B.
 *        Une étape n'y ajoute que l'ordre dans lequel ses blocs prennent les tuiles de C (et,
 *        pour Stream-K, les tranches de K).
 */
#pragma once

#include "gemm/common/fragment_epilogue.cuh"
#include "gemm/common/gemm.hpp"
#include "gemm/common/hopper.cuh"
#include "gemm/common/kernel.cuh"
#include "gemm/common/tma_host.cuh"
#include "gemm/common/wgmma_descriptor.hpp"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace noyaux::gemm {

// --8<-- [start:parametres]
/** @brief Les tailles des étapes TMA + wgmma. */
struct TmaWgmmaConfig {
    static constexpr int block_m = 128;  ///< lignes de C par bloc : deux wgmma de 64 lignes
    static constexpr int block_n = 128;  ///< colonnes de C par bloc : le N du wgmma
    static constexpr int block_k = 64;   ///< profondeur d'un étage : 64 bf16, une ligne de 128 octets
    static constexpr int stages = 3;     ///< étages du pipeline : tuiles en vol pendant le calcul
    static constexpr int threads = 128;  ///< un warpgroup : quatre warps
    static constexpr int wgmma_m = 64;   ///< lignes d'un wgmma
    static constexpr int wgmma_k = 16;   ///< profondeur d'un wgmma bf16
    static constexpr int box_cols = 64;  ///< colonnes d'une boîte TMA : 128 octets, la largeur de la permutation
    static constexpr int a_bytes = block_m * block_k * 2;       ///< tuile de A : une boîte 128 × 64
    static constexpr int b_box_bytes = block_k * box_cols * 2;  ///< une boîte de B : 64 × 64
    static constexpr int b_bytes = block_k * block_n * 2;       ///< tuile de B : deux boîtes côte à côte en N
    static constexpr int stage_bytes = a_bytes + b_bytes;       ///< octets qu'attend le mbarrier d'un étage
    /** @brief Mémoire partagée dynamique : les étages, plus de quoi aligner le début sur 1 024 octets. */
    static constexpr std::size_t shared_bytes = std::size_t(stages) * stage_bytes + 1024;
};
static_assert(TmaWgmmaConfig::block_k * 2 == 128, "une ligne de tuile = une ligne de la permutation de 128 octets");
static_assert(TmaWgmmaConfig::a_bytes % 1024 == 0 && TmaWgmmaConfig::b_box_bytes % 1024 == 0,
              "chaque boîte commence sur un atome de permutation (1 024 octets)");
static_assert(TmaWgmmaConfig::block_m == 2 * TmaWgmmaConfig::wgmma_m, "deux wgmma de 64 lignes par étage");
// --8<-- [end:parametres]

/**
 * @brief Blocs de @p Kernel résidents à la fois sur le GPU courant (nombre de SM × blocs par
 *        SM que donne le calculateur d'occupation pour @p Threads threads et @p Bytes octets de
 *        mémoire partagée dynamique) : la grille d'un noyau persistant. Calculé une fois par programme.
 */
template <auto Kernel, int Threads, std::size_t Bytes>
int resident_blocks() {
    static const int blocks = [] {
        allow_dynamic_shared<Kernel, Bytes>();  // l'occupation tient compte de cette permission
        int device = 0, multiprocessors = 0, per_multiprocessor = 0;
        NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
        NOYAUX_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
        NOYAUX_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, Kernel, Threads, Bytes));
        return multiprocessors * per_multiprocessor > 1 ? multiprocessors * per_multiprocessor : 1;
    }();
    return blocks;
}

namespace tma_wgmma {

/** @brief L'accumulateur d'une tuile 128×128 : deux moitiés de M, 64 fp32 par thread chacune. */
using Accumulator = float[2][64];

/**
 * @brief Les étages d'un bloc et leurs mbarrier. `steps_done` compte les étapes (pas de K) déjà
 *        consommées par le bloc, toutes tuiles confondues : l'étage d'une étape et la parité de
 *        son mbarrier en dépendent, et un bloc persistant enchaîne ses tuiles sans réinitialiser.
 */
struct Pipeline {
    unsigned char* tiles;       ///< début des étages, aligné sur 1 024 octets
    std::uint64_t* full;        ///< un mbarrier par étage : « ses octets sont arrivés »
    const CUtensorMap* map_a;   ///< A (M×K), boîtes 128 × 64
    const CUtensorMap* map_b;   ///< B (K×N), boîtes 64 × 64
    int steps_done = 0;         ///< étapes consommées par le bloc avant la tuile en cours
};

#if NOYAUX_HAS_WGMMA
// --8<-- [start:pipeline]
/** @brief Les étages dans la mémoire partagée dynamique (alignée ici sur 1 024 octets : la
 *         permutation de 128 octets se lit sur les bits de l'adresse). */
__device__ __forceinline__ Pipeline make_pipeline(unsigned char* shared_raw, std::uint64_t* full,
                                                  const CUtensorMap* map_a, const CUtensorMap* map_b) {
    unsigned char* const tiles = shared_raw + (1024 - hopper::shared_address(shared_raw) % 1024) % 1024;
    return {tiles, full, map_a, map_b, 0};
}

/** @brief Thread 0 seul : un mbarrier par étage, une arrivée attendue (la sienne). */
__device__ __forceinline__ void init_barriers(const Pipeline& p) {
    using C = TmaWgmmaConfig;
    for (int s = 0; s < C::stages; ++s) hopper::mbarrier_init(&p.full[s], 1);
    hopper::fence_mbarrier_init();
    hopper::fence_proxy_async();
}

/** @brief Thread 0 seul : l'étape @p step (de la tuile en cours, de coin m0, n0) vers son étage :
 *         une boîte de A (128 lignes × 64 de K) et deux de B (64 de K × 64 colonnes). Le calcul
 *         commence à la tranche @p first_step de K (0 sauf pour Stream-K, qui coupe K). */
__device__ __forceinline__ void load_step(const Pipeline& p, int m0, int n0, int step, int first_step = 0) {
    using C = TmaWgmmaConfig;
    const int s = (p.steps_done + step) % C::stages;
    unsigned char* const a_tile = p.tiles + s * C::stage_bytes;
    unsigned char* const b_tile = a_tile + C::a_bytes;
    hopper::mbarrier_arrive_expect_tx(&p.full[s], C::stage_bytes);
    const int k0 = (first_step + step) * C::block_k;
    hopper::tma_load_2d(a_tile, p.map_a, &p.full[s], k0, m0);
    for (int box = 0; box < C::block_n / C::box_cols; ++box)
        hopper::tma_load_2d(b_tile + box * C::b_box_bytes, p.map_b, &p.full[s], n0 + box * C::box_cols, k0);
}

/** @brief Thread 0 seul : remplit les premiers étages avec les premières étapes d'une tuile
 *         (à partir de la tranche @p first_step de K). */
__device__ __forceinline__ void load_prologue(const Pipeline& p, int m0, int n0, int steps, int first_step = 0) {
    for (int step = 0; step < TmaWgmmaConfig::stages && step < steps; ++step) load_step(p, m0, n0, step, first_step);
}

/**
 * @brief Tout le warpgroup : la tuile (m0, n0) sur toute la profondeur K, son prologue déjà
 *        émis. Chaque étage attendu sur son mbarrier reçoit 8 wgmma (2 moitiés de M × 4 pas de K) ;
 *        une fois finis ceux de l'étage précédent, le thread 0 y recharge l'étape qui vient trois
 *        étages plus loin. Au retour, tous les wgmma sont finis et `steps_done` avancé. @p steps
 *        tranches de K à partir de @p first_step : toute la profondeur, ou la part Stream-K d'un bloc.
 */
__device__ __forceinline__ void compute_tile(Pipeline& p, int m0, int n0, int steps, Accumulator& acc,
                                             int first_step = 0) {
    using C = TmaWgmmaConfig;
    for (int half = 0; half < 2; ++half)
        for (int i = 0; i < 64; ++i) acc[half][i] = 0.0f;
    for (int step = 0; step < steps; ++step) {
        const int global = p.steps_done + step;
        const int s = global % C::stages;
        hopper::mbarrier_wait(&p.full[s], (global / C::stages) % 2);  // la parité alterne à chaque tour
        const unsigned char* const a_tile = p.tiles + s * C::stage_bytes;
        const unsigned char* const b_tile = a_tile + C::a_bytes;
        hopper::wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < C::block_k / C::wgmma_k; ++kk) {
            // B est N-majeur (N contigu) : transposée pour wgmma (imm-trans-b = 1).
            const std::uint64_t desc_b = wgmma::mn_major_128b(
                hopper::shared_address(b_tile) + wgmma::mn_major_step_offset(kk), C::b_box_bytes);
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const std::uint64_t desc_a = wgmma::k_major_128b(hopper::shared_address(a_tile) +
                                                                 half * C::wgmma_m * 128 + wgmma::k_major_step_offset(kk));
                hopper::wgmma_m64n128k16<1>(acc[half], desc_a, desc_b, 1);  // D += A·B
            }
        }
        hopper::wgmma_commit_group();
        // Les wgmma de l'étage précédent sont finis (ceux-ci restent en vol) ; la barrière
        // garantit que ceux des quatre warps le sont avant que la TMA n'écrase cet étage.
        hopper::wgmma_wait_group<1>();
        __syncthreads();
        if (threadIdx.x == 0 && step > 0 && step - 1 + C::stages < steps) load_step(p, m0, n0, step - 1 + C::stages, first_step);
    }
    hopper::wgmma_wait_group<0>();
    p.steps_done += steps;
}
// --8<-- [end:pipeline]

// --8<-- [start:epilogue]
/**
 * @brief C ← α·acc + β·C sur la tuile (m0, n0) : ses deux moitiés de 64 lignes, chacune la
 *        sortie d'un wgmma m64n128k16 (common/fragment_epilogue.cuh). Avec β = 0, C n'est
 *        jamais lu.
 */
__device__ __forceinline__ void store_tile(const Accumulator& acc, int m0, int n0, int n, float alpha, float beta,
                                           float* __restrict__ c) {
#pragma unroll
    for (int half = 0; half < 2; ++half)
        store_wgmma_tile(acc[half], c, n, m0 + half * TmaWgmmaConfig::wgmma_m, n0, alpha, beta);
}
// --8<-- [end:epilogue]
#endif  // NOYAUX_HAS_WGMMA

/**
 * @brief Les tensor maps de A (boîte 128 × 64, K contigu) et de B (boîte 64 × 64, N contigu),
 *        permutation de 128 octets ; la validation française de common/tensor_map.hpp refuse
 *        d'abord ce que la TMA ne peut pas décrire. Gardées par tma::encode_cached : relancer
 *        sur les mêmes matrices ne repasse pas par le pilote.
 */
inline std::pair<CUtensorMap, CUtensorMap> operand_maps(const GemmArgsOf<bf16>& args) {
    using C = TmaWgmmaConfig;
    const auto [m, n, k] = args.shape;
    const auto address = [](const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); };
    const auto map = [](std::uint64_t rows, std::uint64_t cols, std::uint32_t box_rows, std::uint32_t box_cols,
                        std::uintptr_t base) {
        return tma::encode_cached(tma::operand_map(rows, cols, cols, 2, box_rows, box_cols, tma::Swizzle::bytes128, base));
    };
    return {map(m, k, C::block_m, C::block_k, address(args.a)),   // A : M × K, K contigu
            map(k, n, C::block_k, C::box_cols, address(args.b))};  // B : K × N, N contigu
}

}  // namespace tma_wgmma

/**
 * @brief Ce que les étapes TMA + wgmma (14, 17, 19) déclarent de même au lanceur, aux tests et
 *        au benchmark communs. @p Step (la structure de l'étape) fournit name, kernel et
 *        kernel_arguments, et geometry pour une grille persistante.
 */
template <class Step, class Config>
struct TmaWgmmaStep : TiledStep<Step, Config, 16, bf16> {
    static constexpr std::size_t shared_bytes = Config::shared_bytes;       ///< au-delà de 48 Kio : demandée au runtime
    static constexpr int minimum_architecture = 90;                         ///< wgmma : sm_90a
    static constexpr const char* architecture_feature = "wgmma et la TMA";  ///< pour le message de refus

    /** @brief Blocs résidents à la fois sur le GPU courant : la grille d'un noyau persistant. */
    static int resident_blocks() { return gemm::resident_blocks<Step::kernel, Config::threads, shared_bytes>(); }
};
}  // namespace noyaux::gemm
