/**
 * @file
 * @brief Lancement d'une grille : vérification de la configuration (comme le pilote CUDA),
 *        puis répartition des blocs sur des threads du système. Autant de threads que de
 *        blocs résidents selon le modèle d'occupation (occupancy.cpp) : une grille qui tient
 *        sur le périphérique émulé a tous ses blocs actifs à la fois, si bien qu'une attente
 *        active entre blocs progresse comme sur un GPU.
 */
#include "execution.hpp"
#include "internal.hpp"

#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <thread>

namespace simt::detail {

namespace {

/** @brief Blocs résidents sur tout le périphérique émulé, au moins un par multiprocesseur. */
unsigned resident_blocks(const void* kernel, const LaunchShape& shape) {
    const unsigned threads = shape.block.x * shape.block.y * shape.block.z;
    const int per_multiprocessor =
        kernel_occupancy(kernel, threads, shape.dynamic_shared_bytes).blocks_per_multiprocessor;
    return unsigned(std::max(1, per_multiprocessor)) * unsigned(emulated_properties().multiProcessorCount);
}

cudaError_t validate(const void* kernel, const LaunchShape& shape, std::string& why) {
    const cudaDeviceProp& device = emulated_properties();
    const dim3 b = shape.block, g = shape.grid;
    const unsigned long long threads = 1ull * b.x * b.y * b.z;
    if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0) {
        why = "une dimension de grille ou de bloc vaut 0";
        return cudaErrorInvalidConfiguration;
    }
    if (threads > unsigned(device.maxThreadsPerBlock) || b.x > unsigned(device.maxThreadsDim[0]) ||
        b.y > unsigned(device.maxThreadsDim[1]) || b.z > unsigned(device.maxThreadsDim[2])) {
        why = std::to_string(threads) + " threads par bloc (" + std::to_string(b.x) + "×" +
              std::to_string(b.y) + "×" + std::to_string(b.z) + "), au plus 1024";
        return cudaErrorInvalidConfiguration;
    }
    if (g.x > unsigned(device.maxGridSize[0]) || g.y > unsigned(device.maxGridSize[1]) ||
        g.z > unsigned(device.maxGridSize[2])) {
        why = "grille trop grande";
        return cudaErrorInvalidConfiguration;
    }
    if (shape.dynamic_shared_bytes > dynamic_shared_limit(kernel)) {
        why = std::to_string(shape.dynamic_shared_bytes) +
              " octets de mémoire partagée dynamique, au-delà de la limite du noyau (" +
              std::to_string(dynamic_shared_limit(kernel)) + ", voir cudaFuncSetAttribute)";
        return cudaErrorInvalidValue;
    }
    if (shape.dynamic_shared_bytes > kSharedWindowBytes) {  // un périphérique émulé plus généreux que Hopper
        why = std::to_string(shape.dynamic_shared_bytes) + " octets de mémoire partagée dynamique, au-delà des " +
              std::to_string(kSharedWindowBytes) + " que simt réserve par bloc";
        return cudaErrorInvalidValue;
    }
    if (shape.cooperative && 1ull * g.x * g.y * g.z > resident_blocks(kernel, shape)) {
        why = "lancement coopératif de " + std::to_string(1ull * g.x * g.y * g.z) +
              " blocs, plus que les " + std::to_string(resident_blocks(kernel, shape)) +
              " blocs résidents du périphérique émulé";
        return cudaErrorCooperativeLaunchTooLarge;
    }
    return cudaSuccess;
}

}  // namespace

/**
 * @p replayed (mode « courses de données ») : chaque bloc tourne sur un thread du système
 * neuf, dont la mémoire partagée statique (thread_local) part de zéro. Sinon un bloc y
 * trouve ce qu'a laissé le bloc précédent du même thread, selon l'ordonnancement du
 * système : deux exécutions d'un même ordre pourraient différer, et une course être
 * masquée ou signalée au hasard.
 */
