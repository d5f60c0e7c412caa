/**
 * @file
 * @brief La même chaîne d'étapes dépendantes exécutée de cinq façons : un lancement par étape
 *        dans un flux, ces lancements capturés en graphe CUDA, des lancements à dépendance
 *        programmatique (PDL, sm_90), un noyau persistant avec une barrière à compteur
 *        (GridBarrier), et un noyau persistant avec grid.sync() sous lancement coopératif.
 */
#pragma once

#include <cuda_runtime.h>

#include <cooperative_groups.h>

#include "chaine.hpp"
#include "common/captured_graph.cuh"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "megakernels/common/co_residence.cuh"
#include "megakernels/common/synchronisation.cuh"

#include <cstddef>
#include <vector>

namespace noyaux::megakernels::chain {

/** @brief Threads par bloc de tous les noyaux de l'exemple. */
constexpr unsigned kThreads = 128;

/** @brief Les cinq façons d'exécuter la chaîne. */
enum class Variant {
    Stream,            ///< un lancement par étape, ordonnés par le flux
    Graph,             ///< les mêmes lancements, capturés en graphe et relancés d'un appel
    Pdl,               ///< un lancement par étape, à dépendance programmatique (sm_90)
    PersistentCounter, ///< un seul noyau, une GridBarrier entre deux étapes
    PersistentGridSync ///< un seul noyau coopératif, grid.sync() entre deux étapes
};

/** @brief Une étape pour l'élément @p i : la même expression dans tous les noyaux. */
__device__ inline void apply_step(const float* in, float* out, std::size_t i, std::size_t n, Step c) {
    out[i] = fmaf(in[neighbour(i, n)], c.a, c.b);
}

// --8<-- [start:noyau-etape]
/** @brief Une étape de la chaîne, un élément par thread : un noyau par étape. */
__global__ void __launch_bounds__(kThreads) chain_step(const float* __restrict__ in, float* __restrict__ out,
                                                      std::size_t n, int step) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) apply_step(in, out, i, n, step_coefficients(step));
}
// --8<-- [end:noyau-etape]

/**
 * @def NOYAUX_PDL_DEVICE
 * @brief 1 là où le PDL est compilé : sm_90 ou plus (cudaGridDependencySynchronize n'existe pas
 *        avant), et l'émulateur simt, qui le modélise comme un ordre entre les deux noyaux.
 *
 * SIMT_EMULATOR reste nécessaire ici : simt compile l'hôte et le périphérique en un seul
 * passage, où __CUDA_ARCH__ n'est défini que dans le corps des fonctions de périphérique
 * (simt/README.md), pas à la portée du fichier où cette macro est évaluée.
 */
#if (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900) || defined(SIMT_EMULATOR)
#define NOYAUX_PDL_DEVICE 1
#else
#define NOYAUX_PDL_DEVICE 0
#endif

// --8<-- [start:noyau-pdl]
/**
 * @brief La même étape, lancée avec l'attribut de sérialisation programmatique : le noyau peut
 *        démarrer avant la fin du précédent ; cudaGridDependencySynchronize() attend que le
 *        précédent soit fini et ses écritures visibles, puis cudaTriggerProgrammaticLaunchCompletion()
 *        autorise tout de suite le lancement du suivant, qui fera de même.
 */
__global__ void __launch_bounds__(kThreads) chain_step_pdl(const float* __restrict__ in, float* __restrict__ out,
                                                          std::size_t n, int step) {
#if NOYAUX_PDL_DEVICE
    const Step c = step_coefficients(step);  // préambule indépendant de l'étape précédente
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    cudaGridDependencySynchronize();
    cudaTriggerProgrammaticLaunchCompletion();
    if (i < n) apply_step(in, out, i, n, c);
#else
    (void)in, (void)out, (void)n, (void)step;
    __trap();  // pas de PDL avant sm_90 : le programme refuse ce GPU avant tout lancement
#endif
}
// --8<-- [end:noyau-pdl]

// --8<-- [start:noyau-persistant]
/**
 * @brief Toutes les étapes dans un seul lancement : chaque bloc traite ses éléments (boucle
 *        grid-stride), puis @p wait_for_grid attend toute la grille avant l'étape suivante.
 * @param buffer0       premier des deux tampons alternés, qui contient l'entrée
 * @param buffer1       second tampon
 * @param n             nombre d'éléments
 * @param steps         nombre d'étapes
 * @param wait_for_grid barrière de grille, appelée par tous les threads après chaque étape
 */
