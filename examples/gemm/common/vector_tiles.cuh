/**
 * @file
 * @brief Accès de 128 bits communs aux étapes 6 à 10 de l'échelle GEMM : lecture et écriture
 *        par float4, disposition des tuiles en mémoire partagée (A transposée), chargement
 *        d'une tranche de K, produit d'une tranche et écriture de C.
 */
#pragma once

#include <cuda_runtime.h>

namespace noyaux::gemm {

/** @brief Lit quatre flottants consécutifs, alignés sur 16 octets, en un accès de 128 bits. */
__device__ __forceinline__ float4 load4(const float* p) {
    return *reinterpret_cast<const float4*>(p);
}

/** @brief Écrit quatre flottants consécutifs, alignés sur 16 octets, en un accès de 128 bits. */
__device__ __forceinline__ void store4(float* p, float4 v) {
    *reinterpret_cast<float4*>(p) = v;
}

/** @brief Range les quatre flottants de @p v dans out[0] à out[3]. */
__device__ __forceinline__ void unpack4(float4 v, float* out) {
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
    out[3] = v.w;
}

// --8<-- [start:disposition]
/**
 * @brief Disposition des tuiles en mémoire partagée : A transposée (a(kk, mm) : colonne kk de
 *        la tranche, ligne mm du bloc), en lignes de BM + PAD flottants ; B telle quelle.
 *
 * Transposée, la colonne kk de A devient une ligne : les TM valeurs qu'un thread en lit à
 * chaque pas sont contiguës, lisibles par float4. PAD décale les lignes de A d'une ligne à la
 * suivante (l'étape 7 dit pourquoi) ; il reste multiple de 4 pour garder les float4 alignés.
 */
template <int BM, int BN, int BK, int PAD = 0>
struct TransposedLayout {
    static_assert(PAD % 4 == 0, "lignes de A alignées sur 16 octets");
    static constexpr int a_pitch = BM + PAD;            ///< ligne de A, marge comprise
    static constexpr int a_floats = BK * a_pitch;       ///< taille de la tuile de A
    static constexpr int b_floats = BK * BN;            ///< taille de la tuile de B
    /** @brief Indice de l'élément (kk, mm) de la tuile de A transposée. */
    __host__ __device__ static constexpr int a(int kk, int mm) { return kk * a_pitch + mm; }
    /** @brief Indice de l'élément (kk, nn) de la tuile de B. */
    __host__ __device__ static constexpr int b(int kk, int nn) { return kk * BN + nn; }
};
// --8<-- [end:disposition]

// --8<-- [start:permutation]
/**
 * @brief Disposition sans conflit de banc des étapes 8 et 9, pour toute tranche BK ≤ 32 que
 *        charge VectorTileLoad : A transposée sans marge, dont chaque ligne kk est permutée par
 *        un « ou exclusif », et B aux blocs de 16 octets permutés comme à l'étape 7.
 *
 * À chaque écriture de A, un warp écrit 32/G lignes mm consécutives (G = BK/4 threads par
 * ligne de A) dans G lignes kk distantes de 4 : la marge de l'étape 7 ne sépare que deux
 * lignes kk (écart de 16 bancs), pas quatre. Le « ou exclusif » de mm avec (32/G)·((kk/4) mod G)
 * envoie chacune des G lignes kk sur son propre groupe de 32/G bancs. C'est un multiple de 4 :
 * les float4 lus restent contigus et alignés, et une lecture (kk fixé) ne fait que permuter
 * ses bancs, sans en créer de conflit.
 */
template <int BM, int BN, int BK>
struct SwizzledLayout {
    static_assert(BK % 4 == 0 && BK <= 32, "au moins 4 lignes mm par groupe de bancs");
    static_assert(BM % 32 == 0 && BN % 4 == 0, "le ou exclusif reste dans la ligne de A");
    static constexpr int a_floats = BK * BM;  ///< taille de la tuile de A
    static constexpr int b_floats = BK * BN;  ///< taille de la tuile de B
    static constexpr int rows_per_group = 32 / (BK / 4);  ///< lignes mm par groupe de bancs
    /** @brief Indice de l'élément (kk, mm) de la tuile de A transposée, mm permuté selon kk. */
    __host__ __device__ static constexpr int a(int kk, int mm) {
        return kk * BM + (mm ^ (rows_per_group * ((kk / 4) % (BK / 4))));
    }
    /** @brief Indice de l'élément (kk, nn) de la tuile de B, blocs de 16 octets permutés. */
    __host__ __device__ static constexpr int b(int kk, int nn) {
        const int block = nn / 4;
        return kk * BN + 4 * (block ^ ((block / 8) % 2)) + nn % 4;
    }
};
// --8<-- [end:permutation]

// --8<-- [start:lignes]
/**
 * @brief Disposition sans conflit de banc de l'étape 10 : A rangée par lignes (comme en
 *        mémoire globale, ce que permettent des copies de 16 octets), B comme SwizzledLayout.
 *
 * Une ligne mm de A compte BK flottants, en BK/4 blocs de 16 octets. Un warp du tuilage par
 * warp lit, dans une même phase de 8 lanes, le même bloc de deux lignes distantes de ROWS
 * (la hauteur TM du carré d'un thread) : sans permutation, les deux tomberaient sur les mêmes
 * bancs. Le bloc q de la ligne mm est donc rangé à la place q ⊕ ((mm / ROWS) mod (BK/4)).
 */
template <int BM, int BN, int BK, int ROWS>
struct RowMajorALayout {
    static_assert(BK % 4 == 0 && BN % 4 == 0, "blocs de 16 octets");
    static constexpr int a_floats = BM * BK;  ///< taille de la tuile de A
    static constexpr int b_floats = BK * BN;  ///< taille de la tuile de B
    /** @brief Indice de l'élément (kk, mm) de la tuile de A, rangée par lignes, blocs permutés. */
    __host__ __device__ static constexpr int a(int kk, int mm) {
        return mm * BK + 4 * ((kk / 4) ^ ((mm / ROWS) % (BK / 4))) + kk % 4;
    }
    /** @brief Indice de l'élément (kk, nn) de la tuile de B, blocs de 16 octets permutés. */
    __host__ __device__ static constexpr int b(int kk, int nn) { return SwizzledLayout<BM, BN, BK>::b(kk, nn); }
};
// --8<-- [end:lignes]

// --8<-- [start:morceaux]
/**
 * @brief Qui copie quoi dans une tuile ROWS×COLS copiée par morceaux de 16 octets (PER_CHUNK
 *        éléments) par les THREADS threads d'un bloc : la copie avance par passes de
 *        rows_per_pass lignes, et dans une passe des threads voisins copient des morceaux
 *        voisins d'une même ligne (lectures coalescées). Sert aux étapes SIMT (float, 4 par
 *        morceau, VectorTileLoad) comme à l'étape 12 (bf16, 8 par morceau).
 */
template <int ROWS, int COLS, int PER_CHUNK, int THREADS>
struct ChunkedCopy {
    static_assert(COLS % PER_CHUNK == 0, "lignes faites de morceaux de 16 octets entiers");
    static constexpr int chunks_per_row = COLS / PER_CHUNK;          ///< morceaux par ligne
    static constexpr int rows_per_pass = THREADS / chunks_per_row;  ///< lignes par passe
    static_assert(THREADS % chunks_per_row == 0 && ROWS % rows_per_pass == 0, "passes entières");

