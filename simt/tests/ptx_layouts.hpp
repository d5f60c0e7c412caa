// Correspondances élément → thread des fragments d'Ampere, écrites deux fois à partir de deux
// descriptions publiques indépendantes, pour les tests du PTX en ligne (test_ptx_*.cu) :
//
// 1. le PTX ISA (PTX ISA 8.x, section 9.7.14.5.8 « Matrix Fragments for mma.m16n8k16 with
//    floating point type », 9.7.14.5.7 « … mma.m16n8k8 » pour .tf32, et 9.7.14.5.15
//    « ldmatrix », figures des fragments), sous forme de formules en groupID = lane / 4 et
//    threadID_in_group = lane % 4 ;
// 2. CuTe (CUTLASS, include/cute/atom/mma_traits_sm80.hpp : ALayout, BLayout, CLayout de
//    SM80_16x8x16_F16F16F16F16_TN, dont hérite la variante bf16, et de
//    SM80_16x8x8_F32TF32TF32F32_TN ; include/cute/atom/copy_traits_sm75.hpp : DstLayout de
//    SM75_U32x4_LDSM_N et SM75_U16x8_LDSM_T), sous forme de couples (forme, pas) : une
//    disposition CuTe envoie (thread, valeur) sur un indice, coordonnées décomposées premier
//    mode d'abord. Seuls les nombres sont repris, pour les évaluer ici.
#pragma once

#include <array>
#include <utility>
#include <vector>

namespace ptx_layouts {

/** @brief Ligne et colonne d'un élément dans sa matrice. */
struct Coord {
    int row, col;
    bool operator==(const Coord&) const = default;
};

// ---- 1. PTX ISA ------------------------------------------------------------------------------

/** A de m16n8k16 (16×16, .row) : valeur v = 2·registre + moitié. */
inline Coord isa_a_m16n8k16(int lane, int v) {
    const int group = lane / 4, t = lane % 4;
    const int row = (v % 4 < 2) ? group : group + 8;      // a0,a1,a4,a5 : groupID ; a2,a3,a6,a7 : +8
    const int col = t * 2 + (v & 1) + (v >= 4 ? 8 : 0);   // i < 4 : 2t + (i & 1) ; sinon + 8
    return {row, col};
}
/** B de m16n8k16 (16×8, .col) : ligne = k, colonne = n. */
inline Coord isa_b_m16n8k16(int lane, int v) {
    const int group = lane / 4, t = lane % 4;
    return {t * 2 + (v & 1) + (v >= 2 ? 8 : 0), group};
}
/** C/D (16×8) de m16n8k16 et m16n8k8. */
inline Coord isa_c_m16n8(int lane, int v) {
    const int group = lane / 4, t = lane % 4;
    return {v < 2 ? group : group + 8, t * 2 + (v & 1)};
}
/** A de m16n8k8 .tf32 (16×8). */
inline Coord isa_a_m16n8k8_tf32(int lane, int v) {
    const int group = lane / 4, t = lane % 4;
    return {(v == 0 || v == 2) ? group : group + 8, v < 2 ? t : t + 4};
}
/** B de m16n8k8 .tf32 (8×8). */
inline Coord isa_b_m16n8k8_tf32(int lane, int v) {
    const int group = lane / 4, t = lane % 4;
    return {v == 0 ? t : t + 4, group};
}
/** ldmatrix .m8n8.b16 : élément (ligne, colonne) de la matrice du registre, moitié h. */
inline Coord isa_ldmatrix(int lane, int h, bool transpose) {
    const int group = lane / 4, t = lane % 4;
    return transpose ? Coord{2 * t + h, group} : Coord{group, 2 * t + h};
}

// ---- 2. CuTe -----------------------------------------------------------------------------

/** @brief Une disposition CuTe à un niveau d'imbrication : modes (taille, pas) aplatis. */
struct CuteLayout {
    std::vector<std::pair<int, int>> thread;  // mode « thread », premier sous-mode d'abord
    std::vector<std::pair<int, int>> value;   // mode « valeur »
    int operator()(int t, int v) const {
        int index = 0;
        for (auto [size, stride] : thread) index += (t % size) * stride, t /= size;
        for (auto [size, stride] : value) index += (v % size) * stride, v /= size;
        return index;
    }
};

// mma_traits_sm80.hpp : (T32, V) → indice colonne d'abord dans (M, K), (N, K) ou (M, N).
inline const CuteLayout cute_a_16x16{{{4, 32}, {8, 1}}, {{2, 16}, {2, 8}, {2, 128}}};  // ALayout
inline const CuteLayout cute_b_8x16{{{4, 16}, {8, 1}}, {{2, 8}, {2, 64}}};             // BLayout
inline const CuteLayout cute_c_16x8{{{4, 32}, {8, 1}}, {{2, 16}, {2, 8}}};             // SM80_16x8_Row
inline const CuteLayout cute_a_tf32_16x8{{{4, 16}, {8, 1}}, {{2, 8}, {2, 64}}};        // ALayout tf32
inline const CuteLayout cute_b_tf32_8x8{{{4, 8}, {8, 1}}, {{2, 32}}};                  // BLayout tf32
// copy_traits_sm75.hpp, DstLayout : (T32, bit de la valeur) → bit dans les lignes fournies
// bout à bout (128 bits par ligne, SrcLayout).
inline const CuteLayout cute_ldsm_n_x4{{{32, 32}}, {{32, 1}, {4, 1024}}};
inline const CuteLayout cute_ldsm_t_x4{{{4, 256}, {8, 16}}, {{16, 1}, {2, 128}, {4, 1024}}};

/** (M, K) colonne d'abord → Coord, pour une matrice de @p rows lignes. */
inline Coord column_major(int index, int rows) { return {index % rows, index / rows}; }

}  // namespace ptx_layouts
