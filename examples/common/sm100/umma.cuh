/**
 * @file
 * @brief Les instructions `tcgen05` de Blackwell (sm_100a) enveloppées une fois pour toutes,
 *        partagées par l'exemple 18 du glossaire et l'étape 20 de la GEMM : allocation de
 *        mémoire tensorielle, produit lancé par un thread, signal sur un mbarrier, lecture des
 *        lanes vers les registres, barrières d'ordre autour des synchronisations de threads.
 *
 * Chaque fonction n'a de corps que compilée pour sm_100a (`__CUDA_ARCH_FEAT_SM100_ALL`) ; les
 * noyaux qui les appellent se réduisent à un piège sur les autres architectures. Hors du
 * dossier common/ lui-même : l'émulateur simt refuse `tcgen05` dès la réécriture des sources,
 * et ce fichier n'est jamais réécrit.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace noyaux::umma {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM100_ALL)

/** @brief Adresse dans la fenêtre partagée (32 bits) d'un pointeur générique vers la mémoire partagée. */
__device__ __forceinline__ std::uint32_t shared_address(const void* pointer) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

// --8<-- [start:allocation]
/**
 * @brief Alloue @p Columns colonnes de mémoire tensorielle ; l'adresse obtenue est écrite en
 *        mémoire partagée à @p slot. Appelée par un warp entier, qui renonce ensuite au droit
 *        d'allouer encore (un autre CTA du SM peut alors allouer sans attendre celui-ci).
 */
template <std::uint32_t Columns>
__device__ __forceinline__ void allocate_columns(std::uint32_t* slot) {
    static_assert(Columns >= 32 && Columns <= 512 && (Columns & (Columns - 1)) == 0,
                  "une puissance de 2 entre 32 et 512 colonnes");
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(shared_address(slot)),
                 "n"(Columns)
                 : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
}

/** @brief Rend les @p Columns colonnes allouées à @p tmem ; par le warp qui les a allouées. */
template <std::uint32_t Columns>
__device__ __forceinline__ void free_columns(std::uint32_t tmem) {
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem), "n"(Columns) : "memory");
}
// --8<-- [end:allocation]

/** @brief Ordonne les opérations tcgen05 qui précèdent avant la synchronisation de threads qui suit. */
__device__ __forceinline__ void fence_before_thread_sync() {
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}

/** @brief Ordonne les opérations tcgen05 qui suivent après la synchronisation de threads qui précède. */
__device__ __forceinline__ void fence_after_thread_sync() {
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

/**
 * @brief Rend les écritures ordinaires de ce thread en mémoire partagée (copies comprises)
 *        visibles des Tensor Cores, qui la lisent par le « proxy asynchrone ».
 */
__device__ __forceinline__ void fence_proxy_async_shared() {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// --8<-- [start:produit]
/**
 * @brief D (en mémoire tensorielle, à @p tmem_d) = A · B, plus D si @p accumulate : A et B en
 *        mémoire partagée, décrites par @p desc_a et @p desc_b ; forme et types dans @p idesc.
 *        Lancé par un seul thread pour tout le CTA ; asynchrone.
 */
__device__ __forceinline__ void mma_bf16(std::uint32_t tmem_d, std::uint64_t desc_a, std::uint64_t desc_b,
                                         std::uint32_t idesc, bool accumulate) {
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  setp.ne.b32 p, %4, 0;\n"
        "  tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n"
        "}\n" ::"r"(tmem_d),
        "l"(desc_a), "l"(desc_b), "r"(idesc), "r"(static_cast<std::uint32_t>(accumulate))
        : "memory");
}

/**
 * @brief Le mbarrier à @p barrier reçoit une arrivée quand tous les tcgen05.mma lancés
 *        jusqu'ici par ce thread sont terminés (et leurs lectures de mémoire partagée aussi).
 */
__device__ __forceinline__ void commit_to(std::uint64_t* barrier) {
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
                     shared_address(barrier))
                 : "memory");
}
// --8<-- [end:produit]

/** @brief Initialise le mbarrier à @p barrier pour @p arrivals arrivées par phase (un thread). */
__device__ __forceinline__ void barrier_init(std::uint64_t* barrier, std::uint32_t arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(barrier)), "r"(arrivals) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/** @brief Attend que la phase de parité @p parity du mbarrier à @p barrier soit terminée. */
__device__ __forceinline__ void barrier_wait(std::uint64_t* barrier, std::uint32_t parity) {
    std::uint32_t done = 0;
    while (done == 0) {
        asm volatile(
            "{\n"
            "  .reg .pred p;\n"
            "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
            "  selp.u32 %0, 1, 0, p;\n"
            "}\n"
            : "=r"(done)
            : "r"(shared_address(barrier)), "r"(parity)
            : "memory");
    }
}

// --8<-- [start:lecture]
/**
 * @brief Lit 16 colonnes consécutives de 32 bits à partir de @p tmem : le thread t du warp
 *        reçoit la lane (32·w + t) de son quart, w étant le quart que désigne @p tmem (un warp
 *        n'accède qu'aux lanes de son rang modulo 4). Suivie de wait_loads avant tout usage.
 */
__device__ __forceinline__ void load_16_columns(std::uint32_t tmem, std::uint32_t (&r)[16]) {
    asm volatile(
        "tcgen05.ld.sync.aligned.32x32b.x16.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, "
        "[%16];"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]), "=r"(r[8]),
          "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]), "=r"(r[14]), "=r"(r[15])
        : "r"(tmem));
}

/** @brief Attend la fin des tcgen05.ld de ce thread : leurs registres sont alors lisibles. */
__device__ __forceinline__ void wait_loads() { asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory"); }
// --8<-- [end:lecture]

#endif  // sm_100a

}  // namespace noyaux::umma
