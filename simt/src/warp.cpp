/**
 * @file
 * @brief Opérations collectives de warp : shuffles (__shfl_sync et variantes, avec width),
 *        votes (__ballot_sync, __all_sync, __any_sync), réductions (__reduce_*_sync),
 *        correspondances (__match_any_sync, __match_all_sync) et __syncwarp. Chaque lane dépose sa
 *        valeur et s'arrête ; la dernière lane du masque à arriver calcule les résultats de
 *        toutes, après avoir vérifié qu'elles font la même opération, à la même ligne.
 */
#include "execution.hpp"

#include <execinfo.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

namespace simt::detail {

const char* warp_op_name(WarpOp op) {
    switch (op) {
        case WarpOp::shfl: return "__shfl_sync";
        case WarpOp::shfl_up: return "__shfl_up_sync";
        case WarpOp::shfl_down: return "__shfl_down_sync";
        case WarpOp::shfl_xor: return "__shfl_xor_sync";
        case WarpOp::ballot: return "__ballot_sync";
        case WarpOp::all: return "__all_sync";
        case WarpOp::any: return "__any_sync";
        case WarpOp::sync: return "__syncwarp";
        case WarpOp::exchange: return "opération collective de warp";
        case WarpOp::elect: return "elect.sync";
        case WarpOp::coalesce: return "coalesced_threads()";
        case WarpOp::reduce_add: return "__reduce_add_sync";
        case WarpOp::reduce_min: return "__reduce_min_sync";
        case WarpOp::reduce_max: return "__reduce_max_sync";
        case WarpOp::reduce_and: return "__reduce_and_sync";
        case WarpOp::reduce_or: return "__reduce_or_sync";
        case WarpOp::reduce_xor: return "__reduce_xor_sync";
        case WarpOp::match_any: return "__match_any_sync";
        case WarpOp::match_all: return "__match_all_sync";
    }
    return "opération de warp";
}

const char* warp_request_name(const WarpRequest& request) {
    return request.op == WarpOp::exchange && request.name != nullptr ? request.name : warp_op_name(request.op);
}

namespace {

/** @brief Lane source d'un shuffle pour la lane @p lane, ou -1 : la lane garde sa valeur. */
int shuffle_source(const WarpRequest& request, unsigned lane) {
    const int width = request.width;
    const int base = int(lane) / width * width;
    switch (request.op) {
        case WarpOp::shfl: return base + ((request.parameter % width) + width) % width;
        case WarpOp::shfl_up: {
            const int source = int(lane) - request.parameter;
            return source < base ? -1 : source;
        }
        case WarpOp::shfl_down: {
            const int source = int(lane) + request.parameter;
            return source >= base + width ? -1 : source;
        }
        case WarpOp::shfl_xor: {
            const int source = int(lane) ^ request.parameter;
            return source >= base + width ? -1 : source;
        }
        default: return -1;
    }
}

bool is_reduction(WarpOp op) { return op >= WarpOp::reduce_add && op <= WarpOp::reduce_xor; }

/**
 * @brief Réduction des valeurs de 32 bits des lanes présentes (@p lanes non nul), comme
 *        redux.sync : sur toutes les lanes non terminées du masque. min et max comparent avec
 *        signe si le paramètre vaut 1 (version int) ; la somme est prise modulo 2^32.
 */
std::uint32_t reduce_lanes(const WarpRequest& request, ThreadSlot* const lanes[kWarpSize]) {
    bool first = true;
    std::uint32_t result = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!lanes[lane]) continue;
        std::uint32_t value;
        std::memcpy(&value, lanes[lane]->warp.value, sizeof value);
        if (first) {
            result = value;
            first = false;
            continue;
        }
        const bool is_signed = request.parameter != 0;
        const bool less = is_signed ? std::int32_t(value) < std::int32_t(result) : value < result;
        const bool greater = is_signed ? std::int32_t(value) > std::int32_t(result) : value > result;
        switch (request.op) {
            case WarpOp::reduce_add: result += value; break;
            case WarpOp::reduce_min: result = less ? value : result; break;
            case WarpOp::reduce_max: result = greater ? value : result; break;
            case WarpOp::reduce_and: result &= value; break;
            case WarpOp::reduce_or: result |= value; break;
            case WarpOp::reduce_xor: result ^= value; break;
            default: break;
        }
    }
    return result;
}

