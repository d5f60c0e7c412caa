/**
 * @file
 * @brief Instructions de groupe de warps : le rendez-vous des 128 threads qu'exige une
 *        instruction `.sync.aligned` de groupe (wgmma.*, setmaxnreg), le diagnostic des warps
 *        qui n'y viennent pas, setmaxnreg (accepté sans effet, règles vérifiées) et elect.sync.
 */
#include "warpgroup.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace simt::detail {

namespace {

std::string range_text(unsigned first, unsigned count) {
    return "threads " + std::to_string(first) + " à " + std::to_string(first + count - 1);
}

/** @brief Le thread attend-il la même instruction de groupe, au même endroit, que @p self ? */
bool same_instruction(const ThreadSlot& other, const ThreadSlot& self) {
    return other.state == State::at_warpgroup && other.warpgroup.name == self.warpgroup.name &&
           other.where.line() == self.where.line() &&
           std::strcmp(other.where.file_name(), self.where.file_name()) == 0;
}

/**
 * @brief Arrête le bloc si les registres que ses groupes de warps ont fixés par setmaxnreg
 *        dépassent la réserve du bloc. setmaxnreg ne fait que déplacer des registres dans ce
 *        que le bloc a reçu au lancement : ses threads × les registres par thread à l'entrée
 *        du noyau, qu'un bloc par SM (`__launch_bounds__(threads, 1)`) porte au plus à
 *        65 536 / threads arrondi à 8 vers le bas et plafonné à 255 (168 à 384 threads, soit
 *        64 512 et non les 65 536 du SM). Sur GPU, un setmaxnreg.inc qui ne trouve pas ses
 *        registres attend qu'un autre groupe en rende : quand tous les groupes ont fixé les
 *        leurs et que la somme dépasse la réserve, il attendrait pour toujours. ptxas peut donner
 *        moins à l'entrée (232 à l'étape 15 de la partie GEMM, à 256 threads : le plus grand
 *        setmaxnreg du noyau, si bien que la somme y tient d'elle-même) ; la borne, elle, ne
 *        refuse rien qui puisse tourner.
 */
void check_register_reserve(Block& block, const ThreadSlot& slot, const char* name, const std::source_location& where) {
    const unsigned threads = unsigned(block.threads.size());
    const unsigned groups = threads / kWarpgroupSize;
    if (threads % kWarpgroupSize != 0 || block.warpgroups.size() < groups) return;
    unsigned requested = 0;
    std::string terms;
    for (unsigned group = 0; group < groups; ++group) {
        const WarpgroupState* state = block.warpgroups[group].get();
        if (state == nullptr || state->registers == 0) return;  // un groupe n'a pas encore fixé les siens
        requested += kWarpgroupSize * state->registers;
        terms += (group == 0 ? "" : " + ") + std::to_string(state->registers);
    }
    const unsigned per_thread = std::min(255u, 65536u / threads / 8 * 8);
    if (requested <= threads * per_thread) return;
    fail(block, slot,
         std::string(name) + " (" + location(where) + ") : les groupes de warps du bloc demandent 128 × (" + terms +
             ") = " + std::to_string(requested) + " registres, plus que la réserve du bloc, " +
             std::to_string(threads) + " threads × " + std::to_string(per_thread) + " = " +
             std::to_string(threads * per_thread) +
             " (registres par thread à l'entrée : au plus 65 536 / threads arrondi à 8 vers le bas, 255 au plus) ; "
             "sur GPU, setmaxnreg.inc attendrait pour toujours des registres qu'aucun groupe ne rend");
    throw KernelAbort{};
}

}  // namespace

WarpgroupState& warpgroup_state(Block& block, const ThreadSlot& slot) {
    const unsigned group = slot.linear / kWarpgroupSize;
    if (block.warpgroups.size() <= group) block.warpgroups.resize(group + 1);
    if (!block.warpgroups[group]) block.warpgroups[group] = std::make_shared<WarpgroupState>();
    return *block.warpgroups[group];
}

void report_missing_warps(Block& block, const ThreadSlot& waiting) {
    const unsigned first = waiting.linear / kWarpgroupSize * kWarpgroupSize;
    std::string missing;
    for (unsigned warp = 0; warp < kWarpgroupSize / kWarpSize; ++warp) {
        const unsigned warp_first = first + warp * kWarpSize;
        unsigned absent = 0;
        const ThreadSlot* example = nullptr;
        for (unsigned lane = 0; lane < kWarpSize; ++lane) {
            const ThreadSlot& other = block.threads[warp_first + lane];
            if (same_instruction(other, waiting)) continue;
            ++absent;
            if (!example) example = &other;
        }
        if (!example) continue;
        missing += " warp " + std::to_string(warp_first / kWarpSize) + " (" + range_text(warp_first, kWarpSize) +
                   ") : " + (absent == kWarpSize ? "aucune lane ne l'atteint" : std::to_string(absent) + " lanes sur 32 ne l'atteignent pas") +
                   ", la lane " + std::to_string(example->linear % kWarpSize) + " " + state_text(*example) + ";";
    }
    fail(block, waiting,
         std::string(waiting.warpgroup.name) + " (" + location(waiting.where) +
             ") : instruction de groupe de warps non atteinte par les 4 warps du groupe de warps " +
             std::to_string(first / kWarpgroupSize) + " (" + range_text(first, kWarpgroupSize) + ") :" + missing);
}