    /** @brief Ligne, dans la tuile, du premier morceau copié par le thread @p tid. */
    __host__ __device__ static constexpr int row(int tid) { return tid / chunks_per_row; }
    /** @brief Première colonne du morceau copié par le thread @p tid (la même à chaque passe). */
    __host__ __device__ static constexpr int col(int tid) { return PER_CHUNK * (tid % chunks_per_row); }

    /**
     * @brief Copie telle quelle la tuile dont @p src pointe le coin (matrice en ligne de
     *        largeur @p ld) : l'élément (ligne, colonne) va en tile[index(ligne, colonne)].
     *        Une lecture et une écriture de 128 bits par morceau.
     */
    template <typename T, typename Index>
    __device__ static void copy(T* tile, Index index, const T* __restrict__ src, int ld) {
        static_assert(sizeof(T) * PER_CHUNK == 16, "morceaux de 16 octets");
        const int tid = static_cast<int>(threadIdx.x);
        for (int pass = 0; pass < ROWS; pass += rows_per_pass) {
            const int r = row(tid) + pass;
            *reinterpret_cast<uint4*>(&tile[index(r, col(tid))]) =
                *reinterpret_cast<const uint4*>(&src[r * ld + col(tid)]);
        }
    }
};
// --8<-- [end:morceaux]

// --8<-- [start:chargement]
/**
 * @brief Chargement d'une tranche BK de A (BM×BK) et de B (BK×BN) par les THREADS threads
 *        d'un bloc, un float4 à la fois : qui charge quoi (ChunkedCopy), et la copie elle-même.
 */
template <int BM, int BN, int BK, int THREADS>
struct VectorTileLoad {
    static_assert(BK % 4 == 0 && BN % 4 == 0, "lignes de A et de B lues par float4");
    using ACopy = ChunkedCopy<BM, BK, 4, THREADS>;  ///< qui copie quoi dans la tranche de A
    using BCopy = ChunkedCopy<BK, BN, 4, THREADS>;  ///< qui copie quoi dans la tranche de B
    static constexpr int a_rows_per_pass = ACopy::rows_per_pass;  ///< lignes de A par passe
    static constexpr int b_rows_per_pass = BCopy::rows_per_pass;  ///< lignes de B par passe

