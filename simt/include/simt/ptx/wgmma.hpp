/**
 * @file
 * @brief Instructions PTX de groupe de warps de Hopper (sm_90a) : wgmma (fence, mma_async,
 *        commit_group, wait_group), setmaxnreg, elect.sync. La réécriture traduit chaque
 *        instruction asm en un appel à ces fonctions (rewrite/ptx/wgmma.py) ; les tests les
 *        appellent aussi directement.
 *
 * Un groupe de warps est fait de 4 warps consécutifs alignés (threads 128·g à 128·g + 127 du
 * bloc). Une instruction `.sync.aligned` de groupe doit être atteinte par ses 128 threads :
 * sinon simt arrête le noyau avec un diagnostic qui nomme les warps absents.
 */
#pragma once

#include <cstdint>
#include <initializer_list>
#include <source_location>
#include <span>

namespace simt::ptx {

/** @brief Type des multiplicandes A et B (l'accumulateur est toujours .f32). */
enum class WgmmaInput : unsigned char {
    f16,   ///< .f16.f16
    bf16,  ///< .bf16.bf16
};

/** @brief wgmma.fence.sync.aligned : ordonne les accès aux registres avant un wgmma.mma_async. */
void wgmma_fence(const std::source_location& where = std::source_location::current());

/** @brief wgmma.commit_group.sync.aligned : ferme le groupe des wgmma.mma_async lancés depuis le précédent. */
void wgmma_commit_group(const std::source_location& where = std::source_location::current());

/**
 * @brief wgmma.wait_group.sync.aligned @p pending : attend que seuls @p pending groupes fermés
 *        restent en cours. Les opérations sont calculées ici (lecture de la mémoire partagée,
 *        écriture des accumulateurs), ce que permet leur sémantique asynchrone.
 */
void wgmma_wait_group(unsigned pending, const std::source_location& where = std::source_location::current());

/**
 * @brief wgmma.mma_async.sync.aligned.m64nNk16.f32.@p type.@p type, A et B en mémoire partagée.
 * @param n N de la forme (multiple de 8, de 8 à 256).
 * @param type type des multiplicandes.
 * @param d les N/2 registres d'accumulateurs du thread, dans l'ordre de l'instruction ; ils
 *        doivent vivre jusqu'au wgmma.wait_group, qui les écrit.
 * @param desc_a descripteur de mémoire partagée de A (64 × 16).
 * @param desc_b descripteur de mémoire partagée de B (16 × N).
 * @param scale_d prédicat scale-d : faux, D = A·B ; vrai, D = A·B + D.
 * @param scale_a imm-scale-a (1 ou -1).
 * @param scale_b imm-scale-b (1 ou -1).
 * @param trans_a imm-trans-a (0 : A K-majeur, 1 : M-majeur).
 * @param trans_b imm-trans-b (0 : B K-majeur, 1 : N-majeur).
 * @param where emplacement de l'instruction, pour les diagnostics.
 */
void wgmma_mma_async(unsigned n, WgmmaInput type, std::span<float* const> d, std::uint64_t desc_a,
                     std::uint64_t desc_b, bool scale_d, int scale_a, int scale_b, int trans_a, int trans_b,
                     const std::source_location& where = std::source_location::current());

/** @brief Comme ci-dessus ; forme qu'écrit la réécriture (`{&d0, &d1, …}`). */
inline void wgmma_mma_async(unsigned n, WgmmaInput type, std::initializer_list<float*> d, std::uint64_t desc_a,
                            std::uint64_t desc_b, bool scale_d, int scale_a, int scale_b, int trans_a,
                            int trans_b, const std::source_location& where = std::source_location::current()) {
    wgmma_mma_async(n, type, std::span<float* const>(d.begin(), d.size()), desc_a, desc_b, scale_d, scale_a,
                    scale_b, trans_a, trans_b, where);
}

/**
 * @brief Variante A en registres : wgmma.mma_async.sync.aligned.m64nNk16.f32.@p type.@p type
 *        `d, {a0, a1, a2, a3}, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-b`.
 * @param n N de la forme.
 * @param type type des multiplicandes.
 * @param d les N/2 registres d'accumulateurs du thread.
 * @param a les 4 registres .b32 du fragment de A du thread (2 éléments chacun, le premier
 *        dans les 16 bits de poids faible), lus au lancement.
 * @param desc_b descripteur de mémoire partagée de B.
 * @param scale_d prédicat scale-d.
 * @param scale_a imm-scale-a.
 * @param scale_b imm-scale-b.
 * @param trans_b imm-trans-b.
 * @param where emplacement de l'instruction.
 */
void wgmma_mma_async_rs(unsigned n, WgmmaInput type, std::span<float* const> d, const std::uint32_t (&a)[4],
                        std::uint64_t desc_b, bool scale_d, int scale_a, int scale_b, int trans_b,
                        const std::source_location& where = std::source_location::current());

/** @brief Comme ci-dessus ; forme qu'écrit la réécriture. */
inline void wgmma_mma_async_rs(unsigned n, WgmmaInput type, std::initializer_list<float*> d, std::uint32_t a0,
                               std::uint32_t a1, std::uint32_t a2, std::uint32_t a3, std::uint64_t desc_b,
                               bool scale_d, int scale_a, int scale_b, int trans_b,
                               const std::source_location& where = std::source_location::current()) {
    const std::uint32_t a[4] = {a0, a1, a2, a3};
    wgmma_mma_async_rs(n, type, std::span<float* const>(d.begin(), d.size()), a, desc_b, scale_d, scale_a,
                       scale_b, trans_b, where);
}

/**
 * @brief setmaxnreg.inc/.dec.sync.aligned.u32 @p count : sans effet sur le calcul ; ses règles
 *        sont vérifiées (multiple de 8 dans [24, 256], même valeur pour tout le groupe de
 *        warps, pas de baisse par .inc ni de hausse par .dec après un premier setmaxnreg).
 * @param increase vrai pour .inc, faux pour .dec.
 * @param count registres par thread demandés.
 * @param where emplacement de l'instruction.
 */
void setmaxnreg(bool increase, unsigned count, const std::source_location& where = std::source_location::current());

/**
 * @brief elect.sync : élit une lane parmi celles de @p member_mask (toutes doivent l'exécuter).
 * @param member_mask lanes qui participent ; doit contenir la lane appelante.
 * @param leader reçoit la lane élue (peut être nul : le puits `_` du PTX).
 * @param where emplacement de l'instruction.
 * @return vrai pour la lane élue (le prédicat du PTX).
 */
bool elect_sync(unsigned member_mask, std::uint32_t* leader,
                const std::source_location& where = std::source_location::current());

}  // namespace simt::ptx
