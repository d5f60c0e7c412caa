/**
 * @file
 * @brief Étape 7 de l'échelle GEMM : le noyau de l'étape 6 avec une disposition des tuiles
 *        en mémoire partagée sans conflit de banc, et l'analyse, sur l'hôte, qui la justifie.
 *
 * L'analyse calcule le banc de chaque mot touché par les 32 lanes d'un warp, à partir des
 * mêmes fonctions d'indice que le noyau. Deux accès de l'étape 6 sont en conflit : les
 * écritures de A transposée et les lectures 128 bits de B. La correction change la seule
 * disposition des tuiles (marge sur A, permutation des blocs de 16 octets de B) et garde
 * tous les accès de 128 bits.
 */
#pragma once

#include "gemm/common/bank_model.hpp"
#include "gemm/common/kernel.cuh"
#include "gemm/common/vectorized.cuh"

#include <algorithm>

namespace noyaux::gemm {

/** @brief Dispositions et analyse des bancs propres à l'étape 7. */
namespace conflict_free {

using Config = VectorizedConfig;  ///< les tailles des étapes 5 et 6
inline constexpr int block_m = Config::block_m;    ///< lignes de C (et de A) par bloc
inline constexpr int block_n = Config::block_n;    ///< colonnes de C (et de B) par bloc
inline constexpr int block_k = Config::block_k;    ///< profondeur d'une tranche
inline constexpr int thread_m = Config::thread_m;  ///< lignes de C par thread
inline constexpr int thread_n = Config::thread_n;  ///< colonnes de C par thread
inline constexpr int threads = Config::threads;    ///< threads par bloc (256)

// --8<-- [start:indices]
// Qui touche quoi : l'analyse appelle les fonctions mêmes du noyau (common/vector_tiles.cuh
// pour le chargement, common/vectorized.cuh pour le carré de C de chaque thread).

/** @brief Qui charge quel float4 de A et de B : a_row, a_col, b_row, b_col. */
using Load = VectorTileLoad<block_m, block_n, block_k, threads>;
/** @brief Première ligne de C (dans la tuile du bloc) du carré 8×8 du thread @p tid. */
constexpr int c_row(int tid) { return square_row<block_n, thread_m, thread_n>(tid); }
/** @brief Première colonne de C du carré 8×8 du thread @p tid. */
constexpr int c_col(int tid) { return square_col<block_n, thread_n>(tid); }
// --8<-- [end:indices]

// --8<-- [start:dispositions]
/**
 * @brief Disposition de l'étape 7.
 *
 * A : lignes de 132 flottants. Les deux threads qui chargent une même ligne de A écrivent
 * des lignes kk distantes de 4 : la marge de 4 mots décale la seconde de 16 bancs.
 *
 * B : dans chaque ligne, les blocs de 4 flottants (16 octets) d'indice q sont permutés en
 * q ^ ((q / 8) % 2). Un thread lit 8 flottants contigus : les 8 threads d'un quart de warp
 * lisent les blocs 0, 2, …, 14, que la permutation répartit sur les 8 groupes de 4 bancs.
 */
struct ConflictFreeLayout {
    static constexpr int a_pitch = block_m + 4;         ///< ligne de A avec sa marge
    static constexpr int a_floats = block_k * a_pitch;  ///< taille de la tuile de A
    static constexpr int b_floats = block_k * block_n;  ///< taille de la tuile de B
    /** @brief Indice de l'élément (kk, mm) de la tuile de A transposée. */
    __host__ __device__ static constexpr int a(int kk, int mm) { return kk * a_pitch + mm; }
    /** @brief Indice de l'élément (kk, nn) de la tuile de B, blocs de 16 octets permutés. */
    __host__ __device__ static constexpr int b(int kk, int nn) {
        const int block = nn / 4;
        return kk * block_n + 4 * (block ^ ((block / 8) % 2)) + nn % 4;
    }
};
// --8<-- [end:dispositions]

// Les lignes restent multiples de 16 octets : les float4 y sont alignés.
static_assert(ConflictFreeLayout::a_pitch % 4 == 0);

// --8<-- [start:analyse]
// Le modèle (bancs, phases, passes, degré de conflit) est dans common/bank_model.hpp : les
// étapes suivantes le réutilisent pour vérifier leurs propres dispositions.
using namespace bank_model;

/** @brief Les accès du noyau à la mémoire partagée, pour une tuile K. */
enum class SharedAccess {
    a_store,  ///< écriture de A transposée : quatre STS.32 par thread
    b_store,  ///< écriture de B : un STS.128 par thread
    a_read,   ///< lecture de A dans la boucle interne : deux LDS.128 par pas kk
    b_read,   ///< lecture de B dans la boucle interne : deux LDS.128 par pas kk
};

/**
 * @brief Mots touchés par un warp lors d'un accès, avec la disposition @p Layout.
 * @param which l'accès
 * @param warp le warp du bloc (0 à 7)
 * @param step composante du float4 de A écrite (0 à 3), ou, pour les lectures,
 *             2·kk + 0 ou 1 selon le float4 lu (0 à 15) ; ignoré pour b_store
 */
template <typename Layout>
constexpr WarpAccess warp_access(SharedAccess which, int warp, int step) {
    WarpAccess access;
    access.width = which == SharedAccess::a_store ? 1 : 4;
    const int kk = step / 2, offset = 4 * (step % 2);  // lectures : premier ou second float4
    for (int lane = 0; lane < warp_size; ++lane) {
        const int tid = warp * warp_size + lane;
        switch (which) {
            case SharedAccess::a_store:
                access.word[lane] = Layout::a(Load::a_col(tid) + step, Load::a_row(tid));
                break;
            case SharedAccess::b_store:
                access.word[lane] = Layout::b(Load::b_row(tid), Load::b_col(tid));
                break;
            case SharedAccess::a_read:
                access.word[lane] = Layout::a(kk, c_row(tid) + offset);
                break;
            case SharedAccess::b_read:
                access.word[lane] = Layout::b(kk, c_col(tid) + offset);
                break;
        }
    }
    return access;
}

/** @brief Nombre de valeurs de `step` pour l'accès @p which (voir warp_access). */
constexpr int access_steps(SharedAccess which) {
    return which == SharedAccess::a_store ? 4 : which == SharedAccess::b_store ? 1 : 2 * block_k;
}

/** @brief Pire degré de conflit de l'accès @p which, sur tous les warps du bloc et tous les pas. */
template <typename Layout>
constexpr int worst_conflict_degree(SharedAccess which) {
    int worst = 1;
    for (int warp = 0; warp < threads / warp_size; ++warp)
        for (int step = 0; step < access_steps(which); ++step)
            worst = std::max(worst, conflict_degree(warp_access<Layout>(which, warp, step)));
    return worst;
}

/** @brief Passes de l'accès @p which pour une tuile K, par le warp @p warp. */
template <typename Layout>
constexpr int passes_per_tile(SharedAccess which, int warp) {
    int total = 0;
    for (int step = 0; step < access_steps(which); ++step)
        total += passes(warp_access<Layout>(which, warp, step));
    return total;
}
// --8<-- [end:analyse]

}  // namespace conflict_free

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C : le noyau de l'étape 6 (common/vectorized.cuh), dont les tuiles en
 *        mémoire partagée suivent conflict_free::ConflictFreeLayout ; ni les écritures de A
 *        transposée ni les lectures de B ne se disputent un banc. C garde sa disposition : la
 *        permutation ne concerne que la mémoire partagée.
 */
__global__ void __launch_bounds__(conflict_free::threads)
    sgemm_bank_conflict_free([[maybe_unused]] int m, int n, int k, float alpha,
                             const float* __restrict__ a, const float* __restrict__ b, float beta,
                             float* __restrict__ c) {
    using namespace conflict_free;
    vectorized_block_gemm<block_m, block_n, block_k, thread_m, thread_n, ConflictFreeLayout>(
        n, k, alpha, a, b, beta, c);
}
// --8<-- [end:noyau]

/** @brief L'étape 7 pour le lanceur, les tests et le benchmark communs (TiledStep, common/kernel.cuh). */
struct BankConflictFreeKernel : TiledStep<BankConflictFreeKernel, VectorizedConfig, 16> {
    static constexpr const char* name = "sgemm_bank_conflict_free";  ///< nom affiché
    static constexpr auto kernel = sgemm_bank_conflict_free;         ///< le noyau lancé
};

}  // namespace noyaux::gemm