/**
 * @brief __match_any_sync et __match_all_sync, comme match.sync : pour chaque lane présente,
 *        les lanes présentes de même valeur (bit à bit) ; en mode all, toutes les lanes
 *        présentes si chacune a la même valeur, sinon 0.
 */
void complete_match(const WarpRequest& request, ThreadSlot* const lanes[kWarpSize], unsigned present) {
    unsigned same[kWarpSize] = {};
    bool all_equal = true;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!lanes[lane]) continue;
        for (unsigned other = 0; other < kWarpSize; ++other)
            if (lanes[other] && std::memcmp(lanes[lane]->warp.value, lanes[other]->warp.value, request.size) == 0)
                same[lane] |= 1u << other;
        all_equal = all_equal && same[lane] == present;
    }
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!lanes[lane]) continue;
        const unsigned result = request.op == WarpOp::match_any ? same[lane] : (all_equal ? present : 0u);
        std::memcpy(lanes[lane]->warp.result, &result, sizeof result);
        lanes[lane]->state = State::ready;
    }
}

/**
 * @brief Une lane du masque qui ne viendra jamais : terminée (`return`), ou absente d'un bloc
 *        plus petit que le warp. Le matériel n'attend que les threads « non terminés » du
 *        masque (PTX ISA : shfl.sync, vote.sync, bar.warp.sync).
 */
bool exited(const Block& block, unsigned index) {
    return index >= block.threads.size() || block.threads[index].state == State::done;
}

/**
 * @brief Deux lanes font-elles la même opération de warp ? Même opération, même masque ; pour
 *        les shuffles et les votes, la même ligne aussi (le guide de programmation exige « la
 *        même intrinsèque »). __syncwarp fait exception : depuis sm_70, des threads divergents
 *        peuvent se retrouver à des __syncwarp différents (ordonnancement indépendant).
 */
bool same_operation(const WarpRequest& a, const std::source_location& a_where, const WarpRequest& b,
                    const std::source_location& b_where) {
    if (a.op != b.op || a.mask != b.mask || a.exchange != b.exchange) return false;
    return a.op == WarpOp::sync ||
           (a_where.line() == b_where.line() &&
            std::strcmp(a_where.file_name(), b_where.file_name()) == 0);
}

/**
 * @brief Termine une opération `.sync.aligned` (WarpOp::exchange) : les 32 lanes doivent y
 *        être, le PTX ISA exigeant que tous les threads du warp exécutent la même instruction.
 */
void complete_exchange(Block& block, unsigned first, ThreadSlot* const lanes[kWarpSize], unsigned present,
                       const WarpRequest& request) {
    if (present != 0xffffffffu) {
        unsigned missing = 0;
        while (present >> missing & 1u) ++missing;
        ThreadSlot* witness = nullptr;
        for (unsigned lane = 0; lane < kWarpSize && witness == nullptr; ++lane) witness = lanes[lane];
        const std::string why = first + missing >= block.threads.size()
                                    ? "n'existe pas (bloc de " + std::to_string(block.threads.size()) + " threads)"
                                    : "a terminé sans l'atteindre";
        fail(block, *witness,
             std::string(warp_request_name(request)) + " (" + location(witness->where) +
                 ") doit être exécutée par les 32 lanes du warp (.sync.aligned) ; la lane " +
                 std::to_string(missing) + " " + why);
        return;
    }
    void* data[kWarpSize];
    for (unsigned lane = 0; lane < kWarpSize; ++lane) data[lane] = lanes[lane]->warp.data;
    unsigned faulty = 0;
    if (const std::string problem = request.exchange(data, faulty); !problem.empty()) {
        ThreadSlot& slot = *lanes[faulty % kWarpSize];
        fail(block, slot, std::string(warp_request_name(request)) + " (" + location(slot.where) + ") : " + problem);
        return;
    }
    for (unsigned lane = 0; lane < kWarpSize; ++lane) lanes[lane]->state = State::ready;
}

