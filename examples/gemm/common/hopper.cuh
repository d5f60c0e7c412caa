/**
 * @file
 * @brief Les instructions de Hopper dont se servent les étapes 14 et suivantes, une petite
 *        fonction par instruction PTX en ligne : mbarrier (init, arrive.expect_tx,
 *        arrive, try_wait.parity), barrières de proxy, copie TMA 2D vers la mémoire partagée
 *        (ou diffusée aux blocs d'un cluster), rang et barrière de cluster, arrivée distante,
 *        wgmma (fence, commit_group, wait_group, mma_async m64nNk16 f32 ← bf16 pour N = 8, 64, 128,
 *        256) et setmaxnreg (répartition des registres entre groupes de warps).
 *
 * Disponibilité : la TMA et les mbarrier à transactions existent à partir de sm_90 ; wgmma
 * seulement pour sm_90a (jeu propre à l'architecture, absent de sm_100a). Les fonctions ne
 * sont définies que là où l'instruction existe (NOYAUX_HAS_TMA, NOYAUX_HAS_WGMMA) : un noyau
 * qui s'en sert garde son corps sous le même `#if` et se réduit ailleurs à `__trap()`, que
 * le programme ne lance jamais (voir GemmStep::minimum_architecture). L'émulateur simt
 * (SIMT_EMULATOR) exécute le même PTX ; il exige un texte asm littéral, d'où une définition
 * par forme de wgmma.
 *
 * Sources : PTX ISA, sections « mbarrier », « cp.async.bulk.tensor », « membar/fence »
 * (fence.proxy.async, fence.mbarrier_init), « Asynchronous Warpgroup Level Matrix
 * Multiply-Accumulate Instructions » et « setmaxnreg ».
 */
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#if defined(SIMT_EMULATOR) || (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900)
/** @brief Vrai là où la TMA et les mbarrier à transactions existent (sm_90 et plus, simt). */
#define NOYAUX_HAS_TMA 1
#else
/** @brief Faux ailleurs (sm_80, passe de l'hôte) : le noyau se réduit à un piège. */
#define NOYAUX_HAS_TMA 0
#endif

#if defined(SIMT_EMULATOR) || (defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL))
/** @brief Vrai là où wgmma existe (sm_90a, simt). */
#define NOYAUX_HAS_WGMMA 1
#else
/** @brief Faux ailleurs (sm_80, sm_100a, passe de l'hôte) : le noyau se réduit à un piège. */
#define NOYAUX_HAS_WGMMA 0
#endif

namespace noyaux::gemm::hopper {

#if NOYAUX_HAS_TMA
// --8<-- [start:mbarrier]
/** @brief Adresse dans la fenêtre de mémoire partagée : les opérandes .shared de la PTX. */
__device__ __forceinline__ std::uint32_t shared_address(const void* pointer) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

/** @brief Initialise le mbarrier @p barrier : @p arrivals arrivées terminent une phase. */
__device__ __forceinline__ void mbarrier_init(std::uint64_t* barrier, std::uint32_t arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(barrier)), "r"(arrivals) : "memory");
}

/** @brief Rend les initialisations de mbarrier visibles des autres threads et de la TMA. */
__device__ __forceinline__ void fence_mbarrier_init() {
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/** @brief Ordonne les accès ordinaires à la mémoire partagée avant ceux du proxy asynchrone (TMA, wgmma). */
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

/** @brief Une arrivée sur @p barrier, qui annonce aussi @p bytes octets à recevoir par la TMA. */
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint64_t* barrier, std::uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(barrier)),
                 "r"(bytes)
                 : "memory");
}

/** @brief Une arrivée simple sur @p barrier (sans transaction) : « j'ai fini de lire cet étage ». */
__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* barrier) {
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(shared_address(barrier)) : "memory");
}

/** @brief Un essai : vrai si la phase de parité @p parity de @p barrier est terminée. */
__device__ __forceinline__ bool mbarrier_try_wait(std::uint64_t* barrier, std::uint32_t parity) {
    std::uint32_t done = 0;
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(shared_address(barrier)), "r"(parity)
        : "memory");
    return done != 0;
}

/** @brief Attend la fin de la phase de parité @p parity (try_wait suspend le thread un temps à chaque essai). */
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* barrier, std::uint32_t parity) {
    while (!mbarrier_try_wait(barrier, parity)) {
    }
}
// --8<-- [end:mbarrier]

// --8<-- [start:tma]
/**
 * @brief Copie par la TMA la boîte de @p map d'origine (@p x, @p y) (x : la dimension
 *        contiguë) vers @p destination en mémoire partagée ; ses octets sont décomptés de la
 *        transaction attendue par @p barrier. Un seul thread l'émet.
 */
__device__ __forceinline__ void tma_load_2d(void* destination, const CUtensorMap* map, std::uint64_t* barrier, int x,
                                            int y) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
        ::"r"(shared_address(destination)), "l"(reinterpret_cast<std::uint64_t>(map)), "r"(shared_address(barrier)),
        "r"(x), "r"(y)
        : "memory");
}
// --8<-- [end:tma]

// --8<-- [start:cluster]
/** @brief Rang du bloc dans son cluster (%cluster_ctarank). */
__device__ __forceinline__ std::uint32_t cluster_rank() {
    std::uint32_t rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    return rank;
}

/**
 * @brief Barrière de tout le cluster (barrier.cluster) : chaque thread de chaque bloc y arrive
 *        (release) puis attend les autres (acquire). Tous les threads du bloc l'exécutent.
 */
