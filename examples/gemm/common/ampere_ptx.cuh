/**
 * @file
 * @brief Enveloppes du PTX d'Ampere (sm_80) que CUDA C++ n'expose pas directement : copies
 *        asynchrones `cp.async` de 16 octets et leurs groupes, `ldmatrix` (quatre matrices
 *        8×8 de 16 bits, transposées ou non) et `mma.sync` m16n8k16 bf16 → fp32. Une
 *        instruction par fonction ; les dispositions des fragments sont celles du PTX ISA
 *        (section « Matrix fragments for mma.m16n8k16 »). L'émulateur simt les exécute.
 */
#pragma once

#include <cstdint>

namespace noyaux::gemm::ptx {

/** @brief Adresse dans l'espace partagé (32 bits) d'un pointeur générique vers la mémoire partagée. */
__device__ __forceinline__ std::uint32_t shared_address(const void* pointer) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

// --8<-- [start:cp-async]
/**
 * @brief Copie asynchrone de 16 octets de la mémoire globale vers la mémoire partagée, sans
 *        passer par les registres ; `.cg` : la donnée n'est gardée qu'en L2, pas en L1, car
 *        le bloc la relit en mémoire partagée. Les deux adresses sont alignées sur 16 octets.
 */
__device__ __forceinline__ void cp_async_16(std::uint32_t destination, const void* source) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(destination), "l"(source));
}

/** @brief Ferme le groupe des copies asynchrones lancées depuis le précédent (un groupe peut être vide). */
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

/** @brief Attend que tous les groupes du thread soient arrivés, sauf les @p Pending plus récents. */
template <int Pending>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending));
}
// --8<-- [end:cp-async]

// --8<-- [start:ldmatrix-mma]
/**
 * @brief Quatre matrices 8×8 de 16 bits : les lanes 8·i à 8·i + 7 donnent les adresses des
 *        8 lignes (16 octets chacune) de la matrice i, qui arrive dans @p d [i] ; la lane l en
 *        reçoit les éléments (l / 4, 2·(l % 4)) et (l / 4, 2·(l % 4) + 1).
 */
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&d)[4], std::uint32_t address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(address));
}

/** @brief ldmatrix_x4, chaque matrice transposée : la lane l reçoit (2·(l % 4), l / 4) et (2·(l % 4) + 1, l / 4). */
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&d)[4], std::uint32_t address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(address));
}

/**
 * @brief D ← A·B + D pour un warp : A 16×16 (4 registres de deux bf16, en ligne), B 16×8
 *        (2 registres, en colonne), D 16×8 en fp32 (4 flottants par lane).
 */
__device__ __forceinline__ void mma_bf16_16816(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                               std::uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
// --8<-- [end:ldmatrix-mma]

}  // namespace noyaux::gemm::ptx
