/**
 * @file
 * @brief Étape 13 de l'échelle GEMM : les Tensor Cores « à la Ampere », en PTX. A et B en
 *        bf16, C et l'accumulation en fp32. Chaque bloc de 8 warps calcule une tuile 128×128
 *        de C ; chaque warp, 64×32 en 4×4 instructions `mma.sync` m16n8k16. Les tranches de A
 *        et de B arrivent en mémoire partagée par `cp.async` dans un tampon à 3 étages ; les
 *        fragments en sortent par `ldmatrix` (transposé pour B), dans une disposition permutée
 *        par OU exclusif qui supprime les conflits de banc.
 */
#pragma once

#include "gemm/common/ampere_ptx.cuh"
#include "gemm/common/bank_model.hpp"
#include "gemm/common/fragment_epilogue.cuh"
#include "common/host_device.hpp"
#include "gemm/common/kernel.cuh"

#include <cuda_bf16.h>

#include <cstdint>

namespace noyaux::gemm {

// --8<-- [start:parametres]
/** @brief Les tailles de l'étape 13. */
struct MmaSyncConfig {
    static constexpr int block_m = 128;  ///< lignes de C par bloc
    static constexpr int block_n = 128;  ///< colonnes de C par bloc
    static constexpr int block_k = 32;   ///< profondeur d'une tranche de A et de B
    static constexpr int warp_m = 64;    ///< lignes de C par warp
    static constexpr int warp_n = 32;    ///< colonnes de C par warp
    static constexpr int mma_m = 16;     ///< forme d'une instruction mma.sync : m16n8k16
    static constexpr int mma_n = 8;      ///< idem, colonnes
    static constexpr int mma_k = 16;     ///< idem, profondeur
    static constexpr int stages = 3;     ///< étages du tampon de copies asynchrones
    static constexpr int warps_n = block_n / warp_n;         ///< warps le long de N
    static constexpr int warps = (block_m / warp_m) * warps_n;  ///< warps par bloc
    static constexpr int threads = 32 * warps;               ///< threads par bloc
    static constexpr int tiles_m = warp_m / mma_m;  ///< fragments d'accumulateurs d'un warp, en M
    static constexpr int tiles_n = warp_n / mma_n;  ///< idem, en N
    /** @brief Un morceau : 16 octets, soit 8 bf16, l'unité des copies et d'une ligne de ldmatrix. */
    static constexpr int chunk = 8;
    static constexpr int a_row_chunks = block_k / chunk;  ///< morceaux par ligne de la tuile de A
    static constexpr int b_row_chunks = block_n / chunk;  ///< morceaux par ligne de la tuile de B
    static constexpr int a_chunks = block_m * a_row_chunks;  ///< morceaux de la tuile de A
    static constexpr int b_chunks = block_k * b_row_chunks;  ///< morceaux de la tuile de B
    static constexpr int min_blocks = 2;  ///< blocs par SM visés (__launch_bounds__) : 128 registres au plus
};
static_assert(MmaSyncConfig::a_chunks % MmaSyncConfig::threads == 0 &&
                  MmaSyncConfig::b_chunks % MmaSyncConfig::threads == 0,
              "chaque thread copie le même nombre de morceaux");
static_assert(MmaSyncConfig::warp_n % 16 == 0 && MmaSyncConfig::block_k % MmaSyncConfig::mma_k == 0,
              "un ldmatrix .x4 de B couvre 16 colonnes ; une tranche, des pas de 16 sur K");
static_assert(MmaSyncConfig::stages * (MmaSyncConfig::a_chunks + MmaSyncConfig::b_chunks) * 16 <= 48 * 1024,
              "les étages tiennent dans les 48 Kio de mémoire partagée statique");
// --8<-- [end:parametres]

// --8<-- [start:permutation]
/**
 * @brief Disposition d'une tuile en mémoire partagée, par morceaux de 16 octets : @p RowChunks
 *        morceaux par ligne. Permutée (@p Swizzled), le morceau c de la ligne r est rangé à la
 *        place c ⊕ (⌊r / rows_per_line⌋ mod line_chunks) de sa ligne : huit lignes consécutives
 *        lues au même morceau tombent alors sur huit groupes de 4 bancs différents. La
 *        permutation ne sort pas de la ligne : chaque morceau reste aligné sur 16 octets.
 */
template <int RowChunks, bool Swizzled = true>
struct ChunkLayout {
    static constexpr int row_chunks = RowChunks;  ///< morceaux par ligne de la tuile
    /** @brief Morceaux d'une ligne de la tuile dans 128 octets (32 bancs de 4 octets). */
    static constexpr int line_chunks = RowChunks < 8 ? RowChunks : 8;
    static constexpr int rows_per_line = 8 / line_chunks;  ///< lignes de la tuile par 128 octets
    static_assert(RowChunks > 0 && (RowChunks & (RowChunks - 1)) == 0, "morceaux par ligne : une puissance de 2");