__device__ __forceinline__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/**
 * @brief Une arrivée sur le mbarrier situé au même décalage que @p barrier dans la mémoire
 *        partagée du bloc de rang @p rank du cluster : mapa traduit l'adresse, l'arrivée passe
 *        par la fenêtre shared::cluster (portée .cluster).
 */
__device__ __forceinline__ void mbarrier_arrive_cluster(std::uint64_t* barrier, std::uint32_t rank) {
    asm volatile(
        "{\n"
        ".reg .b32 remote;\n"
        "mapa.shared::cluster.u32 remote, %0, %1;\n"
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n"
        "}\n" ::"r"(shared_address(barrier)),
        "r"(rank)
        : "memory");
}

/**
 * @brief Comme tma_load_2d, mais la boîte est écrite au même décalage dans la mémoire partagée
 *        de chaque bloc du cluster dont le bit est levé dans @p mask, et ses octets sont décomptés
 *        du mbarrier au même décalage que @p barrier dans chacun de ces blocs.
 */
__device__ __forceinline__ void tma_load_2d_multicast(void* destination, const CUtensorMap* map,
                                                      std::uint64_t* barrier, int x, int y, std::uint16_t mask) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%3, %4}], [%2], %5;"
        ::"r"(shared_address(destination)), "l"(reinterpret_cast<std::uint64_t>(map)), "r"(shared_address(barrier)),
        "r"(x), "r"(y), "h"(mask)
        : "memory");
}
// --8<-- [end:cluster]
#endif  // NOYAUX_HAS_TMA

#if NOYAUX_HAS_WGMMA
// --8<-- [start:wgmma-sync]
/** @brief Avant le premier wgmma : les accumulateurs et la mémoire partagée sont prêts à être lus. */
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }

/** @brief Ferme un groupe : les wgmma émis depuis le précédent s'attendront ensemble. */
__device__ __forceinline__ void wgmma_commit_group() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }

/** @brief Attend qu'il ne reste au plus que @p Pending groupes de wgmma en vol. */
template <int Pending>
__device__ __forceinline__ void wgmma_wait_group() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(Pending) : "memory");
}
// --8<-- [end:wgmma-sync]

/**
 * @brief D (64×64, f32, 32 registres par thread) += A (64×16) · B (16×64), bf16, A et B lus en
 *        mémoire partagée par leurs descripteurs. @p scale_d nul : D = A·B (l'ancien D est
 *        ignoré, ce qui évite de le mettre à zéro). @p TransB : 0 si B est K-majeur, 1 si B
 *        est M/N-majeur (une ligne de B en mémoire est une ligne de K, N contigu).
 *        Asynchrone : D n'est lisible qu'après wgmma_wait_group.
 */
template <int TransB>
__device__ __forceinline__ void wgmma_m64n64k16(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b,
                                                 int scale_d) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
        "%32, %33, p, 1, 1, 0, %35;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TransB)
        : "memory");
}

/** @brief D (64×8, f32, 4 registres par thread) += A·B, m64n8k16, bf16 ; voir wgmma_m64n64k16. */
template <int TransB>
__device__ __forceinline__ void wgmma_m64n8k16(float (&d)[4], std::uint64_t desc_a, std::uint64_t desc_b, int scale_d) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %6, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3}, "
        "%4, %5, p, 1, 1, 0, %7;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TransB)
        : "memory");
}


/** @brief D (64×128, f32, 64 registres par thread) += A·B, m64n128k16, bf16 ; voir wgmma_m64n64k16. */
template <int TransB>
__device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], std::uint64_t desc_a, std::uint64_t desc_b,
                                                 int scale_d) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
        "%64, %65, p, 1, 1, 0, %67;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TransB)
        : "memory");
}

/** @brief D (64×256, f32, 128 registres par thread) += A·B, m64n256k16, bf16 ; voir wgmma_m64n64k16. */
template <int TransB>
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b,
                                                 int scale_d) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
        "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
        "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
        "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
        "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
        "%128, %129, p, 1, 1, 0, %131;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
          "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
          "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
          "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
          "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
          "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
          "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
          "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
          "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
          "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TransB)
        : "memory");
}

// --8<-- [start:setmaxnreg]
/**
 * @brief Ramène à @p Count les registres par thread du groupe de warps (.dec) ; les registres
 *        rendus retournent à la réserve du bloc. Tout le groupe de warps l'exécute. ptxas
 *        l'ignore (note C7508) s'il ne connaît pas le nombre de registres à l'entrée du noyau :
 *        il faut `__launch_bounds__(threads, 1)`.
 */
template <int Count>
__device__ __forceinline__ void setmaxnreg_dec() {
    static_assert(Count >= 24 && Count <= 256 && Count % 8 == 0, "setmaxnreg : multiple de 8 dans [24, 256]");
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(Count) : "memory");
}

/** @brief Porte à @p Count les registres par thread du groupe de warps (.inc), pris dans la réserve du bloc. */
template <int Count>
__device__ __forceinline__ void setmaxnreg_inc() {
    static_assert(Count >= 24 && Count <= 256 && Count % 8 == 0, "setmaxnreg : multiple de 8 dans [24, 256]");
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(Count) : "memory");
}
// --8<-- [end:setmaxnreg]

#endif  // NOYAUX_HAS_WGMMA

}  // namespace noyaux::gemm::hopper
