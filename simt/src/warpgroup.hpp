/**
 * @file
 * @brief État d'un groupe de warps (4 warps consécutifs alignés, 128 threads) que gardent
 *        les instructions de groupe : dernier setmaxnreg, et la file des wgmma.mma_async en
 *        attente (warpgroup.cpp, wgmma.cpp).
 */
#pragma once

#include "execution.hpp"
#include "simt/ptx/wgmma.hpp"

#include <cstdint>
#include <deque>
#include <source_location>
#include <unordered_map>
#include <vector>

namespace simt::detail {

/** @brief Un wgmma.mma_async lancé, calculé au wgmma.wait_group qui l'attend. */
struct PendingMma {
    std::source_location where;
    unsigned n = 0;                          ///< N de la forme m64nNk16
    ptx::WgmmaInput type = ptx::WgmmaInput::bf16;
    std::uint64_t desc_a = 0;                ///< descripteur de A (sans objet si A en registres)
    std::uint64_t desc_b = 0;
    bool a_in_registers = false;
    bool scale_d = true;                     ///< false : D = A·B, sans l'accumulateur d'entrée
    int scale_a = 1, scale_b = 1;            ///< imm-scale-a/b : 1 ou -1
    int trans_a = 0, trans_b = 0;            ///< imm-trans-a/b : 1 = M-majeur / N-majeur
    std::vector<std::uint32_t> a;            ///< A en registres : 4 registres par thread, lus au lancement
    std::vector<float*> d;                   ///< N/2 registres d'accumulateurs par thread, thread après thread
};

/**
 * @brief Un registre d'accumulateur que des wgmma en attente vont écrire : sa valeur pour le
 *        pipeline (celle d'avant le premier, puis le résultat de chacun), et le nombre de
 *        wgmma en attente qui l'écrivent. En mémoire, le registre garde d'ici là une valeur
 *        empoisonnée (kPoisonBits), qui rend visible une lecture prématurée et permet de
 *        détecter une écriture.
 */
struct PendingAccumulator {
    float value = 0.0f;
    unsigned writers = 0;
};

/** @brief Motif d'un registre d'accumulateur en attente : un NaN silencieux reconnaissable. */
inline constexpr std::uint32_t kPoisonBits = 0x7fc0dea1u;

/** @brief État d'un groupe de warps du bloc courant. */
struct WarpgroupState {
    unsigned registers = 0;  ///< registres par thread fixés par le dernier setmaxnreg (0 : inconnu)
    bool fenced = false;     ///< un wgmma.fence a été exécuté
    std::vector<PendingMma> open;                     ///< depuis le dernier commit_group
    std::deque<std::vector<PendingMma>> committed;    ///< groupes fermés, du plus ancien au plus récent
    std::unordered_map<float*, PendingAccumulator> accumulators;
};

}  // namespace simt::detail
