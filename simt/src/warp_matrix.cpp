/**
 * @file
 * @brief Opérations matricielles de warp (nvcuda::wmma, voir include/simt/wmma.hpp) :
 *        load_matrix_sync, store_matrix_sync et mma_sync sont collectives. Chaque lane dépose
 *        ses opérandes et s'arrête, comme pour un shuffle (warp.cpp) ; quand les 32 lanes sont
 *        là, la dernière fait le travail de tout le warp d'un coup. Le guide de programmation
 *        CUDA (« Warp Matrix Functions ») exige que tout le warp y participe : une lane
 *        terminée ou absente est une faute, pas une lane qu'on cesse d'attendre.
 */
#include "execution.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace simt::detail {

namespace {

/** @brief Ce qu'une lane dépose dans WarpRequest::value. */
struct MatrixDeposit {
    WarpMatrixCompute compute;
    void* operands;
};
static_assert(sizeof(MatrixDeposit) <= sizeof(WarpRequest::value));

constexpr unsigned kFullWarp = 0xffffffffu;

/** @brief « wmma::mma_sync (noyau.cu:12) » : la fonction et la ligne de l'appel. */
std::string where_text(WarpOp op, const std::source_location& where) {
    return std::string(warp_op_name(op)) + " (" + location(where) + ")";
}

/** @brief Pourquoi la lane @p index ne viendra pas : terminée, ou inexistante. */
std::string absence(const Block& block, unsigned index) {
    if (index >= block.threads.size())
        return "n'existe pas (bloc de " + std::to_string(block.threads.size()) +
               " threads, qui n'est pas un multiple de 32)";
    return "a terminé sans l'atteindre";
}

}  // namespace

void warp_matrix(WarpOp op, WarpMatrixCompute compute, void* operands, const std::source_location& where) {
    MatrixDeposit deposit{compute, operands};
    MatrixDeposit unused{};
    warp_collective(op, kFullWarp, &deposit, &unused, sizeof deposit, 0, static_cast<int>(kWarpSize), where);
}

void complete_matrix(Block& block, unsigned first, const WarpRequest& request) {
    ThreadSlot* lanes[kWarpSize] = {};
    ThreadSlot* waiting = nullptr;
    unsigned missing = 0;
    unsigned first_missing = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (exited(block, first + lane)) {
            if (missing++ == 0) first_missing = lane;
            continue;
        }
        lanes[lane] = &block.threads[first + lane];
        if (!waiting) waiting = lanes[lane];
    }
    if (missing != 0) {
        fail(block, *waiting,
             where_text(request.op, waiting->where) + " : les 32 lanes du warp doivent y arriver " +
                 "ensemble (guide de programmation CUDA, « Warp Matrix Functions » : fonction " +
                 "collective de warp), or " + std::to_string(missing) +
                 (missing == 1 ? " n'y viendra pas" : " n'y viendront pas") + " ; la lane " +
                 std::to_string(first_missing) + " " + absence(block, first + first_missing));
        return;
    }

    void* operands[kWarpSize];
    MatrixDeposit deposit{};
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        std::memcpy(&deposit, lanes[lane]->warp.value, sizeof deposit);
        operands[lane] = deposit.operands;
    }
    if (deposit.compute != nullptr) {
        const WarpMatrixProblem problem = deposit.compute(operands);
        if (problem.problem != nullptr) {
            ThreadSlot& culprit = *lanes[problem.lane % kWarpSize];
            fail(block, culprit, where_text(request.op, culprit.where) + " : " + problem.problem);
            return;
        }
    }
    for (ThreadSlot* slot : lanes) slot->state = State::ready;
}

void check_matrix_memory(WarpOp op, const void* pointer, unsigned ldm, std::size_t element_size,
                         const std::source_location& where) {
    const std::string rule = "comme l'exige le guide de programmation CUDA (« Warp Matrix Functions »)";
    if (pointer == nullptr) fail_current(where_text(op, where) + " : le pointeur de la matrice est nul");
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    if (address % 32 != 0) {
        char text[32];
        std::snprintf(text, sizeof text, "%#llx", static_cast<unsigned long long>(address));
        fail_current(where_text(op, where) + " : l'adresse de la matrice, " + text +
                     ", n'est pas alignée sur 32 octets (256 bits), " + rule);
    }
    const std::size_t bytes = std::size_t{ldm} * element_size;
    if (bytes % 16 != 0)
        fail_current(where_text(op, where) + " : ldm = " + std::to_string(ldm) + " éléments de " +
                     std::to_string(element_size) + " octets, soit " + std::to_string(bytes) +
                     " octets, n'est pas un multiple de 16 octets (" + std::to_string(16 / element_size) +
                     " éléments), " + rule);
}

}  // namespace simt::detail
