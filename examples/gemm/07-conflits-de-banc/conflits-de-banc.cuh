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

#include "gemm/common/kernel.cuh"
#include "gemm/common/vectorized.cuh"

#include <algorithm>
#include <array>

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
inline constexpr int warp_size = 32;   ///< lanes d'un warp
inline constexpr int bank_count = 32;  ///< bancs de 4 octets de la mémoire partagée

/** @brief Accès d'un warp à la mémoire partagée : premier mot (4 octets) de chaque lane. */
struct WarpAccess {
    std::array<int, warp_size> word{};  ///< indice, en flottants, du premier mot de chaque lane
    int width = 1;                      ///< mots par lane : 1 (32 bits) ou 4 (128 bits)
};

/** @brief Banc du premier mot de chaque lane : (adresse / 4) mod 32. */
constexpr std::array<int, warp_size> banks(const WarpAccess& access) {
    std::array<int, warp_size> result{};
    for (int lane = 0; lane < warp_size; ++lane) result[lane] = access.word[lane] % bank_count;
    return result;
}

/**
 * @brief Passes nécessaires à une phase d'un accès : le plus grand nombre de mots distincts
 *        qu'un même banc doit y servir (1 : aucun conflit).
 * @param access l'accès du warp
 * @param first première lane de la phase
 *
 * Modèle : une passe transfère au plus 128 octets, un mot par banc. Un accès de 32 bits
 * forme une seule phase de 32 lanes ; un accès de 128 bits, quatre phases de 8 lanes
 * consécutives. Un mot lu par plusieurs lanes est diffusé : il ne compte qu'une fois.
 */
constexpr int phase_passes(const WarpAccess& access, int first) {
    std::array<int, bank_count> words_per_bank{};
    std::array<int, warp_size> seen{};  // mots de la phase déjà comptés
    int seen_count = 0, most = 1;
    for (int lane = first; lane < first + warp_size / access.width; ++lane)
        for (int i = 0; i < access.width; ++i) {
            const int word = access.word[lane] + i;
            if (std::find(seen.begin(), seen.begin() + seen_count, word) != seen.begin() + seen_count)
                continue;
            seen[seen_count++] = word;
            most = std::max(most, ++words_per_bank[word % bank_count]);
        }
    return most;
}

/** @brief Degré de conflit d'un accès : le pire nombre de passes de ses phases (1 : aucun). */
constexpr int conflict_degree(const WarpAccess& access) {
    int degree = 1;
    for (int first = 0; first < warp_size; first += warp_size / access.width)
        degree = std::max(degree, phase_passes(access, first));
    return degree;
}

/** @brief Passes d'un accès, toutes phases comprises : 1 au mieux en 32 bits, 4 en 128 bits. */
constexpr int passes(const WarpAccess& access) {
    int total = 0;
    for (int first = 0; first < warp_size; first += warp_size / access.width)
        total += phase_passes(access, first);
    return total;
}

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
