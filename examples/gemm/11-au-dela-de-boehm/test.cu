/**
 * @file
 * @brief Tests de l'étape 11 : la suite commune de l'échelle pour chaque configuration
 *        balayée, et ce dont ont besoin les tests propres de l'étape (tests/test_hote.cpp,
 *        compilés une fois par le compilateur de l'hôte) : lanceurs, ordre des blocs,
 *        fonctions d'indice (sonde.hpp). Sans GoogleTest : que des instanciations.
 */
#include "au-dela-de-boehm.cuh"
#include "sonde.hpp"

#include "gemm/common/ladder_registration.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <span>
#include <string>
#include <vector>

namespace noyaux::gemm {

/** @brief L'inscription aux tests communs de chaque configuration d'une liste. */
template <typename List>
struct BeyondBoehmLadderTests;
template <typename... Kernels>
struct BeyondBoehmLadderTests<BeyondBoehmList<Kernels...>> {
    using type = LadderTests<Kernels...>;  ///< l'inscription de toutes les configurations
};

#ifdef SIMT_EMULATOR
/** @brief Sur l'émulateur : chaque configuration balayée. */
using TestedConfigurations = BeyondBoehmLadderTests<BeyondBoehmConfigurations>::type;
#else
/**
 * @brief Sur GPU : la configuration retenue seulement (chaque configuration de plus, ce sont
 *        deux noyaux à compiler pour chaque architecture) ; le balayage compare lui-même
 *        chaque configuration à cuBLAS avant de la mesurer.
 */
using TestedConfigurations = LadderTests<BeyondBoehmKernel>;
#endif

// --8<-- [start:garanties]
// La suite commune (common/ladder_tests.cpp) pour chaque configuration balayée (sur
// l'émulateur) : une configuration fausse ne peut pas gagner le balayage. Les tests propres
// de l'étape sont dans tests/test_hote.cpp.
const TestedConfigurations ladder_tests{"AuDelaDeBoehm"};
// --8<-- [end:garanties]

namespace {

using Kernel = BeyondBoehmKernel;
// La page docs/gemm/11-au-dela-de-boehm.md donne ce nombre au calcul d'occupation (marqueur
// « dynamique= ») : 3 tranches de (64 + 128) × 32 flottants.
static_assert(Kernel::Geometry::shared_bytes == 73728, "mettre à jour la page de l'étape 11");

/** @brief Copie A, B et C étalées sur le GPU, lance la configuration retenue, rend C étalée. */
std::vector<float> run_strided(const StridedRun& run) {
    DeviceBuffer<float> a{std::span<const float>(run.a)};
    DeviceBuffer<float> b{std::span<const float>(run.b)};
    DeviceBuffer<float> c{std::span<const float>(run.c)};
    Kernel::launch({run.shape, run.alpha, a.data() + run.offset, b.data() + run.offset, run.beta,
                    c.data() + run.offset},
                   run.ld, nullptr);
    NOYAUX_CHECK_LAUNCH();
    return c.download();
}

/** @brief Les tailles et fonctions d'indice de la géométrie @p G. */
template <typename G>
LayoutProbe layout_probe() {
    return {std::to_string(G::block_m) + "×" + std::to_string(G::block_n) + "×" + std::to_string(G::block_k) +
                ", " + std::to_string(G::stages) + " étages",
            G::block_m, G::block_n, G::block_k, G::threads, G::chunks_k,
            &G::thread_y, &G::thread_x, &G::a_index, &G::b_index};
}

/** @brief La géométrie d'une configuration, tirée de ses paramètres sans instancier ses noyaux. */
template <typename Kernel>
struct GeometryOf;
template <int BM, int BN, int BK, int STAGES, int BLOCKS>
struct GeometryOf<BeyondBoehm<BM, BN, BK, STAGES, BLOCKS>> {
    using type = BeyondBoehmGeometry<BM, BN, BK, STAGES, BLOCKS>;  ///< tailles et dispositions
};

// Par spécialisation plutôt que par un argument de fonction : la recherche dépendante des
// arguments instancierait chaque BeyondBoehm<…>, donc ses noyaux, pour chaque architecture.
template <typename List>
struct EveryLayout;
template <typename... Kernels>
struct EveryLayout<BeyondBoehmList<Kernels...>> {
    /** @brief Les fonctions d'indice de chaque configuration de la liste. */
    static std::vector<LayoutProbe> probes() { return {layout_probe<typename GeometryOf<Kernels>::type>()...}; }
};

}  // namespace

BeyondBoehmProbe beyond_boehm_probe() {
    BeyondBoehmProbe probe;
    probe.retained = make_ladder_case<Kernel>(Kernel::name);
    probe.run_strided = run_strided;
    probe.launch_strided = [](const GemmArgs& args, const LeadingDimensions& ld) { Kernel::launch(args, ld, nullptr); };
    probe.vectorizable = &Kernel::vectorizable;
    probe.block_tile = &block_tile;
    probe.raster_group = kRasterGroup;
    probe.swept_layouts = EveryLayout<BeyondBoehmConfigurations>::probes();
    probe.retained_layout = layout_probe<Kernel::Geometry>();
    return probe;
}

}  // namespace noyaux::gemm
