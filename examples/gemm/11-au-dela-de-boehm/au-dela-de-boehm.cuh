/**
 * @file
 * @brief Étape 11 de l'échelle GEMM : un noyau SIMT conçu pour sm_90. Pipeline de copies
 *        asynchrones à plusieurs étages (une barrière par tuile), copies de 16 octets pour A
 *        comme pour B, tuile de A permutée (swizzle) en mémoire partagée, fragments doublement
 *        tamponnés en registres, blocs parcourus par groupes de lignes (L2), toute forme et
 *        toute dimension principale.
 */
#pragma once

#include "dimensions-principales.hpp"

#include "gemm/common/kernel.cuh"
#include "gemm/common/tile_scheduler.hpp"

#include "common/cuda_check.cuh"

#include <cuda_pipeline_primitives.h>

#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace noyaux::gemm {

// --8<-- [start:geometrie]
/**
 * @brief Géométrie d'une configuration de l'étape 11 : tuile BM×BN de C par bloc, tranches
 *        de K de BK, STAGES tampons en mémoire partagée, BLOCKS blocs résidents visés par
 *        SM (deuxième argument de __launch_bounds__ : ptxas tient alors les registres dans
 *        65 536 / (BLOCKS × threads)). Chaque thread calcule 8×8 éléments
 *        de C, en quatre carrés 4×4 (lignes ty·4 et BM/2 + ty·4, colonnes tx·4 et
 *        BN/2 + tx·4) ; un warp couvre 4 valeurs de ty et 8 de tx.
 */
template <int BM, int BN, int BK, int STAGES, int BLOCKS>
struct BeyondBoehmGeometry {
    static constexpr int block_m = BM;                    ///< lignes de C par bloc
    static constexpr int block_n = BN;                    ///< colonnes de C par bloc
    static constexpr int block_k = BK;                    ///< profondeur d'une tranche
    static constexpr int stages = STAGES;                 ///< tampons de tranches en mémoire partagée
    static constexpr int threads_y = BM / 8;              ///< threads dans la hauteur du bloc
    static constexpr int threads_x = BN / 8;              ///< threads dans la largeur du bloc
    static constexpr int threads = threads_y * threads_x; ///< threads par bloc
    static constexpr int chunks_k = BK / 4;               ///< morceaux de 16 octets par ligne de A
    static constexpr int a_floats = BM * BK;              ///< flottants d'une tranche de A
    static constexpr int b_floats = BK * BN;              ///< flottants d'une tranche de B
    /** @brief Mémoire partagée dynamique d'un bloc, en octets : STAGES tranches de A et de B. */
    static constexpr int shared_bytes = STAGES * (a_floats + b_floats) * 4;
    static constexpr int min_blocks = BLOCKS;  ///< blocs résidents visés par SM

    /** @brief ty du thread @p tid : 4 valeurs par warp. */
    __host__ __device__ static constexpr int thread_y(int tid) {
        return (tid / 32) / (threads_x / 8) * 4 + (tid % 32) / 8;
    }
    /** @brief tx du thread @p tid : 8 valeurs par warp. */
    __host__ __device__ static constexpr int thread_x(int tid) {
        return (tid / 32) % (threads_x / 8) * 8 + tid % 8;
    }

    // --8<-- [start:permutation]
    /**
     * @brief Indice, dans une tranche de A (BM lignes de BK flottants), du morceau de
     *        16 octets @p chunk (flottants 4·chunk à 4·chunk + 3) de la ligne @p row.
     *
     * Le morceau est déplacé dans sa ligne par un OU exclusif avec (row / 4) mod (BK / 4) :
     * les lignes row, row + 4, row + 8, row + 12, que les quatre ty d'un warp lisent au
     * même pas, tombent alors dans quatre groupes de bancs différents.
     */
    __host__ __device__ static constexpr int a_index(int row, int chunk) {
        return row * BK + 4 * (chunk ^ ((row / 4) % chunks_k));
    }
    // --8<-- [end:permutation]
    /** @brief Indice, dans une tranche de B (BK lignes de BN flottants), de l'élément (row, col). */
    __host__ __device__ static constexpr int b_index(int row, int col) { return row * BN + col; }

