/**
 * @file
 * @brief Tuiles de plusieurs warps (thread_block_tile<N>, N de 64 à 1 024) : sync(), shfl(),
 *        any(), all(), reduce et les scans. Chaque thread de la tuile dépose sa valeur et
 *        s'arrête ; le dernier à arriver vérifie que tous font la même opération, calcule les
 *        résultats de tous et les libère. Un thread de la tuile terminé n'y viendra plus : sur
 *        GPU, la barrière de la tuile (comptée par warp) attendrait pour toujours ; ici, le bloc
 *        bloqué est arrêté avec un diagnostic (divergence.cpp, report_incomplete_tile).
 */
#include "execution.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace simt::detail {

std::string tile_op_name(TileOp op, unsigned tile_size) {
    const char* name = "sync()";
    switch (op) {
        case TileOp::sync: name = "sync()"; break;
        case TileOp::shfl: name = "shfl()"; break;
        case TileOp::any: name = "any()"; break;
        case TileOp::all: name = "all()"; break;
        case TileOp::reduce: name = "reduce"; break;
        case TileOp::inclusive_scan: name = "inclusive_scan"; break;
        case TileOp::exclusive_scan: name = "exclusive_scan"; break;
    }
    return "thread_block_tile<" + std::to_string(tile_size) + ">::" + name;
}

namespace {

/** @brief Premier et dernier (exclu) thread de la tuile de @p slot. */
std::pair<std::size_t, std::size_t> tile_range(const Block& block, const ThreadSlot& slot) {
    const std::size_t first = slot.linear / slot.tile_size * slot.tile_size;
    return {first, std::min<std::size_t>(first + slot.tile_size, block.threads.size())};
}

/** @brief Même opération ? sync() peut être atteint à des lignes différentes, comme __syncwarp. */
bool same_tile_operation(const ThreadSlot& a, const ThreadSlot& b) {
    if (a.tile_op != b.tile_op || a.tile_size != b.tile_size) return false;
    return a.tile_op == TileOp::sync ||
           (a.where.line() == b.where.line() && std::strcmp(a.where.file_name(), b.where.file_name()) == 0);
}

/** @brief Tous les threads de la tuile sont arrivés : calcule leurs résultats et les libère. */
void complete_tile(Block& block, std::size_t first, std::size_t last, const ThreadSlot& self) {
    const std::size_t size = self.warp.size;
    unsigned char accumulator[16]{};
    int count = 0;
    for (std::size_t i = first; i < last; ++i) {
        ThreadSlot& member = block.threads[i];
        const auto* value = member.warp.value;
        switch (self.tile_op) {
            case TileOp::sync:
            case TileOp::shfl: break;
            case TileOp::any:
            case TileOp::all: {
                int predicate = 0;
                std::memcpy(&predicate, value, sizeof predicate);
                count += predicate != 0;
                break;
            }
            case TileOp::reduce:
            case TileOp::inclusive_scan:
            case TileOp::exclusive_scan:
                if (self.tile_op == TileOp::exclusive_scan) std::memcpy(member.warp.result, accumulator, size);
                if (i == first) std::memcpy(accumulator, value, size);
                else self.combine(self.combine_op, accumulator, value);
                if (self.tile_op == TileOp::inclusive_scan) std::memcpy(member.warp.result, accumulator, size);
                break;
        }
    }
    for (std::size_t i = first; i < last; ++i) {
        ThreadSlot& member = block.threads[i];
        switch (self.tile_op) {
            case TileOp::shfl: {
                const std::size_t source = first + unsigned(member.warp.parameter) % member.tile_size;
                // Un rang au-delà du dernier thread du bloc (tuile incomplète) : sa propre valeur.
                const ThreadSlot& from = source < last ? block.threads[source] : member;
                std::memcpy(member.warp.result, from.warp.value, size);
                break;
            }
            case TileOp::any: {
                const int any = count > 0;
                std::memcpy(member.warp.result, &any, sizeof any);
                break;
            }
            case TileOp::all: {
                const int all = count == int(last - first);
                std::memcpy(member.warp.result, &all, sizeof all);
                break;
            }
            case TileOp::reduce: std::memcpy(member.warp.result, accumulator, size); break;
            default: break;
        }
        member.state = State::ready;
    }
}

/** @brief Libère la tuile si tous ses threads attendent la même opération. */
void try_complete_tile(Block& block, ThreadSlot& self) {
    const auto [first, last] = tile_range(block, self);
    for (std::size_t i = first; i < last; ++i) {
        const ThreadSlot& other = block.threads[i];
        if (other.state != State::at_tile) return;
        if (!same_tile_operation(other, self))
            fail_current("opérations de tuile discordantes : " + tile_op_name(self.tile_op, self.tile_size) +
                         " (" + location(self.where) + ") contre " +
                         tile_op_name(other.tile_op, other.tile_size) + " (" + location(other.where) +
                         ") au thread " + coordinates(other.index));
    }
    complete_tile(block, first, last, self);
}

}  // namespace

void report_incomplete_tile(Block& block, const ThreadSlot& waiting) {
    const auto [first, last] = tile_range(block, waiting);
    std::string missing;
    for (std::size_t i = first; i < last; ++i) {
        const ThreadSlot& other = block.threads[i];
        if (other.state != State::at_tile)
            missing += " thread " + coordinates(other.index) + " " + state_text(other) + ";";
    }
    fail(block, waiting,
         tile_op_name(waiting.tile_op, waiting.tile_size) + " (" + location(waiting.where) +
             ") n'est pas atteint par tous les threads de la tuile :" + missing);
}

void tile_collective(TileOp op, unsigned tile_size, const void* value, void* result, std::size_t size,
                     unsigned parameter, TileCombine combine, const void* combine_op,
                     const std::source_location& where) {
    ThreadSlot& self = *current_thread;
    self.where = where;
    self.tile_op = op;
    self.tile_size = tile_size;
    self.combine = combine;
    self.combine_op = combine_op;
    WarpRequest& request = self.warp;
    request.size = size;
    request.parameter = int(parameter);
    std::memcpy(request.value, value, size);
    self.state = State::at_tile;
    try_complete_tile(*current_block, self);
    if (self.state == State::at_tile) suspend(self);
    if (current_block->aborted) throw KernelAbort{};
    std::memcpy(result, request.result, size);
}

}  // namespace simt::detail