/** @brief Calcule les résultats quand toutes les lanes non terminées du masque sont arrivées. */
void complete_warp(Block& block, unsigned first, const WarpRequest& request) {
    ThreadSlot* lanes[kWarpSize] = {};
    unsigned present = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if ((request.mask >> lane & 1u) && !exited(block, first + lane)) {
            lanes[lane] = &block.threads[first + lane];
            present |= 1u << lane;
        }

    if (request.op == WarpOp::exchange) {
        complete_exchange(block, first, lanes, present, request);
        return;
    }

    if (request.op == WarpOp::match_any || request.op == WarpOp::match_all) {
        complete_match(request, lanes, present);
        return;
    }
    if (is_reduction(request.op)) {
        const std::uint32_t reduced = reduce_lanes(request, lanes);
        for (ThreadSlot* slot : lanes)
            if (slot) {
                std::memcpy(slot->warp.result, &reduced, sizeof reduced);
                slot->state = State::ready;
            }
        return;
    }

    unsigned ballot = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if (lanes[lane] && *reinterpret_cast<const int*>(lanes[lane]->warp.value) != 0)
            ballot |= 1u << lane;

    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        ThreadSlot* slot = lanes[lane];
        if (!slot) continue;
        WarpRequest& own = slot->warp;
        switch (request.op) {
            case WarpOp::ballot: std::memcpy(own.result, &ballot, sizeof ballot); break;
            case WarpOp::all: {
                const int all = ballot == present;
                std::memcpy(own.result, &all, sizeof all);
                break;
            }
            case WarpOp::any: {
                const int any = ballot != 0;
                std::memcpy(own.result, &any, sizeof any);
                break;
            }
            case WarpOp::sync:
            case WarpOp::coalesce: break;
            case WarpOp::elect: {  // choix déterministe permis par le PTX ISA : la plus petite lane
                const unsigned leader = static_cast<unsigned>(std::countr_zero(present));
                std::memcpy(own.result, &leader, sizeof leader);
                break;
            }
            default: {
                const int source = shuffle_source(own, lane);
                if (source < 0) {
                    std::memcpy(own.result, own.value, own.size);
                } else if (!(request.mask >> source & 1u)) {
                    fail(block, *slot,
                         std::string(warp_op_name(request.op)) + " lit la lane " +
                             std::to_string(source) + ", absente du masque " + mask_text(request.mask) +
                             " (" + location(slot->where) + ")");
                    return;
                } else if (!lanes[source]) {
                    // Comportement indéfini : la lane lue est dans le masque mais terminée ou
                    // inexistante. Sa valeur est indéfinie sur GPU ; simt rend celle de la
                    // lane appelante, et le dit.
                    const std::string why =
                        first + unsigned(source) >= block.threads.size()
                            ? "n'existe pas (bloc de " + std::to_string(block.threads.size()) + " threads)"
                            : "a terminé";
                    if (!tolerate(block, *slot, slot->where, "lecture-lane-absente",
                                  std::string(warp_op_name(request.op)) + " (" + location(slot->where) +
                                      ") avec le masque " + mask_text(request.mask) + " : la lane " +
                                      std::to_string(lane) + " lit la lane " + std::to_string(source) +
                                      ", qui " + why + " ; simt rend la valeur de la lane appelante",
                                  "un thread ne peut lire que la valeur d'un thread qui participe "
                                  "activement au shuffle, sinon la valeur lue est indéfinie"))
                        return;
                    std::memcpy(own.result, own.value, own.size);
                } else {
                    std::memcpy(own.result, lanes[source]->warp.value, own.size);
                }
            }
        }
    }
    for (ThreadSlot* slot : lanes)
        if (slot) slot->state = State::ready;
}