    /** @brief Ligne (dans la tranche) du premier float4 de A chargé par le thread @p tid. */
    __host__ __device__ static constexpr int a_row(int tid) { return ACopy::row(tid); }
    /** @brief Première colonne du float4 de A chargé par le thread @p tid. */
    __host__ __device__ static constexpr int a_col(int tid) { return ACopy::col(tid); }
    /** @brief Ligne du premier float4 de B chargé par le thread @p tid. */
    __host__ __device__ static constexpr int b_row(int tid) { return BCopy::row(tid); }
    /** @brief Première colonne du float4 de B chargé par le thread @p tid. */
    __host__ __device__ static constexpr int b_col(int tid) { return BCopy::col(tid); }

    /**
     * @brief Copie la tranche dans les tuiles, rangées selon @p Layout : @p a pointe sur sa
     *        première colonne (A de largeur @p k), @p b sur sa première ligne (B de largeur @p n).
     *        Chaque float4 de A est éclaté en quatre écritures de 32 bits (la transposition) ;
     *        ceux de B sont recopiés d'un tenant.
     */
    template <typename Layout>
    __device__ static void load(const float* __restrict__ a, int k, const float* __restrict__ b,
                                int n, float* a_tile, float* b_tile) {
        const int tid = static_cast<int>(threadIdx.x);
        for (int pass = 0; pass < BM; pass += a_rows_per_pass) {
            const int row = a_row(tid) + pass;
            const float4 v = load4(&a[row * k + a_col(tid)]);
            a_tile[Layout::a(a_col(tid) + 0, row)] = v.x;
            a_tile[Layout::a(a_col(tid) + 1, row)] = v.y;
            a_tile[Layout::a(a_col(tid) + 2, row)] = v.z;
            a_tile[Layout::a(a_col(tid) + 3, row)] = v.w;
        }
        for (int pass = 0; pass < BK; pass += b_rows_per_pass) {
            const int row = b_row(tid) + pass;
            store4(&b_tile[Layout::b(row, b_col(tid))], load4(&b[row * n + b_col(tid)]));
        }
    }
};
// --8<-- [end:chargement]

// --8<-- [start:produit]
/**
 * @brief Produit d'une tranche BK pour les TM×TN éléments d'un thread (lignes @p c_row +
 *        [0, TM), colonnes @p c_col + [0, TN) du bloc) : à chaque pas kk, TM valeurs de A et
 *        TN de B lues par float4, puis leur produit extérieur dans @p acc (acc[i·TN + j]).
 */
template <typename Layout, int BK, int TM, int TN>
__device__ __forceinline__ void multiply_slice(const float* a_tile, const float* b_tile, int c_row,
                                               int c_col, float* acc) {
    static_assert(TM % 4 == 0 && TN % 4 == 0, "valeurs lues par float4");
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
        float a_frag[TM];
        float b_frag[TN];
#pragma unroll
        for (int i = 0; i < TM; i += 4) unpack4(load4(&a_tile[Layout::a(kk, c_row + i)]), &a_frag[i]);
#pragma unroll
        for (int j = 0; j < TN; j += 4) unpack4(load4(&b_tile[Layout::b(kk, c_col + j)]), &b_frag[j]);
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j) acc[i * TN + j] += a_frag[i] * b_frag[j];
    }
}
// --8<-- [end:produit]

// --8<-- [start:epilogue]
/**
 * @brief C ← α·acc + β·C pour TM×TN éléments d'un thread, lus (si β ≠ 0) et écrits par float4 ; @p c
 *        pointe sur le premier, dans C de largeur @p n ; acc[i·STRIDE + j] (STRIDE : TN si
 *        le thread n'a qu'un carré de résultats).
 */
template <int TM, int TN, int STRIDE = TN>
__device__ __forceinline__ void update_c4(float* c, int n, float alpha, float beta, const float* acc) {
    static_assert(TN % 4 == 0, "C écrite par float4");
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
            float* out = &c[i * n + j];
            const float* in = &acc[i * STRIDE + j];
            if (beta == 0.0f) {  // C n'est pas lu : un NaN de C non initialisé ne se propage pas
                store4(out, make_float4(alpha * in[0], alpha * in[1], alpha * in[2], alpha * in[3]));
                continue;
            }
            const float4 old = load4(out);
            store4(out, make_float4(alpha * in[0] + beta * old.x, alpha * in[1] + beta * old.y,
                                    alpha * in[2] + beta * old.z, alpha * in[3] + beta * old.w));
        }
}
// --8<-- [end:epilogue]

}  // namespace noyaux::gemm