template <typename GridWait>
__device__ void run_chain_persistent(float* buffer0, float* buffer1, std::size_t n, int steps,
                                     GridWait wait_for_grid) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (int s = 0; s < steps; ++s) {
        const float* in = s % 2 == 0 ? buffer0 : buffer1;
        float* out = s % 2 == 0 ? buffer1 : buffer0;
        const Step c = step_coefficients(s);
        for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
            apply_step(in, out, i, n, c);
        wait_for_grid();  // l'étape s est écrite partout avant que s + 1 la lise
    }
}

/**
 * @brief La chaîne persistante, synchronisée par une barrière à compteur (lancement ordinaire) :
 *        la grille doit être entièrement résidente (require_co_resident avant le lancement).
 * @param buffer0 premier des deux tampons alternés, qui contient l'entrée
 * @param buffer1 second tampon
 * @param n       nombre d'éléments
 * @param steps   nombre d'étapes
 * @param barrier état de la barrière, à zéro à l'allocation, jamais remis à zéro ensuite
 */
__global__ void __launch_bounds__(kThreads) chain_persistent_counter(float* buffer0, float* buffer1, std::size_t n,
                                                                    int steps, GridBarrier* barrier) {
    run_chain_persistent(buffer0, buffer1, n, steps, [barrier] { arrive_and_wait(barrier, gridDim.x); });
}

/**
 * @brief La même chaîne, synchronisée par grid.sync() (lancement coopératif obligatoire).
 * @param buffer0 premier des deux tampons alternés, qui contient l'entrée
 * @param buffer1 second tampon
 * @param n       nombre d'éléments
 * @param steps   nombre d'étapes
 */
__global__ void __launch_bounds__(kThreads) chain_persistent_grid_sync(float* buffer0, float* buffer1, std::size_t n,
                                                                      int steps) {
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    run_chain_persistent(buffer0, buffer1, n, steps, [&grid] { grid.sync(); });
}
// --8<-- [end:noyau-persistant]

/**
 * @brief Exige que le PDL soit utilisable : sur GPU, que le code retenu pour chain_step_pdl vienne
 *        de sm_90 ou plus (simt annonce le sien comme tel).
 * @throws noyaux::UnsupportedArchitectureError sinon, avec un message en français
 */
inline void require_pdl() {
    require_kernel_architecture(chain_step_pdl, "chain_step_pdl", 90, "le lancement à dépendance programmatique (PDL)");
}