    /** @brief Vrai si la configuration est réalisable ; vérifié à la compilation. */
    __host__ __device__ static constexpr bool valid() {
        return BM % 32 == 0 && BN % 64 == 0 && (BK == 16 || BK == 32 || BK == 64) && STAGES >= 2 &&
               STAGES <= 8 && threads % 32 == 0 && threads <= 1024 &&
               (BM * BK / 4) % threads == 0 && (BK * BN / 4) % threads == 0 &&
               // Les 8 lignes d'un thread (ty·4 + i, BM/2 + ty·4 + i) ont la même permutation.
               (BM / 8) % chunks_k == 0 &&
               // BLOCKS blocs par SM sur sm_90 : BLOCKS × (octets + 1 Kio du pilote) ≤ 228 Kio,
               // et BLOCKS × threads ≤ 2 048 threads résidents.
               BLOCKS >= 1 && BLOCKS * (shared_bytes + 1024) <= 228 * 1024 &&
               BLOCKS * threads <= 2048;
    }
};
// --8<-- [end:geometrie]

// --8<-- [start:rasterisation]
/** @brief Lignes de tuiles d'un groupe : les blocs voisins dans l'ordre de lancement s'y suivent. */
inline constexpr int kRasterGroup = 8;

/**
 * @brief Tuile du bloc @p block : l'ordre groupé de l'ordonnanceur commun
 *        (schedule::grouped_tile, common/tile_scheduler.hpp), par bandes de kRasterGroup
 *        lignes de tuiles parcourues colonne par colonne. Des blocs lancés ensemble lisent
 *        donc les mêmes kRasterGroup panneaux de A et peu de panneaux de B, qui restent dans
 *        le L2 au lieu d'être relus en mémoire.
 */
__host__ __device__ constexpr schedule::Tile block_tile(int block, int tiles_m, int tiles_n) {
    return schedule::grouped_tile(block, tiles_m, tiles_n, kRasterGroup);
}
// --8<-- [end:rasterisation]

/** @brief Arguments du noyau de l'étape 11 : le problème et ses dimensions principales. */
struct BeyondBoehmParams {
    int m;            ///< lignes de A et de C
    int n;            ///< colonnes de B et de C
    int k;            ///< colonnes de A, lignes de B
    int tiles_m;      ///< tuiles dans la hauteur de C
    int tiles_n;      ///< tuiles dans la largeur de C
    float alpha;      ///< coefficient du produit
    float beta;       ///< coefficient de l'ancien C
    const float* a;   ///< A, M×K, lignes espacées de lda
    const float* b;   ///< B, K×N, lignes espacées de ldb
    float* c;         ///< C, M×N, lignes espacées de ldc
    std::int64_t lda; ///< distance entre deux lignes de A, en flottants
    std::int64_t ldb; ///< distance entre deux lignes de B, en flottants
    std::int64_t ldc; ///< distance entre deux lignes de C, en flottants
};

/**
 * @brief Lance la copie asynchrone de 4 flottants consécutifs vers @p dst : les @p valid
 *        premiers sont lus, les autres mis à zéro sans rien lire (copie à remplissage).
 * @tparam VECTOR vrai : une copie de 16 octets, @p valid vaut 0 ou 4 ; faux : quatre
 *         copies de 4 octets, pour les matrices dont les lignes ne sont pas alignées.
 * @param dst destination en mémoire partagée (alignée sur 16 octets)
 * @param src le premier flottant ; ses @p valid premiers sont dans la matrice, les autres
 *        peuvent en sortir (au-delà de K dans la tranche 0)
 * @param valid flottants à lire : 0 à 4
 * @param last copies de 4 octets : le flottant e est lu en src + min(e, last), pour ne pas
 *        sortir de la ligne au bord droit de B
 * @param inside une adresse de la matrice (alignée sur 16 octets si VECTOR), donnée aux
 *        copies qui ne lisent rien à la place de la leur : aucune copie ne reçoit ainsi une
 *        adresse hors du tableau, même sans la lire
 *
 * La taille du remplissage est une constante de chaque appel : donnée à l'exécution,
 * __pipeline_memcpy_async choisirait entre 17 variantes par un aiguillage.
 */
