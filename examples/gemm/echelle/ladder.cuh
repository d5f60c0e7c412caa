/**
 * @file
 * @brief Les étapes de l'échelle GEMM que mesurent les benchmarks communs
 *        (examples/gemm/echelle), dans l'ordre de l'échelle : fp32 (étapes 1 à 11, bench.cu)
 *        et bf16 (Tensor Cores, à partir de l'étape 12, bench_bf16.cu).
 *
 * Ajouter une étape : inclure son en-tête « gemm/NN-slug/slug.cuh » ci-dessous et ajouter
 * sa structure à la liste `Ladder` (fp32) ou `Bf16Ladder` (bf16). Le benchmark, sa vérification contre cuBLAS et les pages
 * qui affichent les mesures la prennent alors en compte d'eux-mêmes.
 *
 * L'étape 20 (tcgen05, sm_100a) n'y est pas : elle ne s'exécute que sur un GPU Blackwell, que
 * le projet n'a pas, et le benchmark n'est pas compilé pour sm_100a.
 */
#pragma once

#include "gemm/common/kernel.cuh"

#include "gemm/01-naif/naif.cuh"
#include "gemm/02-coalescence/coalescence.cuh"
#include "gemm/03-memoire-partagee/memoire-partagee.cuh"
#include "gemm/04-tuilage-1d/tuilage-1d.cuh"
#include "gemm/05-tuilage-2d/tuilage-2d.cuh"
#include "gemm/06-vectorisation/vectorisation.cuh"
#include "gemm/07-conflits-de-banc/conflits-de-banc.cuh"
#include "gemm/08-recherche-parametres/recherche-parametres.cuh"
#include "gemm/09-tuilage-warp/tuilage-warp.cuh"
#include "gemm/10-double-tampon/double-tampon.cuh"
#include "gemm/11-au-dela-de-boehm/au-dela-de-boehm.cuh"
#include "gemm/12-wmma/wmma.cuh"
#include "gemm/13-mma-sync/mma-sync.cuh"
#include "gemm/14-tma-wgmma/tma-wgmma.cuh"
#include "gemm/15-specialisation-warps/specialisation-warps.cuh"
#include "gemm/16-deux-consommateurs/deux-consommateurs.cuh"
#include "gemm/17-persistant/persistant.cuh"
#include "gemm/18-clusters/clusters.cuh"
#include "gemm/19-stream-k/stream-k.cuh"

namespace noyaux::gemm {

/** @brief Une liste de types d'étapes, parcourue à la compilation. */
template <GemmKernel... Kernels>
struct KernelList {
    /** @brief Appelle `visitor.template operator()<Kernel>()` pour chaque étape, dans l'ordre. */
    template <typename Visitor>
    static void for_each(Visitor&& visitor) {
        (visitor.template operator()<Kernels>(), ...);
    }
};

// --8<-- [start:echelle]
/** @brief L'échelle mesurée, une étape par ligne. */
using Ladder = KernelList<
    NaiveKernel,           // 01-naif
    CoalescedKernel,       // 02-coalescence
    SharedMemoryKernel,    // 03-memoire-partagee
    Blocktiling1dKernel,   // 04-tuilage-1d
    Blocktiling2dKernel,   // 05-tuilage-2d
    VectorizedKernel,      // 06-vectorisation
    BankConflictFreeKernel,  // 07-conflits-de-banc
    TunedKernel,           // 08-recherche-parametres (configuration retenue)
    WarptilingKernel,      // 09-tuilage-warp
    DoubleBufferedKernel,  // 10-double-tampon
    BeyondBoehmKernel      // 11-au-dela-de-boehm (configuration retenue)
    >;

/** @brief L'échelle bf16 (Tensor Cores), mesurée contre cublasGemmEx bf16 → fp32. */
using Bf16Ladder = KernelList<
    WmmaKernel,                // 12-wmma
    MmaSyncKernel,             // 13-mma-sync
    TmaWgmmaKernel,            // 14-tma-wgmma (sm_90a ; ignorée sur un GPU plus ancien)
    WarpSpecializedKernel,     // 15-specialisation-warps (sm_90a)
    TwoConsumersKernel,        // 16-deux-consommateurs (sm_90a)
    // 17-persistant : un nom par ordre des tuiles, pour que le GPU les compare (sm_90a)
    PersistentRowMajorKernel,  // en lignes
    PersistentGroupedKernel,   // bandes de 8 lignes de tuiles
    PersistentHilbertKernel,   // courbe de Hilbert
    ClusterKernel,             // 18-clusters : clusters de 2 blocs, A diffusée par la TMA (sm_90a)
    StreamKKernel              // 19-stream-k : parts égales des itérations de K (sm_90a)
    >;
// --8<-- [end:echelle]

}  // namespace noyaux::gemm