    /** @brief Indice du morceau (logique) @p c de la ligne @p row dans la tuile rangée. */
    NOYAUX_HOST_DEVICE static constexpr int chunk(int row, int c) {
        const int key = Swizzled ? (row / rows_per_line) % line_chunks : 0;
        return row * RowChunks + (c ^ key);
    }
};
// --8<-- [end:permutation]

// --8<-- [start:indices]
/**
 * @brief Qui copie et qui lit quel morceau : les fonctions d'indice du noyau, que les tests
 *        de bancs (bank_model) reprennent telles quelles. Indices en morceaux de la tuile.
 */
template <bool Swizzled = true>
struct MmaSyncIndexing {
    using C = MmaSyncConfig;                             ///< les tailles
    using ALayout = ChunkLayout<C::a_row_chunks, Swizzled>;  ///< tuile de A, M×K en ligne
    using BLayout = ChunkLayout<C::b_row_chunks, Swizzled>;  ///< tuile de B, K×N en ligne

    /** @brief Première ligne de C (dans la tuile du bloc) du warp @p warp. */
    NOYAUX_HOST_DEVICE static constexpr int warp_row(int warp) { return warp / C::warps_n * C::warp_m; }
    /** @brief Première colonne de C (dans la tuile du bloc) du warp @p warp. */
    NOYAUX_HOST_DEVICE static constexpr int warp_col(int warp) { return warp % C::warps_n * C::warp_n; }