template <bool VECTOR>
__device__ __forceinline__ void copy4_async(float* dst, const float* src, int valid, int last,
                                            const float* inside) {
    if constexpr (VECTOR) {
        if (valid > 0)
            __pipeline_memcpy_async(dst, src, 16, 0);
        else
            __pipeline_memcpy_async(dst, inside, 16, 16);
    } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            if (e < valid)
                __pipeline_memcpy_async(dst + e, src + (e < last ? e : last), 4, 0);
            else
                __pipeline_memcpy_async(dst + e, inside, 4, 4);
        }
    }
}

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C pour toute forme : le travail d'un bloc, une tuile BM×BN de C.
 * @tparam VECTOR copies de 16 octets (sgemm_beyond_boehm) ou de 4 (sgemm_beyond_boehm_unaligned)
 * @param p le problème, ses dimensions principales et sa grille de tuiles
 *
 * Les tranches de A et de B traversent STAGES tampons de mémoire partagée par copies
 * asynchrones : pendant le calcul de la tranche t, les tranches t + 1 à t + STAGES − 1 sont
 * en route ; une seule barrière par tranche suffit, car le tampon réécrit à l'itération t
 * est celui que tout le bloc a fini de lire à l'itération t − 1.
 *
 * Les bords ne coûtent rien dans la boucle principale. La tranche 0 est la seule partielle :
 * elle couvre les r = K − (S − 1)·BK premières colonnes de A (S tranches), le reste arrive
 * à zéro par remplissage ; toutes les suivantes sont entières. Au bord de M et de N, les
 * lignes de A et les colonnes de B hors de la matrice sont lues à la dernière ligne (ou
 * colonne) qui existe : elles ne servent qu'aux éléments de C hors de la matrice, que
 * l'épilogue n'écrit pas.
 */
