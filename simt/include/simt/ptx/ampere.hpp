/**
 * @file
 * @brief Instructions PTX d'Ampere (sm_80) : mma.sync (Tensor Cores, au niveau du warp),
 *        ldmatrix et cp.async. Les dispositions des fragments sont celles des figures du
 *        PTX ISA (section « Warp-level matrix fragment … for mma.m16n8k16 » / « mma.m16n8k8 »,
 *        et « ldmatrix ») ; voir src/ptx_ampere.cpp.
 */
#pragma once

#include "simt/ptx/base.hpp"

#include <array>
#include <cstdint>
#include <source_location>

namespace simt::ptx {

/** @brief Les formes de mma.sync.aligned émulées (disposition .row.col). */
enum class Mma {
    m16n8k16_f32_bf16,  ///< .m16n8k16.row.col.f32.bf16.bf16.f32
    m16n8k16_f32_f16,   ///< .m16n8k16.row.col.f32.f16.f16.f32
    m16n8k16_f16_f16,   ///< .m16n8k16.row.col.f16.f16.f16.f16
    m16n8k8_f32_tf32,   ///< .m16n8k8.row.col.f32.tf32.tf32.f32
};

/**
 * @brief mma.sync.aligned de toute une warp : D = A·B + C. Chaque lane passe ses registres de
 *        fragment (bits) ; les 32 lanes doivent l'exécuter.
 * @param kind forme de l'instruction
 * @param d registres de destination (4 pour un accumulateur f32, 2 pour f16)
 * @param a registres du fragment A (4)
 * @param b registres du fragment B (2)
 * @param c registres de l'accumulateur C (comme d)
 * @param where ligne citée par les diagnostics
 */
void mma_sync(Mma kind, std::array<std::uint32_t*, 4> d, std::array<std::uint32_t, 4> a,
              std::array<std::uint32_t, 2> b, std::array<std::uint32_t, 4> c,
              const std::source_location& where = std::source_location::current());

/**
 * @brief ldmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16 : les lanes 8j à 8j+7 donnent
 *        les adresses des 8 lignes (16 octets chacune) de la matrice j ; chaque lane reçoit,
 *        dans son registre j, deux éléments de la matrice j.
 * @param count nombre de matrices (1, 2 ou 4)
 * @param transpose vrai pour .trans
 * @param d registres de destination (les @p count premiers)
 * @param row_address adresse partagée de la ligne que fournit cette lane
 * @param where ligne citée par les diagnostics
 */
void ldmatrix(int count, bool transpose, std::array<std::uint32_t*, 4> d, std::uint32_t row_address,
              const std::source_location& where = std::source_location::current());

/**
 * @brief cp.async.ca/.cg.shared.global : copie asynchrone de @p copy_size octets, dont les
 *        @p copy_size − @p source_size derniers mis à zéro (src-size du PTX).
 * @param destination adresse partagée de la destination
 * @param source pointeur global de la source
 * @param copy_size 4, 8 ou 16 (16 seulement pour .cg)
 * @param source_size octets lus à la source (au plus copy_size)
 * @param where ligne citée par les diagnostics
 */
void cp_async(std::uint32_t destination, const void* source, std::uint64_t copy_size, std::uint64_t source_size,
              const std::source_location& where = std::source_location::current());

/** @brief cp.async.commit_group */
inline void cp_async_commit_group() { ::simt::detail::async_commit(); }
/** @brief cp.async.wait_group N : attend tous les groupes sauf les @p pending plus récents. */
inline void cp_async_wait_group(std::uint64_t pending) { ::simt::detail::async_wait_prior(pending); }
/** @brief cp.async.wait_all : commit_group puis wait_group 0 (PTX ISA). */
inline void cp_async_wait_all() {
    ::simt::detail::async_commit();
    ::simt::detail::async_wait_prior(0);
}

}  // namespace simt::ptx