/** @brief Blocs d'une étape lancée seule : un élément par thread. */
inline unsigned step_blocks(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

/**
 * @brief Blocs d'un noyau persistant : autant que d'éléments à couvrir, sans dépasser ce qui
 *        peut être résident à la fois (sinon la barrière n'est jamais atteinte par tous).
 */
inline unsigned persistent_blocks(const void* kernel, std::size_t n) {
    const int resident = max_co_resident_blocks(kernel, static_cast<int>(kThreads), 0);
    const unsigned wanted = step_blocks(n);
    return resident > 0 && wanted > static_cast<unsigned>(resident) ? static_cast<unsigned>(resident) : wanted;
}

/**
 * @brief La chaîne sur un tableau du GPU : deux tampons alternés et l'état de la barrière,
 *        alloués une fois ; chaque exécution repart de l'entrée recopiée dans le premier tampon.
 */
class ChainRunner {
public:
    /**
     * @brief Prépare une chaîne de @p steps étapes sur @p n éléments, et la grille des noyaux
     *        persistants (au plus ce qui tient à la fois sur le GPU).
     * @throws std::invalid_argument si la chaîne sort des bornes (validate_chain)
     * @throws CoResidencyError si la grille du noyau à compteur ne tient pas entière
     */
    ChainRunner(std::size_t n, int steps)
        : n_((validate_chain(steps, n), n)), steps_(steps), buffer0_(n), buffer1_(n), barrier_(1),
          counter_blocks_(persistent_blocks(reinterpret_cast<const void*>(chain_persistent_counter), n)),
          grid_sync_blocks_(persistent_blocks(reinterpret_cast<const void*>(chain_persistent_grid_sync), n)) {
        NOYAUX_CUDA_CHECK(cudaMemset(barrier_.data(), 0, sizeof(GridBarrier)));  // une fois pour toutes
        // La grille du noyau à compteur ne change plus : vérifiée une fois, avant tout lancement
        // (le noyau à grid.sync() l'est par cudaLaunchCooperativeKernel lui-même).
        require_co_resident(chain_persistent_counter, static_cast<int>(counter_blocks_), static_cast<int>(kThreads), 0);
    }

    /** @brief Copie @p input (n éléments) dans le premier tampon. */
    void upload(const std::vector<float>& input) { buffer0_.upload(input); }

    /** @brief Le tampon qui contient le résultat après une exécution. */
    std::vector<float> download() const { return steps_ % 2 == 0 ? buffer0_.download() : buffer1_.download(); }

    // --8<-- [start:lanceurs]
    /** @brief Un lancement par étape dans @p stream (asynchrone). */
    void launch_stream(cudaStream_t stream) {
        for (int s = 0; s < steps_; ++s) {
            chain_step<<<step_blocks(n_), kThreads, 0, stream>>>(in(s), out(s), n_, s);
            NOYAUX_CUDA_CHECK(cudaGetLastError());
        }
    }

    /** @brief Un lancement PDL par étape : cudaLaunchKernelEx et l'attribut de sérialisation programmatique. */
    void launch_pdl(cudaStream_t stream) {
        cudaLaunchAttribute attribute{};
        attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attribute.val.programmaticStreamSerializationAllowed = 1;
        cudaLaunchConfig_t config{};
        config.gridDim = dim3(step_blocks(n_));
        config.blockDim = dim3(kThreads);
        config.stream = stream;
        config.attrs = &attribute;
        config.numAttrs = 1;
        for (int s = 0; s < steps_; ++s)
            NOYAUX_CUDA_CHECK(cudaLaunchKernelEx(&config, chain_step_pdl, static_cast<const float*>(in(s)), out(s), n_, s));
    }

    /**
     * @brief Un seul lancement ordinaire du noyau persistant à barrière à compteur, sur la grille
     *        calculée et vérifiée (co-résidence) à la construction.
     */
    void launch_persistent_counter(cudaStream_t stream) {
        chain_persistent_counter<<<counter_blocks_, kThreads, 0, stream>>>(buffer0_.data(), buffer1_.data(), n_, steps_,
                                                                  barrier_.data());
        NOYAUX_CUDA_CHECK(cudaGetLastError());
    }

    /** @brief Un seul lancement coopératif du noyau persistant à grid.sync(). */
    void launch_persistent_grid_sync(cudaStream_t stream) {
        const unsigned blocks = grid_sync_blocks_;
        float* buffer0 = buffer0_.data();
        float* buffer1 = buffer1_.data();
        std::size_t n = n_;
        int steps = steps_;
        void* arguments[] = {&buffer0, &buffer1, &n, &steps};
        NOYAUX_CUDA_CHECK(cudaLaunchCooperativeKernel(chain_persistent_grid_sync, dim3(blocks), dim3(kThreads), arguments, 0, stream));
    }
    // --8<-- [end:lanceurs]

    /** @brief Lance la chaîne selon @p variant (asynchrone, sauf Graph : capture, lance une fois, attend). */
    void launch(Variant variant, cudaStream_t stream) {
        switch (variant) {
            case Variant::Stream: launch_stream(stream); break;
            case Variant::Graph: {
                const CapturedGraph graph(stream, [this](cudaStream_t s) { launch_stream(s); });
                graph.launch(stream);
                NOYAUX_CUDA_CHECK(cudaStreamSynchronize(stream));  // le graphe vit jusqu'à la fin de son exécution
                break;
            }
            case Variant::Pdl: launch_pdl(stream); break;
            case Variant::PersistentCounter: launch_persistent_counter(stream); break;
            case Variant::PersistentGridSync: launch_persistent_grid_sync(stream); break;
        }
    }

    /** @brief Nombre d'éléments. */
    std::size_t size() const { return n_; }
    /** @brief Nombre d'étapes. */
    int steps() const { return steps_; }
    /** @brief État de la barrière (pour vérifier qu'elle revient à un compteur nul). */
    const GridBarrier* barrier() const { return barrier_.data(); }

private:
    float* in(int step) { return step % 2 == 0 ? buffer0_.data() : buffer1_.data(); }
    float* out(int step) { return step % 2 == 0 ? buffer1_.data() : buffer0_.data(); }

    std::size_t n_;
    int steps_;
    DeviceBuffer<float> buffer0_;
    DeviceBuffer<float> buffer1_;
    DeviceBuffer<GridBarrier> barrier_;
    unsigned counter_blocks_;    // grille du noyau à barrière à compteur
    unsigned grid_sync_blocks_;  // grille du noyau à grid.sync()
};

/** @brief Nom français d'une variante, pour l'affichage. */
inline const char* variant_name(Variant variant) {
    switch (variant) {
        case Variant::Stream: return "lancements en flux";
        case Variant::Graph: return "graphe CUDA capturé";
        case Variant::Pdl: return "PDL (dépendance programmatique)";
        case Variant::PersistentCounter: return "persistant, barrière à compteur";
        case Variant::PersistentGridSync: return "persistant, grid.sync()";
    }
    return "?";
}

}  // namespace noyaux::megakernels::chain