template <int BM, int BN, int BK, int STAGES, int BLOCKS, bool VECTOR>
__device__ __forceinline__ void beyond_boehm_block(const BeyondBoehmParams& p) {
    using G = BeyondBoehmGeometry<BM, BN, BK, STAGES, BLOCKS>;
    static_assert(G::valid(), "configuration irréalisable");
    constexpr int a_passes = BM * G::chunks_k / G::threads;  // morceaux de A par thread et tranche
    constexpr int b_passes = BK * (BN / 4) / G::threads;     // morceaux de B par thread et tranche
    extern __shared__ float4 shared_tiles[];
    float* const a_tiles = reinterpret_cast<float*>(shared_tiles);  // STAGES tranches de A
    float* const b_tiles = a_tiles + STAGES * G::a_floats;          // puis STAGES tranches de B

    const int tid = static_cast<int>(threadIdx.x);
    const schedule::Tile tile = block_tile(static_cast<int>(blockIdx.x), p.tiles_m, p.tiles_n);
    const int m0 = tile.m * BM, n0 = tile.n * BN;
    const int ty = G::thread_y(tid), tx = G::thread_x(tid);

    // Ce que chaque thread copie, calculé une fois : source (lignes de A et colonnes de B
    // ramenées dans la matrice) et destination dans une tranche. Les morceaux de B d'un
    // thread sont dans une même colonne, à b_pass_rows lignes l'un de l'autre.
    constexpr int b_pass_rows = G::threads / (BN / 4);
    const float* a_src[a_passes];
    int a_dst[a_passes];
#pragma unroll
    for (int i = 0; i < a_passes; ++i) {
        const int q = tid + i * G::threads, row = q / G::chunks_k, chunk = q % G::chunks_k;
        const int m = m0 + row < p.m ? m0 + row : p.m - 1;
        a_src[i] = p.a + m * p.lda + 4 * chunk;
        a_dst[i] = G::a_index(row, chunk);
    }
    // Colonne (dans la tranche) des morceaux de A du thread : la même pour tous, 4·chunk.
    static_assert(G::threads % G::chunks_k == 0, "un thread copie toujours la même colonne de A");
    const int a_col = 4 * (tid % G::chunks_k);
    const int b_row = tid / (BN / 4), b_col = 4 * (tid % (BN / 4));
    const int last_col = VECTOR ? p.n - 4 : p.n - 1;  // VECTOR : N multiple de 4
    const int b_n = n0 + b_col < last_col ? n0 + b_col : last_col;
    const int b_last = p.n - 1 - b_n;  // flottants de la ligne après le premier lu
    const float* const b_src = p.b + b_row * p.ldb + b_n;
    const std::int64_t b_pass_stride = b_pass_rows * p.ldb;

    const int slices = (p.k + BK - 1) / BK;
    const int first_width = p.k - (slices - 1) * BK;  // r : colonnes de la tranche 0
    // Lance la copie de la tranche s vers le tampon stage. La tranche 0 remplit de zéros ce
    // qui dépasse r ; les autres sont entières.
    auto load_slice = [&](int stage, int s, bool first) {
        const int k0 = s == 0 ? 0 : first_width + (s - 1) * BK;
        float* const a_stage = a_tiles + stage * G::a_floats;
        float* const b_stage = b_tiles + stage * G::b_floats;
        const int a_left = first_width - a_col;
        // Ce que reçoivent les copies qui ne lisent rien : le début de la ligne de A (K ≥ 1),
        // la ligne 0 de B à la colonne b_n ; alignés sur 16 octets si VECTOR.
#pragma unroll
        for (int i = 0; i < a_passes; ++i)
            copy4_async<VECTOR>(a_stage + a_dst[i], a_src[i] + k0,
                                !first ? 4 : a_left <= 0 ? 0 : a_left >= 4 ? 4 : a_left, 3, a_src[i] - a_col);
        const float* const b_slice = b_src + std::int64_t(k0) * p.ldb;
#pragma unroll
        for (int i = 0; i < b_passes; ++i)
            copy4_async<VECTOR>(b_stage + G::b_index(b_row + i * b_pass_rows, b_col),
                                b_slice + i * b_pass_stride,
                                !first || b_row + i * b_pass_rows < first_width ? 4 : 0, b_last, p.b + b_n);
    };

    float acc[8][8] = {};
    // Prologue : les STAGES − 1 premières tranches partent, un groupe de copies chacune.
    load_slice(0, 0, true);
    __pipeline_commit();
#pragma unroll
    for (int s = 1; s < STAGES - 1; ++s) {
        if (s < slices) load_slice(s, s, false);
        __pipeline_commit();
    }
    // La boucle avance de STAGES tranches à la fois : le tampon de chaque tranche est alors
    // une constante, et les adresses en mémoire partagée des immédiats.
    for (int t0 = 0; t0 < slices; t0 += STAGES) {
#pragma unroll
        for (int stage = 0; stage < STAGES; ++stage) {
            const int t = t0 + stage;
            if (t >= slices) break;
            __pipeline_wait_prior(STAGES - 2);  // la tranche t est arrivée (pour ce thread)
            __syncthreads();                    // pour tout le bloc ; la tranche t − 1 est lue
            if (t + STAGES - 1 < slices) load_slice((stage + STAGES - 1) % STAGES, t + STAGES - 1, false);
            __pipeline_commit();  // un groupe par itération, même vide : le compte reste juste

            const float* a_tile = a_tiles + stage * G::a_floats;
            const float* b_tile = b_tiles + stage * G::b_floats;
            // Fragments doublement tamponnés : ceux du pas suivant sont lus avant le calcul
            // du pas courant. A arrive par groupes de 4 pas de K (un float4 par ligne), B pas
            // par pas (deux float4). Les 8 lignes d'un thread partagent la permutation de la
            // ligne ty·4 (BeyondBoehmGeometry::valid l'exige).
            float4 a_frag[2][8];
            float4 b_frag[2][2];
            auto load_a = [&](float4* frag, int chunk) {
                const float* base = a_tile + G::a_index(ty * 4, chunk);
#pragma unroll
                for (int i = 0; i < 8; ++i)
                    frag[i] = *reinterpret_cast<const float4*>(base + ((i / 4) * (BM / 2) + i % 4) * BK);
            };
            auto load_b = [&](float4* frag, int kk) {
                frag[0] = *reinterpret_cast<const float4*>(&b_tile[G::b_index(kk, tx * 4)]);
                frag[1] = *reinterpret_cast<const float4*>(&b_tile[G::b_index(kk, BN / 2 + tx * 4)]);
            };
            load_a(a_frag[0], 0);
            load_b(b_frag[0], 0);
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) {
                if (kk + 1 < BK) load_b(b_frag[(kk + 1) % 2], kk + 1);
                if (kk % 4 == 0 && kk + 4 < BK) load_a(a_frag[(kk / 4 + 1) % 2], kk / 4 + 1);
                const float4* a4 = a_frag[(kk / 4) % 2];
                const float4* b4 = b_frag[kk % 2];
                const float b_values[8] = {b4[0].x, b4[0].y, b4[0].z, b4[0].w,
                                           b4[1].x, b4[1].y, b4[1].z, b4[1].w};
#pragma unroll
                for (int i = 0; i < 8; ++i) {
                    const float4 row = a4[i];
                    const float a_value = kk % 4 == 0 ? row.x : kk % 4 == 1 ? row.y : kk % 4 == 2 ? row.z : row.w;
#pragma unroll
                    for (int j = 0; j < 8; ++j) acc[i][j] += a_value * b_values[j];
                }
            }
        }
    }
    __pipeline_wait_prior(0);  // aucun groupe (vide) ne reste en vol à la sortie

    // Épilogue : seuls les éléments dans C sont écrits ; β = 0 ne lit pas C.
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = m0 + (i / 4) * (BM / 2) + ty * 4 + i % 4;
        if (row >= p.m) continue;
        float* c_row = p.c + row * p.ldc;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int col = n0 + h * (BN / 2) + tx * 4;
            const float* r = &acc[i][h * 4];
            if (VECTOR && col + 3 < p.n) {
                float4 out = make_float4(p.alpha * r[0], p.alpha * r[1], p.alpha * r[2], p.alpha * r[3]);
                if (p.beta != 0.0f) {
                    const float4 old = *reinterpret_cast<const float4*>(&c_row[col]);
                    out.x += p.beta * old.x;
                    out.y += p.beta * old.y;
                    out.z += p.beta * old.z;
                    out.w += p.beta * old.w;
                }
                *reinterpret_cast<float4*>(&c_row[col]) = out;
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (col + j < p.n)
                        c_row[col + j] = p.alpha * r[j] + (p.beta != 0.0f ? p.beta * c_row[col + j] : 0.0f);
            }
        }
    }
}
// --8<-- [end:noyau]