void run_grid(const char* name, const LaunchShape& shape, unsigned resident_blocks,
              const ThreadBody& body, int order, bool replayed, AtomicFootprint* atomics) {
    Launch launch{name, shape, &body, order,
                  shape.grid.x * shape.grid.y * shape.grid.z, {}, {}, {}, nullptr};
    launch.atomics = atomics;
    if (shape.cooperative) launch.grid_barrier = std::make_unique<GridBarrier>(launch.block_count);
    const unsigned workers = std::min(launch.block_count, resident_blocks);
    std::atomic<unsigned> finished{0};
    std::vector<std::thread> threads;
    threads.reserve(workers);
    for (unsigned w = 0; w < workers; ++w) {
        threads.emplace_back([&launch, &finished, replayed] {
            for (unsigned block; (block = launch.next_block.fetch_add(1)) < launch.block_count &&
                                 !launch.aborted;) {
                if (replayed)
                    std::thread([&] { run_block(launch, block); }).join();
                else
                    run_block(launch, block);
                launch.finished_blocks.fetch_add(1);
                launch.progress.fetch_add(1, std::memory_order_relaxed);
            }
            finished.fetch_add(1);
        });
    }
    watch_for_deadlock(launch, finished, workers);
    for (std::thread& thread : threads) thread.join();
}

// ---- Points d'entrée appelés par les en-têtes -----------------------------------------

const char* kernel_name(const void* kernel) {
    static std::mutex mutex;
    static std::map<const void*, std::string> names;
    std::lock_guard lock(mutex);
    auto [it, inserted] = names.try_emplace(kernel, "noyau");
    if (inserted) {
        Dl_info info{};
        if (dladdr(kernel, &info) != 0 && info.dli_sname != nullptr) {
            int status = 0;
            char* demangled = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
            std::string name = status == 0 && demangled ? demangled : info.dli_sname;
            std::free(demangled);
            // Sans la liste des paramètres : « ns::noyau », pas « ns::noyau(int, float*) ».
            if (const auto paren = name.find('('); paren != std::string::npos) name.resize(paren);
            // Une spécialisation de modèle garde son type de retour (« void ns::noyau<float> ») :
            // un noyau rend toujours void, inutile de le répéter.
            if (name.starts_with("void ")) name.erase(0, 5);
            it->second = name;
        }
    }
    return it->second.c_str();
}

namespace {

std::mutex kernel_types_mutex;
std::map<const void*, BodyFactory> kernel_types;

}  // namespace

void remember_kernel(const void* kernel, BodyFactory factory) {
    std::lock_guard lock(kernel_types_mutex);
    kernel_types.try_emplace(kernel, factory);
}

BodyFactory kernel_body_factory(const void* kernel) {
    std::lock_guard lock(kernel_types_mutex);
    const auto it = kernel_types.find(kernel);
    return it == kernel_types.end() ? nullptr : it->second;
}

// Nul hors d'un bloc : une variable `extern __shared__` à la portée d'un espace de noms
// devient un pointeur thread_local, qu'un accès de l'hôte (ou l'initialisation groupée des
// variables thread_local d'une unité de traduction) peut initialiser hors de tout bloc.
void* dynamic_shared_memory() { return current_block != nullptr ? current_block->dynamic_shared : nullptr; }

cudaError_t refuse_launch(const char* reason, cudaError_t error) {
    report(std::string("simt : lancement refusé : ") + reason);
    record_error(error);
    return error;
}

cudaError_t launch_grid(const void* kernel, const char* kernel_name, const LaunchShape& shape,
                        const ThreadBody& body) {
    std::string why;
    if (const cudaError_t error = validate(kernel, shape, why); error != cudaSuccess) {
        report(std::string("simt : lancement de ") + kernel_name + " refusé : " + why);
        record_error(error);
        invalidate_capture(shape.stream);  // comme CUDA : une erreur invalide la capture
        return error;
    }
    if (sticky_error() != cudaSuccess) return sticky_error();
    if (cudaError_t result; capture_kernel(kernel, kernel_name, shape, body, result)) return result;

    const unsigned resident = resident_blocks(kernel, shape);
    const int orders = thread_orders();
    if (orders <= 1)
        run_grid(kernel_name, shape, resident, body, 0, false);
    else
        run_in_several_orders(kernel_name, shape, resident, body, orders);
    return cudaSuccess;
}

}  // namespace simt::detail
