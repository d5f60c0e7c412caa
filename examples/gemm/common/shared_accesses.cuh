/**
 * @file
 * @brief Les accès à la mémoire partagée des étapes 6 à 10, décrits pour le modèle de bancs
 *        (bank_model.hpp) à partir des fonctions d'indice mêmes des noyaux : qui charge quoi
 *        (VectorTileLoad), qui lit quoi (carrés TM×TN ou tuilage par warp), et la disposition.
 *        Les tests de chaque étape y vérifient qu'aucun accès n'est en conflit.
 */
#pragma once

#include "bank_model.hpp"
#include "vector_tiles.cuh"
#include "vectorized.cuh"
#include "warptiling.cuh"

#include <tuple>

namespace noyaux::gemm::bank_model {

/** @brief Écriture de A transposée par VectorTileLoad : quatre écritures de 32 bits par float4 et par passe. */
template <typename Layout, int BM, int BN, int BK, int THREADS>
struct TransposedAStore {
    using Load = VectorTileLoad<BM, BN, BK, THREADS>;  ///< qui charge quoi (celui du noyau)
    static constexpr const char* name = "écriture de A transposée";  ///< pour les messages
    static constexpr int threads = THREADS;                          ///< threads du bloc
    static constexpr int steps = 4 * (BM / Load::a_rows_per_pass);  ///< composantes × passes
    static constexpr int width = 1;                                  ///< 32 bits
    /** @brief Mot écrit par le thread @p tid au pas @p step. */
    static constexpr int word(int tid, int step) {
        return Layout::a(Load::a_col(tid) + step % 4, Load::a_row(tid) + step / 4 * Load::a_rows_per_pass);
    }
};

/** @brief Écriture de B par VectorTileLoad (ou par copies asynchrones de 16 octets) : un float4 par passe. */
template <typename Layout, int BM, int BN, int BK, int THREADS>
struct BStore {
    using Load = VectorTileLoad<BM, BN, BK, THREADS>;  ///< qui charge quoi (celui du noyau)
    static constexpr const char* name = "écriture de B";  ///< pour les messages
    static constexpr int threads = THREADS;               ///< threads du bloc
    static constexpr int steps = BK / Load::b_rows_per_pass;  ///< passes
    static constexpr int width = 4;                       ///< 128 bits
    /** @brief Premier mot écrit par le thread @p tid à la passe @p step. */
    static constexpr int word(int tid, int step) {
        return Layout::b(Load::b_row(tid) + step * Load::b_rows_per_pass, Load::b_col(tid));
    }
};

/** @brief Lecture de A des étapes 6 à 8 : à chaque pas kk, les TM lignes du carré du thread, par float4. */
template <typename Layout, int BN, int BK, int TM, int TN, int THREADS>
struct SquareARead {
    static constexpr const char* name = "lecture de A";  ///< pour les messages
    static constexpr int threads = THREADS;              ///< threads du bloc
    static constexpr int steps = BK * (TM / 4);          ///< pas kk × float4
    static constexpr int width = 4;                      ///< 128 bits
    /** @brief Premier mot lu par le thread @p tid au pas @p step. */
    static constexpr int word(int tid, int step) {
        return Layout::a(step / (TM / 4), square_row<BN, TM, TN>(tid) + 4 * (step % (TM / 4)));
    }
};

/** @brief Lecture de B des étapes 6 à 8 : à chaque pas kk, les TN colonnes du carré du thread. */
template <typename Layout, int BN, int BK, int TM, int TN, int THREADS>
struct SquareBRead {
    static constexpr const char* name = "lecture de B";  ///< pour les messages
    static constexpr int threads = THREADS;              ///< threads du bloc
    static constexpr int steps = BK * (TN / 4);          ///< pas kk × float4
    static constexpr int width = 4;                      ///< 128 bits
    /** @brief Premier mot lu par le thread @p tid au pas @p step. */
    static constexpr int word(int tid, int step) {
        return Layout::b(step / (TN / 4), square_col<BN, TN>(tid) + 4 * (step % (TN / 4)));
    }
};

/** @brief Lecture de A transposée par le tuilage par warp (étape 9) : à chaque pas kk, par float4. */
template <typename Layout, typename Config>
struct WarpTransposedARead {
    using Tile = WarpTileOf<Config>;  ///< la géométrie de warp du noyau
    static constexpr int vectors = Tile::WMITER * Config::thread_m / 4;  ///< float4 par pas kk
    static constexpr const char* name = "lecture de A";                   ///< pour les messages
    static constexpr int threads = Config::threads;                       ///< threads du bloc
    static constexpr int steps = Config::block_k * vectors;               ///< pas kk × float4
    static constexpr int width = 4;                                       ///< 128 bits
    /** @brief Premier mot lu par le thread @p tid au pas @p step. */
    static constexpr int word(int tid, int step) {
        const int v = step % vectors, per_row = Config::thread_m / 4;
        return Layout::a(step / vectors, Tile(tid).a_row(v / per_row) + 4 * (v % per_row));
    }
};

/** @brief Lecture de B par le tuilage par warp (étapes 9 et 10) : à chaque pas kk, par float4. */
template <typename Layout, typename Config>
struct WarpBRead {
    using Tile = WarpTileOf<Config>;  ///< la géométrie de warp du noyau
    static constexpr int vectors = Config::warp_n_iterations * Config::thread_n / 4;  ///< float4 par pas
    static constexpr const char* name = "lecture de B";      ///< pour les messages
    static constexpr int threads = Config::threads;          ///< threads du bloc
    static constexpr int steps = Config::block_k * vectors;  ///< pas kk × float4
    static constexpr int width = 4;                          ///< 128 bits
    /** @brief Premier mot lu par le thread @p tid au pas @p step. */
    static constexpr int word(int tid, int step) {
        const int v = step % vectors, per_col = Config::thread_n / 4;
        return Layout::b(step / vectors, Tile(tid).b_col(v / per_col) + 4 * (v % per_col));
    }
};

/** @brief Écriture de A rangée par lignes (étape 10) : un bloc de 16 octets par passe, copié tel quel. */
template <typename Layout, int BM, int BN, int BK, int THREADS>
struct RowMajorAStore {
    using Load = VectorTileLoad<BM, BN, BK, THREADS>;  ///< qui charge quoi (celui du noyau)
    static constexpr const char* name = "écriture de A";        ///< pour les messages
    static constexpr int threads = THREADS;                     ///< threads du bloc
    static constexpr int steps = BM / Load::a_rows_per_pass;    ///< passes
    static constexpr int width = 4;                             ///< 128 bits
    /** @brief Premier mot écrit par le thread @p tid à la passe @p step. */
    static constexpr int word(int tid, int step) {
        return Layout::a(Load::a_col(tid), Load::a_row(tid) + step * Load::a_rows_per_pass);
    }
};

/** @brief Lecture de A rangée par lignes par le tuilage par warp (étape 10) : 4 pas kk par float4. */
template <typename Layout, typename Config>
struct WarpRowMajorARead {
    using Tile = WarpTileOf<Config>;  ///< la géométrie de warp du noyau
    static constexpr int rows = Tile::WMITER * Config::thread_m;  ///< lignes de A par thread
    static constexpr const char* name = "lecture de A";           ///< pour les messages
    static constexpr int threads = Config::threads;               ///< threads du bloc
    static constexpr int steps = Config::block_k / 4 * rows;      ///< groupes de 4 pas × lignes
    static constexpr int width = 4;                               ///< 128 bits
    /** @brief Premier mot lu par le thread @p tid au pas @p step. */
    static constexpr int word(int tid, int step) {
        const int row = step % rows;
        return Layout::a(4 * (step / rows),
                         Tile(tid).a_row(row / Config::thread_m) + row % Config::thread_m);
    }
};

/** @brief Une liste d'accès (types ci-dessus), parcourue par les tests. */
template <typename... Accesses>
struct AccessList {};

}  // namespace noyaux::gemm::bank_model