/** @brief Le noyau de l'étape 11 : copies de 16 octets (A, B, C et leurs lignes alignées). */
template <int BM, int BN, int BK, int STAGES, int BLOCKS>
__global__ void __launch_bounds__(BeyondBoehmGeometry<BM, BN, BK, STAGES, BLOCKS>::threads, BLOCKS)
    sgemm_beyond_boehm(const BeyondBoehmParams p) {
    beyond_boehm_block<BM, BN, BK, STAGES, BLOCKS, true>(p);
}

/** @brief Le chemin de repli : copies de 4 octets, pour toute adresse et toute dimension. */
template <int BM, int BN, int BK, int STAGES, int BLOCKS>
__global__ void __launch_bounds__(BeyondBoehmGeometry<BM, BN, BK, STAGES, BLOCKS>::threads, BLOCKS)
    sgemm_beyond_boehm_unaligned(const BeyondBoehmParams p) {
    beyond_boehm_block<BM, BN, BK, STAGES, BLOCKS, false>(p);
}

// --8<-- [start:lancement]
/**
 * @brief L'étape 11 pour le lanceur, les tests et le benchmark communs : toute forme
 *        (granularité 1×1×1), toute adresse de float, toute dimension principale.
 *
 * Copies de 16 octets quand A, B et C commencent à une adresse multiple de 16 octets, que
 * lda, ldb et ldc sont multiples de 4 (chaque ligne reste alignée) et que K et N le sont
 * aussi ; sinon, le même noyau à copies de 4 octets, plus lent mais juste.
 */
