/**
 * @file
 * @brief Tests de l'étape 7 : la suite commune de l'échelle, et l'analyse des bancs qui
 *        justifie la disposition (calcul sur l'hôte, sans GPU). Sans GoogleTest : l'analyse
 *        inscrit ses résultats comme faits (common/bank_facts.cuh), que vérifient les tests
 *        communs ; le modèle lui-même est testé avec la logique hôte commune
 *        (common/tests/test_bank_model.cpp).
 */
#include "conflits-de-banc.cuh"

#include "gemm/common/bank_facts.cuh"

#include <array>
#include <set>
#include <string>

namespace noyaux::gemm {
// La suite commune de l'échelle (common/ladder_tests.cpp), puis l'analyse des bancs.
const Float4LadderTests<BankConflictFreeKernel> ladder_tests{"ConflitsDeBanc"};

namespace conflict_free {
namespace {

constexpr const char* kStep = "ConflitsDeBanc";  ///< préfixe des faits dans les noms GoogleTest

/** @brief Nom d'un accès, pour les messages. */
std::string name_of(SharedAccess which) {
    switch (which) {
        case SharedAccess::a_store: return "écriture de A transposée";
        case SharedAccess::b_store: return "écriture de B";
        case SharedAccess::a_read: return "lecture de A";
        case SharedAccess::b_read: return "lecture de B";
    }
    return "accès inconnu";
}

/**
 * @brief @p function(@p which), appelée par un pointeur volatile : sinon g++ (directement, ou
 *        derrière nvcc) tente d'évaluer l'appel à la compilation, ce qui coûte bien plus que
 *        le calcul (voir register_bank_degree, common/bank_facts.cuh).
 */
int opaque_call(int (*function)(SharedAccess), SharedAccess which) {
    int (*volatile opaque)(SharedAccess) = function;
    return opaque(which);
}

/** @brief Inscrit le pire degré de conflit de @p which sous la disposition @p Layout de l'étape @p layout. */
template <typename Layout>
void register_degree(const std::string& layout, SharedAccess which, int expected) {
    register_step_fact({kStep, "disposition de l'" + layout + ", " + name_of(which) + " : pire degré de conflit de banc",
                        opaque_call(&worst_conflict_degree<Layout>, which), expected});
}

// --8<-- [start:garanties]
void conflict_degrees() {
    // Issue #8 de SGEMM_CUDA : A transposée conflicte à l'écriture ; B, elle, à la lecture.
    register_degree<PlainLayout>("étape 6", SharedAccess::a_store, 2);
    register_degree<PlainLayout>("étape 6", SharedAccess::b_store, 1);
    register_degree<PlainLayout>("étape 6", SharedAccess::a_read, 1);
    register_degree<PlainLayout>("étape 6", SharedAccess::b_read, 2);
    // Celle de l'étape 7 : aucun des quatre accès en conflit.
    for (const SharedAccess which : {SharedAccess::a_store, SharedAccess::b_store,
                                     SharedAccess::a_read, SharedAccess::b_read})
        register_degree<ConflictFreeLayout>("étape 7", which, 1);
}
// --8<-- [end:garanties]

/** @brief Passes de @p which par tuile K, les mêmes pour chaque warp du bloc ; −1 si deux warps diffèrent. */
template <typename Layout>
int passes_of_every_warp(SharedAccess which) {
    const int first = passes_per_tile<Layout>(which, 0);
    for (int warp = 1; warp < threads / warp_size; ++warp)
        if (passes_per_tile<Layout>(which, warp) != first) return -1;
    return first;
}

/** @brief Inscrit les passes de @p which par warp et par tuile K sous la disposition @p Layout. */
template <typename Layout>
void register_passes(const std::string& layout, SharedAccess which, int expected) {
    register_step_fact({kStep, "disposition de l'" + layout + ", " + name_of(which) +
                                   " : passes par warp et par tuile K (−1 : pas les mêmes pour chaque warp)",
                        opaque_call(&passes_of_every_warp<Layout>, which), expected});
}

void passes_per_tile_and_warp() {
    // Par warp et par tuile K : 4 STS.32, 1 STS.128, 16 LDS.128 pour A, 16 pour B.
    // Un accès de 128 bits demande 4 passes au mieux ; la marge et la permutation ramènent
    // le total de 204 passes à 136, soit le minimum.
    register_passes<PlainLayout>("étape 6", SharedAccess::a_store, 8);
    register_passes<PlainLayout>("étape 6", SharedAccess::b_store, 4);
    register_passes<PlainLayout>("étape 6", SharedAccess::a_read, 64);
    register_passes<PlainLayout>("étape 6", SharedAccess::b_read, 128);
    register_passes<ConflictFreeLayout>("étape 7", SharedAccess::a_store, 4);
    register_passes<ConflictFreeLayout>("étape 7", SharedAccess::b_store, 4);
    register_passes<ConflictFreeLayout>("étape 7", SharedAccess::a_read, 64);
    register_passes<ConflictFreeLayout>("étape 7", SharedAccess::b_read, 64);
}

/**
 * @brief Lanes du warp 0 dont le banc, à la première écriture de A transposée, n'est pas
 *        celui du tableau de la page : les lanes 2r et 2r+1 chargent la même ligne r de A,
 *        la lane 2r écrit au banc r, la lane 2r+1 au banc r + @p second_shift.
 */
template <typename Layout, int second_shift>
int transposed_a_store_lanes_off() {
    const auto bank = banks(warp_access<Layout>(SharedAccess::a_store, 0, 0));
    int off = 0;
    for (int r = 0; r < warp_size / 2; ++r) off += (bank[2 * r] != r) + (bank[2 * r + 1] != r + second_shift);
    return off;
}

/**
 * @brief Lanes 0 à 7 (premier float4 du pas kk = 0 des lectures de B) dont le premier banc
 *        n'est pas 0, 8, 16, 24, puis 0, 8, 16, 24 avant (deux passes) ou 4, 12, 20, 28 après
 *        (une seule).
 */
template <typename Layout, int second_half_shift>
int b_read_lanes_off() {
    const auto bank = banks(warp_access<Layout>(SharedAccess::b_read, 0, 0));
    int off = 0;
    for (int lane = 0; lane < 8; ++lane) off += bank[lane] != 8 * (lane % 4) + (lane < 4 ? 0 : second_half_shift);
    return off;
}

/** @brief Inscrit les lanes hors du tableau de la page que compte @p lanes_off ; attendu : aucune. */
void register_lanes_off(const std::string& what, int (*lanes_off)()) {
    int (*volatile opaque)() = lanes_off;  // voir opaque_call
    register_step_fact({kStep, what + " : lanes dont le banc n'est pas celui du tableau", opaque(), 0});
}

void banks_lane_by_lane() {
    // 4 lignes kk de 128 mots : même banc avant ; 4 lignes de 132 : 16 bancs plus loin après.
    register_lanes_off("écriture de A transposée, étape 6", &transposed_a_store_lanes_off<PlainLayout, 0>);
    register_lanes_off("écriture de A transposée, étape 7", &transposed_a_store_lanes_off<ConflictFreeLayout, 16>);
    register_lanes_off("lecture de B, étape 6", &b_read_lanes_off<PlainLayout, 0>);
    register_lanes_off("lecture de B, étape 7", &b_read_lanes_off<ConflictFreeLayout, 4>);
}

/** @brief Ce qu'une disposition fait des éléments des deux tuiles. */
struct LayoutCensus {
    long long a_outside = 0;         ///< éléments de A placés hors de la tuile
    long long a_places = 0;          ///< places distinctes des éléments de A
    long long b_float4_broken = 0;   ///< float4 de B non alignés ou non contigus
    long long b_places = 0;          ///< places distinctes des éléments de B
    long long b_last_place = -1;     ///< dernière place de B
};

LayoutCensus census_of_the_step7_layout() {
    LayoutCensus census;
    std::set<int> a_places, b_places;
    for (int kk = 0; kk < block_k; ++kk) {
        for (int mm = 0; mm < block_m; ++mm) {
            const int place = ConflictFreeLayout::a(kk, mm);
            census.a_outside += place < 0 || place >= ConflictFreeLayout::a_floats;
            a_places.insert(place);
        }
        for (int nn = 0; nn < block_n; nn += 4) {
            const int first = ConflictFreeLayout::b(kk, nn);
            bool broken = first % 4 != 0;
            for (int i = 0; i < 4; ++i) {
                broken = broken || ConflictFreeLayout::b(kk, nn + i) != first + i;
                b_places.insert(ConflictFreeLayout::b(kk, nn + i));
            }
            census.b_float4_broken += broken;
        }
    }
    census.a_places = static_cast<long long>(a_places.size());
    census.b_places = static_cast<long long>(b_places.size());
    census.b_last_place = *b_places.rbegin();
    return census;
}

void every_element_and_every_float4() {
    // Chaque élément a sa place, et les 4 flottants d'un float4 restent contigus et alignés.
    LayoutCensus (*volatile census_of)() = &census_of_the_step7_layout;  // voir opaque_call
    const LayoutCensus census = census_of();
    const std::string layout = "disposition de l'étape 7, ";
    register_step_fact({kStep, layout + "éléments de A hors de la tuile", census.a_outside, 0});
    register_step_fact({kStep, layout + "places distinctes de A", census.a_places, block_k * block_m});
    register_step_fact({kStep, layout + "float4 de B non alignés ou non contigus", census.b_float4_broken, 0});
    register_step_fact({kStep, layout + "places distinctes de B", census.b_places, ConflictFreeLayout::b_floats});
    register_step_fact({kStep, layout + "dernière place de B", census.b_last_place, ConflictFreeLayout::b_floats - 1});
}

void bank_analysis() {
    conflict_degrees();
    passes_per_tile_and_warp();
    banks_lane_by_lane();
    every_element_and_every_float4();
}

const StepFacts facts{bank_analysis};

}  // namespace
}  // namespace conflict_free

}  // namespace noyaux::gemm
