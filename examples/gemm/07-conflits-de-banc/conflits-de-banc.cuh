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

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace noyaux::gemm {

/** @brief Paramètres, dispositions et analyse des bancs propres à l'étape 7. */
namespace conflict_free {

inline constexpr int block_m = 128;    ///< lignes de C (et de A) traitées par un bloc
inline constexpr int block_n = 128;    ///< colonnes de C (et de B) traitées par un bloc
inline constexpr int block_k = 8;      ///< profondeur d'une tuile de A et de B
inline constexpr int thread_m = 8;     ///< lignes de C calculées par un thread
inline constexpr int thread_n = 8;     ///< colonnes de C calculées par un thread
/** @brief Threads par bloc : un par sous-tuile 8×8 de la tuile 128×128 de C (256). */
inline constexpr int threads = (block_m / thread_m) * (block_n / thread_n);

static_assert(block_m * block_k == 4 * threads && block_k * block_n == 4 * threads);
static_assert(thread_m == 8 && thread_n == 8);

// --8<-- [start:indices]
// Qui touche quoi : ces fonctions servent au noyau comme à l'analyse des bancs.

/** @brief Ligne de C (en sous-tuiles 8×8) calculée par le thread @p tid. */
__host__ __device__ constexpr int thread_row(int tid) { return tid / (block_n / thread_n); }
/** @brief Colonne de C (en sous-tuiles 8×8) calculée par le thread @p tid. */
__host__ __device__ constexpr int thread_col(int tid) { return tid % (block_n / thread_n); }
/** @brief Ligne du float4 de A chargé par le thread @p tid (deux threads par ligne de 8). */
__host__ __device__ constexpr int a_load_row(int tid) { return tid / (block_k / 4); }
/** @brief Première colonne du float4 de A chargé par le thread @p tid (0 ou 4). */
__host__ __device__ constexpr int a_load_col(int tid) { return 4 * (tid % (block_k / 4)); }
/** @brief Ligne du float4 de B chargé par le thread @p tid (un warp par ligne de 128). */
__host__ __device__ constexpr int b_load_row(int tid) { return tid / (block_n / 4); }
/** @brief Première colonne du float4 de B chargé par le thread @p tid. */
__host__ __device__ constexpr int b_load_col(int tid) { return 4 * (tid % (block_n / 4)); }
// --8<-- [end:indices]

// --8<-- [start:dispositions]
/** @brief Disposition de l'étape 6 : A transposée en lignes de 128 flottants, B telle quelle. */
struct PlainLayout {
    static constexpr int a_floats = block_k * block_m;  ///< taille de la tuile de A
    static constexpr int b_floats = block_k * block_n;  ///< taille de la tuile de B
    /** @brief Indice de l'élément (kk, mm) de la tuile de A transposée. */
    __host__ __device__ static constexpr int a(int kk, int mm) { return kk * block_m + mm; }
    /** @brief Indice de l'élément (kk, nn) de la tuile de B. */
    __host__ __device__ static constexpr int b(int kk, int nn) { return kk * block_n + nn; }
};

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
                access.word[lane] = Layout::a(a_load_col(tid) + step, a_load_row(tid));
                break;
            case SharedAccess::b_store:
                access.word[lane] = Layout::b(b_load_row(tid), b_load_col(tid));
                break;
            case SharedAccess::a_read:
                access.word[lane] = Layout::a(kk, thread_row(tid) * thread_m + offset);
                break;
            case SharedAccess::b_read:
                access.word[lane] = Layout::b(kk, thread_col(tid) * thread_n + offset);
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

/** @brief Lit quatre flottants consécutifs, alignés sur 16 octets, en un accès de 128 bits. */
__device__ __forceinline__ float4 load4(const float* p) { return *reinterpret_cast<const float4*>(p); }

/** @brief Écrit quatre flottants consécutifs, alignés sur 16 octets, en un accès de 128 bits. */
__device__ __forceinline__ void store4(float* p, float4 v) { *reinterpret_cast<float4*>(p) = v; }

}  // namespace conflict_free

// --8<-- [start:noyau]
/**
 * @brief C ← α·A·B + β·C ; le noyau de l'étape 6, dont les tuiles en mémoire partagée suivent
 *        conflict_free::ConflictFreeLayout : ni les écritures de A transposée ni les lectures
 *        de B ne se disputent un banc.
 */
__global__ void __launch_bounds__(conflict_free::threads)
    sgemm_bank_conflict_free([[maybe_unused]] int m, int n, int k, float alpha,
                             const float* __restrict__ a, const float* __restrict__ b, float beta,
                             float* __restrict__ c) {
    using namespace conflict_free;
    using Layout = ConflictFreeLayout;
    alignas(16) __shared__ float a_tile[Layout::a_floats];  // A transposée, lignes de 132
    alignas(16) __shared__ float b_tile[Layout::b_floats];  // B, blocs de 16 octets permutés

    const int tid = static_cast<int>(threadIdx.x);
    const int a_row = a_load_row(tid), a_col = a_load_col(tid);
    const int b_row = b_load_row(tid), b_col = b_load_col(tid);
    const int c_row = thread_row(tid) * thread_m, c_col = thread_col(tid) * thread_n;

    a += static_cast<int>(blockIdx.y) * block_m * k;
    b += static_cast<int>(blockIdx.x) * block_n;
    c += static_cast<int>(blockIdx.y) * block_m * n + static_cast<int>(blockIdx.x) * block_n;

    float acc[thread_m][thread_n] = {};
    for (int tile = 0; tile < k; tile += block_k) {
        const float4 a4 = load4(&a[a_row * k + tile + a_col]);
        a_tile[Layout::a(a_col + 0, a_row)] = a4.x;
        a_tile[Layout::a(a_col + 1, a_row)] = a4.y;
        a_tile[Layout::a(a_col + 2, a_row)] = a4.z;
        a_tile[Layout::a(a_col + 3, a_row)] = a4.w;
        // La permutation déplace des blocs de 16 octets entiers : le float4 reste d'un tenant.
        store4(&b_tile[Layout::b(b_row, b_col)], load4(&b[(tile + b_row) * n + b_col]));
        __syncthreads();

#pragma unroll
        for (int kk = 0; kk < block_k; ++kk) {
            const float4 a_lo = load4(&a_tile[Layout::a(kk, c_row)]);
            const float4 a_hi = load4(&a_tile[Layout::a(kk, c_row + 4)]);
            const float4 b_lo = load4(&b_tile[Layout::b(kk, c_col)]);
            const float4 b_hi = load4(&b_tile[Layout::b(kk, c_col + 4)]);
            const float a_frag[thread_m] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
            const float b_frag[thread_n] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
            for (int i = 0; i < thread_m; ++i)
#pragma unroll
                for (int j = 0; j < thread_n; ++j) acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();
    }

    // C garde la disposition de l'étape 6 : la permutation ne concerne que la mémoire partagée.
#pragma unroll
    for (int i = 0; i < thread_m; ++i) {
        float* row = &c[(c_row + i) * n + c_col];
#pragma unroll
        for (int j = 0; j < thread_n; j += 4) {
            const float4 old = load4(row + j);
            store4(row + j, make_float4(alpha * acc[i][j + 0] + beta * old.x,
                                        alpha * acc[i][j + 1] + beta * old.y,
                                        alpha * acc[i][j + 2] + beta * old.z,
                                        alpha * acc[i][j + 3] + beta * old.w));
        }
    }
}
// --8<-- [end:noyau]

/** @brief L'étape 7 pour le lanceur, les tests et le benchmark communs. */
struct BankConflictFreeKernel {
    static constexpr const char* name = "sgemm_bank_conflict_free";  ///< nom affiché
    /** @brief Multiples de la tuile du bloc : pas de bord ; N et K multiples de 4 au passage. */
    static constexpr Shape granularity{conflict_free::block_m, conflict_free::block_n,
                                       conflict_free::block_k};
    /** @brief Le noyau, pour vérifier qu'il a du code pour le GPU présent. */
    static const void* entry() { return reinterpret_cast<const void*>(sgemm_bank_conflict_free); }

    /** @brief Refuse un pointeur qui n'est pas aligné sur 16 octets : les float4 l'exigent. */
    static void check_alignment(const GemmArgs& args) {
        for (const void* pointer : {static_cast<const void*>(args.a), static_cast<const void*>(args.b),
                                    static_cast<const void*>(args.c)})
            if (reinterpret_cast<std::uintptr_t>(pointer) % 16 != 0)
                throw std::invalid_argument(std::string(name) +
                                            " : A, B et C doivent commencer à une adresse "
                                            "multiple de 16 octets (accès float4)");
    }

    /** @brief Une grille de tuiles 128×128 de C, 256 threads par bloc. */
    static void launch(const GemmArgs& args, cudaStream_t stream) {
        check_shape<BankConflictFreeKernel>(args.shape);
        check_alignment(args);
        const auto [m, n, k] = args.shape;
        const dim3 grid(n / conflict_free::block_n, m / conflict_free::block_m);
        sgemm_bank_conflict_free<<<grid, conflict_free::threads, 0, stream>>>(
            m, n, k, args.alpha, args.a, args.b, args.beta, args.c);
    }
};

}  // namespace noyaux::gemm