template <int BM, int BN, int BK, int STAGES, int BLOCKS>
struct BeyondBoehm {
    using Geometry = BeyondBoehmGeometry<BM, BN, BK, STAGES, BLOCKS>;  ///< tailles et dispositions
    static constexpr const char* name = "sgemm_beyond_boehm";  ///< nom affiché
    static constexpr Shape granularity{1, 1, 1};               ///< toute forme
    static constexpr std::size_t alignment = sizeof(float);    ///< tout pointeur de float
    static constexpr bool wide_indices = true;  ///< lignes indexées en 64 bits : M·N sans borne d'int
    static constexpr auto vector_kernel = sgemm_beyond_boehm<BM, BN, BK, STAGES, BLOCKS>;   ///< 16 octets
    static constexpr auto scalar_kernel = sgemm_beyond_boehm_unaligned<BM, BN, BK, STAGES, BLOCKS>;  ///< 4 octets

    /** @brief Le noyau à copies de 16 octets, pour vérifier qu'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(vector_kernel); }

    /** @brief « BM×BN×BK, S étages, B blocs/SM », pour les tableaux du balayage. */
    static std::string parameters() {
        return std::to_string(BM) + "×" + std::to_string(BN) + "×" + std::to_string(BK) + ", " +
               std::to_string(STAGES) + " étages, " + std::to_string(BLOCKS) + " blocs/SM";
    }

    /**
     * @brief Vrai si les copies de 16 octets conviennent : adresses et lignes alignées, et
     *        K et N multiples de 4 (un morceau de 16 octets est entier ou tout entier dehors).
     */
    static bool vectorizable(const GemmArgs& args, const LeadingDimensions& ld) {
        const auto aligned = [](const void* pointer) {
            return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
        };
        return aligned(args.a) && aligned(args.b) && aligned(args.c) && ld.lda % 4 == 0 &&
               ld.ldb % 4 == 0 && ld.ldc % 4 == 0 && args.shape.k % 4 == 0 && args.shape.n % 4 == 0;
    }