/**
 * @brief L'opération de @p self peut-elle se terminer ? Oui si chaque lane non terminée du
 *        masque l'attend aussi. Une lane du masque arrêtée à une autre opération de warp n'est
 *        pas une faute à ce stade : depuis sm_70 (ordonnancement indépendant des threads), elle
 *        peut achever celle-ci (une branche divergente, avec ses propres lanes) puis venir ;
 *        seul un bloc où plus rien n'avance la rend fautive (report_warp_discord).
 */
bool warp_ready(const Block& block, const ThreadSlot& self) {
    const unsigned first = self.linear / kWarpSize * kWarpSize;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!(self.warp.mask >> lane & 1u) || exited(block, first + lane)) continue;
        const ThreadSlot& other = block.threads[first + lane];
        if (other.state != State::at_warp) return false;
        // Une lane arrêtée à coalesced_threads() n'a pas encore atteint cette opération.
        if (other.warp.op == WarpOp::coalesce) return false;
        if (!same_operation(other.warp, other.where, self.warp, self.where)) return false;
    }
    return true;
}

/** @brief Une lane du masque de @p self arrêtée à une autre opération de warp, ou nul. */
const ThreadSlot* discordant_lane(const Block& block, const ThreadSlot& self) {
    const unsigned first = self.linear / kWarpSize * kWarpSize;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!(self.warp.mask >> lane & 1u) || exited(block, first + lane)) continue;
        const ThreadSlot& other = block.threads[first + lane];
        if (other.state == State::at_warp && other.warp.op != WarpOp::coalesce &&
            !same_operation(other.warp, other.where, self.warp, self.where))
            return &other;
    }
    return nullptr;
}

/** @brief Termine l'opération si toutes les lanes non terminées du masque l'ont atteinte. */
void try_complete_warp(Block& block, ThreadSlot& self) {
    if (warp_ready(block, self)) complete_warp(block, self.linear / kWarpSize * kWarpSize, self.warp);
}

/**
 * @brief Forme les groupes de coalesced_threads() : dans chaque warp, les lanes arrêtées au
 *        même appel (même ligne, même pile d'appels) ; chacune reçoit le masque de son groupe.
 * @return true si au moins un groupe a été formé.
 */
bool form_coalesced_groups(Block& block) {
    bool formed = false;
    for (ThreadSlot& slot : block.threads) {
        if (slot.state != State::at_warp || slot.warp.op != WarpOp::coalesce) continue;
        const unsigned first = slot.linear / kWarpSize * kWarpSize;
        unsigned mask = 0;
        ThreadSlot* members[kWarpSize] = {};
        for (unsigned lane = 0; lane < kWarpSize && first + lane < block.threads.size(); ++lane) {
            ThreadSlot& other = block.threads[first + lane];
            if (other.state == State::at_warp && other.warp.op == WarpOp::coalesce &&
                other.call_path == slot.call_path &&
                same_operation(other.warp, other.where, slot.warp, slot.where)) {
                mask |= 1u << lane;
                members[lane] = &other;
            }
        }
        for (ThreadSlot* member : members)
            if (member) {
                std::memcpy(member->warp.result, &mask, sizeof mask);
                member->state = State::ready;
            }
        formed = true;
    }
    return formed;
}

}  // namespace

bool complete_pending_warps(Block& block) {
    bool completed = false;
    for (ThreadSlot& slot : block.threads) {
        if (slot.state != State::at_warp || slot.warp.op == WarpOp::coalesce || block.aborted) continue;
        if (warp_ready(block, slot)) {
            complete_warp(block, slot.linear / kWarpSize * kWarpSize, slot.warp);
            completed = true;
        }
    }
    // Plus rien n'avance : les lanes d'une autre branche sont arrêtées ailleurs, les groupes
    // de coalesced_threads() peuvent se former sans elles.
    if (!block.aborted && form_coalesced_groups(block)) completed = true;
    return completed && !block.aborted;
}