void warpgroup_rendezvous(const char* name, void* operands,
                          const std::function<void(Block&, WarpgroupThreads)>& complete,
                          const std::source_location& where) {
    Block& block = *current_block;
    ThreadSlot& self = *current_thread;
    const unsigned first = self.linear / kWarpgroupSize * kWarpgroupSize;
    const auto size = static_cast<unsigned>(block.threads.size());
    if (first + kWarpgroupSize > size)
        fail_current(std::string(name) + " (" + location(where) + ") : le groupe de warps " +
                     std::to_string(first / kWarpgroupSize) + " n'a que " + std::to_string(size - first) +
                     " threads (bloc de " + std::to_string(size) +
                     ") ; une instruction de groupe de warps exige 4 warps complets (128 threads consécutifs alignés)");
    self.where = where;
    self.warpgroup = {name, operands};
    self.state = State::at_warpgroup;

    ThreadSlot* threads[kWarpgroupSize];
    bool all_arrived = true;
    bool one_exited = false;
    for (unsigned i = 0; i < kWarpgroupSize; ++i) {
        ThreadSlot& other = block.threads[first + i];
        threads[i] = &other;
        if (other.state == State::at_warpgroup && !same_instruction(other, self))
            fail_current(std::string("instructions de groupe de warps discordantes : ") + name + " (" +
                         location(where) + ") contre " + other.warpgroup.name + " (" + location(other.where) +
                         ") au thread " + coordinates(other.index));
        all_arrived = all_arrived && other.state == State::at_warpgroup;
        one_exited = one_exited || other.state == State::done;
    }
    if (one_exited) {  // un thread terminé ne viendra jamais : inutile d'attendre les autres
        report_missing_warps(block, self);
        throw KernelAbort{};
    }
    if (all_arrived) {
        complete(block, threads);
        for (ThreadSlot* slot : threads) slot->state = State::ready;
    } else {
        suspend(self);
    }
    if (block.aborted) throw KernelAbort{};
}

}  // namespace simt::detail

namespace simt::ptx {

using namespace simt::detail;

void setmaxnreg(bool increase, unsigned count, const std::source_location& where) {
    const char* name = increase ? "setmaxnreg.inc.sync.aligned.u32" : "setmaxnreg.dec.sync.aligned.u32";
    if (count < 24 || count > 256 || count % 8 != 0)
        fail_current(std::string(name) + " " + std::to_string(count) + " (" + location(where) +
                     ") : le nombre de registres doit être un multiple de 8 compris entre 24 et 256");
    warpgroup_rendezvous(name, &count, [&](Block& block, WarpgroupThreads threads) {
        for (ThreadSlot* slot : threads) {
            const unsigned requested = *static_cast<const unsigned*>(slot->warpgroup.operands);
            if (requested != count) {
                fail(block, *slot,
                     std::string(name) + " (" + location(where) + ") : le thread " + coordinates(slot->index) +
                         " demande " + std::to_string(requested) + " registres, le thread " +
                         coordinates(threads[0]->index) + " " + std::to_string(count) +
                         " ; la valeur doit être la même pour tout le groupe de warps");
                throw KernelAbort{};
            }
        }
        WarpgroupState& state = warpgroup_state(block, *threads[0]);
        if (state.registers != 0 && (increase ? count < state.registers : count > state.registers)) {
            fail(block, *threads[0],
                 std::string(name) + " " + std::to_string(count) + " (" + location(where) + ") : " +
                     (increase ? "baisserait" : "augmenterait") + " le nombre de registres par thread, fixé à " +
                     std::to_string(state.registers) + " par le setmaxnreg précédent ; " +
                     (increase ? ".inc ne peut que l'augmenter" : ".dec ne peut que le diminuer"));
            throw KernelAbort{};
        }
        state.registers = count;
        check_register_reserve(block, *threads[0], name, where);
    }, where);
}

bool elect_sync(unsigned member_mask, std::uint32_t* leader, const std::source_location& where) {
    const int unused = 0;
    unsigned elected = 0;
    warp_collective(WarpOp::elect, member_mask, &unused, &elected, sizeof elected, 0, 32, where);
    if (leader != nullptr) *leader = elected;
    return lane_id() == elected;
}

}  // namespace simt::ptx