    /**
     * @brief Au-delà de 48 Kio de mémoire partagée dynamique, un noyau doit le demander
     *        (cudaFuncSetAttribute, erreur vérifiée) : une fois par noyau et par GPU, pour ne
     *        pas ajouter un appel au pilote à chaque lancement.
     * @param kernel le noyau à lancer
     * @param configured un bit par GPU (numéros 0 à 63) déjà réglé pour ce noyau
     */
    static void allow_large_shared_memory(void (*kernel)(BeyondBoehmParams),
                                          std::atomic<std::uint64_t>& configured) {
        int device = 0;
        NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
        const std::uint64_t bit = device < 64 ? std::uint64_t(1) << device : 0;
        if (bit && (configured.load() & bit)) return;
        NOYAUX_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               Geometry::shared_bytes));
        configured.fetch_or(bit);
    }
    static inline std::atomic<std::uint64_t> vector_configured{0};  ///< GPU réglés pour vector_kernel
    static inline std::atomic<std::uint64_t> scalar_configured{0};  ///< GPU réglés pour scalar_kernel

    /** @brief Matrices contiguës : lda = K, ldb = ldc = N. */
    static void launch(const GemmArgs& args, cudaStream_t stream) {
        launch(args, {args.shape.k, args.shape.n, args.shape.n}, stream);
    }

    /**
     * @brief Vérifie forme et dimensions principales, puis lance sans attendre.
     * @throws UnsupportedShapeError dimension nulle ou négative, ou trop de tuiles
     * @throws std::invalid_argument dimension principale trop petite, pointeur nul
     */
    static void launch(const GemmArgs& args, const LeadingDimensions& ld, cudaStream_t stream) {
        const auto [m, n, k] = args.shape;
        require_positive(args.shape);
        if (ld.lda < k || ld.ldb < n || ld.ldc < n)
            throw std::invalid_argument(
                std::string(name) + " : dimensions principales lda = " + std::to_string(ld.lda) +
                ", ldb = " + std::to_string(ld.ldb) + ", ldc = " + std::to_string(ld.ldc) +
                " refusées ; il faut lda ≥ K = " + std::to_string(k) + " et ldb, ldc ≥ N = " +
                std::to_string(n));
        if (!args.a || !args.b || !args.c)
            throw std::invalid_argument(std::string(name) + " : A, B et C doivent être non nuls");
        // Un bloc par tuile, sur la seule dimension x de la grille (2³¹ − 1 blocs au plus).
        const std::int64_t tiles_m = (std::int64_t(m) + BM - 1) / BM, tiles_n = (std::int64_t(n) + BN - 1) / BN;
        if (tiles_m * tiles_n > INT_MAX)
            throw UnsupportedShapeError(std::string(name) + " : forme " + to_string(args.shape) +
                                        " refusée ; " + std::to_string(tiles_m * tiles_n) +
                                        " tuiles dépassent les 2³¹ − 1 blocs d'une grille");
        const BeyondBoehmParams params{m, n, k, int(tiles_m), int(tiles_n), args.alpha, args.beta,
                                       args.a, args.b, args.c, ld.lda, ld.ldb, ld.ldc};
        const bool vector = vectorizable(args, ld);
        const auto kernel = vector ? vector_kernel : scalar_kernel;
        allow_large_shared_memory(kernel, vector ? vector_configured : scalar_configured);
        kernel<<<unsigned(tiles_m * tiles_n), Geometry::threads, Geometry::shared_bytes, stream>>>(params);
    }
};
// --8<-- [end:lancement]

/**
 * @brief Liste de configurations, parcourue à la compilation par les tests et le balayage
 *        (celle de l'étape 8, que l'émulateur ne peut inclure d'ici : chaque exemple n'y
 *        voit que ses propres en-têtes et ceux de common/).
 */
template <typename... Kernels>
struct BeyondBoehmList {};

// --8<-- [start:espace]
/**
 * @brief L'espace balayé de l'étape 11 : chaque configuration est validée à la compilation
 *        (BeyondBoehmGeometry::valid), testée sur l'émulateur et mesurée par le balayage.
 */
using BeyondBoehmConfigurations =
    BeyondBoehmList<BeyondBoehm<64, 128, 32, 3, 3>, BeyondBoehm<64, 128, 16, 4, 3>,
                      BeyondBoehm<128, 128, 32, 4, 1>>;
// --8<-- [end:espace]

/** @brief La configuration de l'échelle, en attendant un balayage mesuré sur le H200. */
using BeyondBoehmKernel = BeyondBoehm<64, 128, 32, 3, 3>;

}  // namespace noyaux::gemm