bool report_warp_discord(Block& block) {
    for (ThreadSlot& slot : block.threads) {
        if (slot.state != State::at_warp || slot.warp.op == WarpOp::coalesce) continue;
        const ThreadSlot* other = discordant_lane(block, slot);
        if (other == nullptr) continue;
        fail(block, slot,
             std::string("opérations de warp discordantes : ") + warp_request_name(slot.warp) + " masque " +
                 mask_text(slot.warp.mask) + " (" + location(slot.where) + ") contre " +
                 warp_request_name(other->warp) + " masque " + mask_text(other->warp.mask) + " (" +
                 location(other->where) + ") à la lane " + std::to_string(other->linear % kWarpSize));
        return true;
    }
    return false;
}

namespace {

/**
 * @brief Empreinte de la pile d'appels du thread courant (adresses de retour) : deux branches
 *        qui appellent la même fonction, donc coalesced_threads() à la même ligne, le font
 *        depuis des sites d'appel différents, et forment des groupes différents, comme sur GPU.
 */
std::uint64_t call_path_hash() {
    void* frames[48];
    const int count = backtrace(frames, 48);
    std::uint64_t hash = 14695981039346656037ull;  // FNV-1a
    for (int i = 0; i < count; ++i) {
        hash ^= reinterpret_cast<std::uintptr_t>(frames[i]);
        hash *= 1099511628211ull;
    }
    return hash;
}

}  // namespace

unsigned coalesced_lanes(const std::source_location& where) {
    ThreadSlot& self = *current_thread;
    self.where = where;
    self.call_path = call_path_hash();
    WarpRequest& request = self.warp;
    request.op = WarpOp::coalesce;
    request.mask = 0;
    request.size = sizeof(unsigned);
    self.state = State::at_warp;
    suspend(self);
    unsigned mask = 0;
    std::memcpy(&mask, request.result, sizeof mask);
    return mask;
}

void warp_collective(WarpOp op, unsigned mask, const void* value, void* result, std::size_t size,
                     int parameter, int width, const std::source_location& where) {
    ThreadSlot& self = *current_thread;
    const unsigned lane = self.linear % kWarpSize;
    self.where = where;
    if (!(mask >> lane & 1u))
        fail_current(std::string(warp_op_name(op)) + " (" + location(where) + ") : le masque " +
                     mask_text(mask) + " ne contient pas la lane appelante " + std::to_string(lane));
    if (width < 1 || width > 32 || (width & (width - 1)) != 0)
        fail_current(std::string(warp_op_name(op)) + " (" + location(where) + ") : largeur " +
                     std::to_string(width) + " invalide (puissance de 2 entre 1 et 32)");
    WarpRequest& request = self.warp;
    request.op = op;
    request.mask = mask;
    request.size = size;
    request.parameter = parameter;
    request.width = width;
    request.name = nullptr;
    request.exchange = nullptr;
    request.data = nullptr;
    std::memcpy(request.value, value, size);
    self.state = State::at_warp;
    try_complete_warp(*current_block, self);
    if (self.state == State::at_warp) suspend(self);
    if (current_block->aborted) throw KernelAbort{};
    std::memcpy(result, request.result, size);
}

void warp_exchange(const char* name, WarpExchange complete, void* lane_data, const std::source_location& where) {
    ThreadSlot& self = *current_thread;
    self.where = where;
    WarpRequest& request = self.warp;
    request.op = WarpOp::exchange;
    request.mask = 0xffffffffu;
    request.size = 0;
    request.name = name;
    request.exchange = complete;
    request.data = lane_data;
    self.state = State::at_warp;
    try_complete_warp(*current_block, self);
    if (self.state == State::at_warp) suspend(self);
    if (current_block->aborted) throw KernelAbort{};
}

unsigned lane_id() { return current_thread->linear % kWarpSize; }

unsigned active_mask() {
    const Block& block = *current_block;
    const unsigned first = current_thread->linear / kWarpSize * kWarpSize;
    unsigned mask = 0;
    for (unsigned lane = 0; lane < kWarpSize && first + lane < block.threads.size(); ++lane)
        if (block.threads[first + lane].state != State::done) mask |= 1u << lane;
    return mask;
}

}  // namespace simt::detail