    /** @brief Copie @p q de la tranche de A (thread tid, copies tid, tid + threads…) : ligne et morceau. */
    NOYAUX_HOST_DEVICE static constexpr int a_store(int q) {
        return ALayout::chunk(q / C::a_row_chunks, q % C::a_row_chunks);
    }
    /** @brief Copie @p q de la tranche de B. */
    NOYAUX_HOST_DEVICE static constexpr int b_store(int q) {
        return BLayout::chunk(q / C::b_row_chunks, q % C::b_row_chunks);
    }
    /**
     * @brief Ligne de A dont la lane @p lane donne l'adresse à ldmatrix .x4, pour le fragment
     *        @p i du warp au pas @p s de 16 sur K : les lanes 0 à 15 donnent les 16 lignes à
     *        k = 16·s, les lanes 16 à 31 les mêmes à k = 16·s + 8 ; les quatre matrices sont
     *        a0 à a3 de mma.m16n8k16.
     */
    NOYAUX_HOST_DEVICE static constexpr int a_read(int warp, int lane, int s, int i) {
        return ALayout::chunk(warp_row(warp) + C::mma_m * i + lane % 16, 2 * s + lane / 16);
    }
    /**
     * @brief Ligne de B (une ligne k, 8 colonnes) dont la lane donne l'adresse à ldmatrix
     *        .x4.trans pour la paire @p j de fragments 16×8 : lanes 0 à 15, k = 16·s + lane
     *        aux colonnes 16·j à 16·j + 7 du warp ; lanes 16 à 31, les 8 colonnes suivantes.
     *        Les matrices sont b0 et b1 du fragment 2·j, puis b0 et b1 du fragment 2·j + 1.
     */
    NOYAUX_HOST_DEVICE static constexpr int b_read(int warp, int lane, int s, int j) {
        return BLayout::chunk(C::mma_k * s + lane % 16, (warp_col(warp) + 16 * j) / C::chunk + lane / 16);
    }
};
// --8<-- [end:indices]

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C, A (M×K) et B (K×N) en bf16, C (M×N) en fp32, tout en ligne.
 *        M et N multiples de 128, K multiple de 32 : aucun bord à garder.
 */
__global__ void __launch_bounds__(MmaSyncConfig::threads, MmaSyncConfig::min_blocks)
    gemm_mma_sync_bf16([[maybe_unused]] int m, int n, int k, float alpha, const __nv_bfloat16* __restrict__ a,
                       const __nv_bfloat16* __restrict__ b, float beta, float* __restrict__ c) {
    using C = MmaSyncConfig;
    using Index = MmaSyncIndexing<>;
    // Un uint4 par morceau de 16 octets ; 128 octets d'alignement : le banc d'un morceau ne
    // dépend que de son indice, comme le suppose la permutation.
    alignas(128) __shared__ uint4 a_shared[C::stages][C::a_chunks];
    alignas(128) __shared__ uint4 b_shared[C::stages][C::b_chunks];

    const int tid = int(threadIdx.x), warp = tid / 32, lane = tid % 32;
    const int block_row = int(blockIdx.y) * C::block_m, block_col = int(blockIdx.x) * C::block_n;
    const int steps = k / C::block_k;

    // Lance les copies de la tranche @p step dans son étage, et ferme le groupe (vide au-delà
    // de la dernière tranche : chaque tour de boucle ferme ainsi exactement un groupe).
    auto load = [&](int step) {
        if (step < steps) {
            const int stage = step % C::stages, k0 = step * C::block_k;
            // Un nombre fixe de copies par thread (static_assert plus haut) : boucles déroulées.
#pragma unroll
            for (int copy = 0; copy < C::a_chunks / C::threads; ++copy) {
                const int q = tid + copy * C::threads;
                const int row = q / C::a_row_chunks, col = q % C::a_row_chunks * C::chunk;
                ptx::cp_async_16(ptx::shared_address(&a_shared[stage][Index::a_store(q)]),
                                 &a[(block_row + row) * k + k0 + col]);
            }
#pragma unroll
            for (int copy = 0; copy < C::b_chunks / C::threads; ++copy) {
                const int q = tid + copy * C::threads;
                const int row = q / C::b_row_chunks, col = q % C::b_row_chunks * C::chunk;
                ptx::cp_async_16(ptx::shared_address(&b_shared[stage][Index::b_store(q)]),
                                 &b[(k0 + row) * n + block_col + col]);
            }
        }
        ptx::cp_async_commit();
    };

    float acc[C::tiles_m][C::tiles_n][4] = {};
    for (int step = 0; step < C::stages - 1; ++step) load(step);

    for (int step = 0; step < steps; ++step) {
        // Les groupes fermés vont jusqu'à la tranche step + stages - 2 : n'en laisser en vol que
        // stages - 2, c'est attendre la tranche step. La barrière la rend visible à tout le
        // bloc, et garantit que l'étage lu au tour précédent est libre.
        ptx::cp_async_wait<C::stages - 2>();
        __syncthreads();
        load(step + C::stages - 1);

        const int stage = step % C::stages;
        for (int s = 0; s < C::block_k / C::mma_k; ++s) {
            std::uint32_t fa[C::tiles_m][4], fb[C::tiles_n / 2][4];
            for (int i = 0; i < C::tiles_m; ++i)
                ptx::ldmatrix_x4(fa[i], ptx::shared_address(&a_shared[stage][Index::a_read(warp, lane, s, i)]));
            for (int j = 0; j < C::tiles_n / 2; ++j)
                ptx::ldmatrix_x4_trans(fb[j], ptx::shared_address(&b_shared[stage][Index::b_read(warp, lane, s, j)]));
            for (int i = 0; i < C::tiles_m; ++i)
                for (int j = 0; j < C::tiles_n; ++j)
                    ptx::mma_bf16_16816(acc[i][j], fa[i], fb[j / 2][2 * (j % 2)], fb[j / 2][2 * (j % 2) + 1]);
        }
    }
    ptx::cp_async_wait<0>();  // les groupes vides de la fin : rien ne reste en vol à la sortie

    // Épilogue : la lane tient, pour chaque fragment 16×8, les colonnes 2·(lane % 4) et
    // 2·(lane % 4) + 1 des lignes lane / 4 et lane / 4 + 8 ; deux flottants voisins, écrits
    // en un accès de 8 octets. Avec β = 0, C n'est jamais lu (sémantique BLAS).
    const int row0 = block_row + Index::warp_row(warp) + lane / 4;
    const int col0 = block_col + Index::warp_col(warp) + 2 * (lane % 4);
    for (int i = 0; i < C::tiles_m; ++i)
        for (int j = 0; j < C::tiles_n; ++j)
            for (int half = 0; half < 2; ++half)
                update_c2(&c[(row0 + C::mma_m * i + 8 * half) * n + col0 + C::mma_n * j], acc[i][j][2 * half],
                          acc[i][j][2 * half + 1], alpha, beta);
}
// --8<-- [end:noyau]

// --8<-- [start:lancement]
/**
 * @brief L'étape 13 pour le lanceur, les tests et le benchmark communs : une grille de tuiles
 *        128×128 de C, 256 threads par bloc ; A, B et C alignées sur 16 octets, ce qu'exigent
 *        cp.async (16 octets) et les écritures par float2 (TiledStep refuse les autres).
 */
struct MmaSyncKernel : TiledStep<MmaSyncKernel, MmaSyncConfig, 16, bf16> {
    static constexpr const char* name = "gemm_mma_sync_bf16";  ///< nom affiché
    static constexpr auto kernel = gemm_mma_sync_bf16;         ///< le noyau lancé
};
// --8<-- [end:lancement]

namespace bank_model {

/** @brief Copies de A par cp.async : un morceau de 16 octets par thread et par copie. */
template <bool Swizzled>
struct MmaSyncAStore {
    static constexpr const char* name = "écriture de A (cp.async)";  ///< pour les messages
    static constexpr int threads = MmaSyncConfig::threads;           ///< threads du bloc
    static constexpr int steps = MmaSyncConfig::a_chunks / threads;  ///< copies par thread
    static constexpr int width = 4;                                  ///< 128 bits
    /** @brief Premier mot écrit par le thread @p tid à la copie @p step. */
    static constexpr int word(int tid, int step) { return 4 * MmaSyncIndexing<Swizzled>::a_store(tid + step * threads); }
};

/** @brief Copies de B par cp.async. */
template <bool Swizzled>
struct MmaSyncBStore {
    static constexpr const char* name = "écriture de B (cp.async)";  ///< pour les messages
    static constexpr int threads = MmaSyncConfig::threads;           ///< threads du bloc
    static constexpr int steps = MmaSyncConfig::b_chunks / threads;  ///< copies par thread
    static constexpr int width = 4;                                  ///< 128 bits
    /** @brief Premier mot écrit par le thread @p tid à la copie @p step. */
    static constexpr int word(int tid, int step) { return 4 * MmaSyncIndexing<Swizzled>::b_store(tid + step * threads); }
};

/**
 * @brief Lectures de A par ldmatrix .x4 : chaque lane donne l'adresse d'une ligne de 16 octets ;
 *        les 8 lanes d'une matrice forment une phase, comme un accès de 128 bits.
 */
template <bool Swizzled>
struct MmaSyncARead {
    using C = MmaSyncConfig;                                        ///< les tailles
    static constexpr const char* name = "lecture de A (ldmatrix)";  ///< pour les messages
    static constexpr int threads = C::threads;                      ///< threads du bloc
    static constexpr int steps = C::block_k / C::mma_k * C::tiles_m;  ///< pas de 16 × fragments
    static constexpr int width = 4;                                 ///< 16 octets par lane
    /** @brief Premier mot de la ligne dont le thread @p tid donne l'adresse, au pas @p step. */
    static constexpr int word(int tid, int step) {
        return 4 * MmaSyncIndexing<Swizzled>::a_read(tid / 32, tid % 32, step / C::tiles_m, step % C::tiles_m);
    }
};

/** @brief Lectures de B par ldmatrix .x4.trans. */
template <bool Swizzled>
struct MmaSyncBRead {
    using C = MmaSyncConfig;                                              ///< les tailles
    static constexpr const char* name = "lecture de B (ldmatrix .trans)";  ///< pour les messages
    static constexpr int threads = C::threads;                            ///< threads du bloc
    static constexpr int pairs = C::tiles_n / 2;                          ///< ldmatrix de B par pas
    static constexpr int steps = C::block_k / C::mma_k * pairs;           ///< pas de 16 × paires
    static constexpr int width = 4;                                       ///< 16 octets par lane
    /** @brief Premier mot de la ligne dont le thread @p tid donne l'adresse, au pas @p step. */
    static constexpr int word(int tid, int step) {
        return 4 * MmaSyncIndexing<Swizzled>::b_read(tid / 32, tid % 32, step / pairs, step % pairs);
    }
};

}  // namespace bank_model

}  // namespace noyaux::gemm
