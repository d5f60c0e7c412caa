/**
 * @file
 * @brief Rédaction des diagnostics (coordonnées, emplacement, état d'un thread) et arrêt
 *        d'un bloc fautif : le premier diagnostic d'un lancement est émis, les suivants tus.
 */
#include "execution.hpp"
#include "internal.hpp"

#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <sstream>

namespace simt::detail {

std::string coordinates(uint3 v) {
    std::ostringstream out;
    out << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return out.str();
}

std::string location(const std::source_location& where) {
    std::ostringstream out;
    const char* file = std::strrchr(where.file_name(), '/');
    out << (file ? file + 1 : where.file_name()) << ":" << where.line();
    return out.str();
}

std::string mask_text(unsigned mask) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", mask);
    return text;
}

std::string state_text(const ThreadSlot& slot) {
    switch (slot.state) {
        case State::done: return "a terminé";
        case State::at_barrier: return "attend __syncthreads (" + location(slot.where) + ")";
        case State::at_grid: return "attend grid.sync() (" + location(slot.where) + ")";
        case State::at_warp:
            return std::string("attend ") + warp_op_name(slot.warp.op) + " (" + location(slot.where) + ")";
        case State::ready: return "s'exécute";
    }
    return "";
}

namespace {

std::string thread_name(const Block& block, const ThreadSlot& slot) {
    return "bloc " + coordinates(block.index) + ", thread " + coordinates(slot.index);
}

}  // namespace

namespace {

/** Arrête le bloc et le lancement ; le premier arrêt du lancement émet @p message. */
void stop_launch(Block& block, const std::string& message, cudaError_t error) {
    if (!block.aborted && !block.launch->aborted.exchange(true)) {
        report(message);
        set_sticky_error(error);
    }
    block.aborted = true;
    if (block.launch->grid_barrier) block.launch->grid_barrier->wake_all();
}

}  // namespace

void fail(Block& block, const ThreadSlot& slot, const std::string& problem) {
    stop_launch(block,
                std::string("simt : noyau ") + block.launch->kernel_name + ", " + thread_name(block, slot) +
                    " : " + problem,
                cudaErrorLaunchFailure);
}

void fail_current(const std::string& problem) {
    fail(*current_block, *current_thread, problem);
    throw KernelAbort{};
}

void trap(const char* reason, const std::source_location& where) {
    fail_current(std::string(reason) + " (" + location(where) + ")");
}

// Le message est celui qu'imprime le GPU (fichier, ligne, fonction, bloc, thread, expression),
// mot pour mot : on le retrouve tel qu'on le chercherait dans la sortie d'un vrai programme.
// Comme sur GPU, l'assertion arrête le noyau (c'est un __trap) et laisse cudaErrorAssert,
// collante jusqu'à cudaDeviceReset ; le processus, lui, continue.
void assert_fail(const char* expression, const char* file, unsigned line, const char* function) {
    if (current_thread == nullptr || current_block == nullptr) {  // code de l'hôte : comme la glibc
        std::fprintf(stderr, "%s: %s:%u: %s: Assertion `%s' failed.\n", program_invocation_short_name, file,
                     line, function, expression);
        std::abort();
    }
    const uint3 block = current_block->index;
    const uint3 thread = current_thread->index;
    char message[1024];
    std::snprintf(message, sizeof message, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.",
                  file, line, function, block.x, block.y, block.z, thread.x, thread.y, thread.z, expression);
    stop_launch(*current_block, message, cudaErrorAssert);
    throw KernelAbort{};
}

}  // namespace simt::detail
