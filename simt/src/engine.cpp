/**
 * @file
 * @brief Moteur d'exécution : les blocs d'une grille tournent sur des threads du système,
 *        les threads d'un bloc sont des fibres (Boost.Context) ordonnancées de barrière en
 *        barrière, ce qui rend __syncthreads et les opérations de warp exactes.
 */
#include "simt/engine.hpp"

#include "internal.hpp"
#include "simt/builtins.hpp"
#include "stack_pool.hpp"

#include <boost/context/fiber.hpp>

#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <sstream>
#include <thread>

thread_local constinit uint3 threadIdx{};
thread_local constinit uint3 blockIdx{};
thread_local constinit dim3 blockDim{};
thread_local constinit dim3 gridDim{};

namespace simt::detail {
namespace {

namespace context = boost::context;

constexpr unsigned kWarpSize = 32;

/** @brief Levée dans une fibre pour la dérouler quand le noyau est interrompu. */
struct KernelAbort {};

enum class State { ready, at_barrier, at_warp, at_grid, done };

struct WarpRequest {
    WarpOp op{};
    unsigned mask = 0;
    std::size_t size = 0;
    int parameter = 0;
    int width = 32;
    unsigned char value[16]{};
    unsigned char result[16]{};
};

struct AsyncCopy {
    void* destination;
    const void* source;
    std::size_t size;
    std::size_t zero_fill;
};

struct ThreadSlot {
    uint3 index{};
    unsigned linear = 0;
    State state = State::ready;
    context::fiber fiber;
    context::fiber* sink = nullptr;  // continuation de l'ordonnanceur, sur la pile de la fibre
    BarrierKind barrier_kind = BarrierKind::sync;
    int predicate = 0;
    int barrier_result = 0;
    std::source_location where;
    WarpRequest warp;
    std::vector<AsyncCopy> open_group;                // copies depuis le dernier commit
    std::vector<std::vector<AsyncCopy>> committed;    // groupes fermés, du plus ancien au plus récent
};

/** @brief Barrière entre les blocs d'un lancement coopératif, interruptible. */
class GridBarrier {
public:
    explicit GridBarrier(unsigned count) : count_(count) {}
    /** @return false si le lancement a été interrompu pendant l'attente. */
    bool arrive_and_wait(const std::atomic<bool>& aborted) {
        std::unique_lock lock(mutex_);
        const unsigned generation = generation_;
        if (++arrived_ == count_) {
            arrived_ = 0;
            ++generation_;
            changed_.notify_all();
            return true;
        }
        while (generation == generation_ && !aborted)
            changed_.wait_for(lock, std::chrono::milliseconds(50));
        return generation != generation_;
    }
    void wake_all() { changed_.notify_all(); }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    unsigned count_;
    unsigned arrived_ = 0;
    unsigned generation_ = 0;
};

struct Launch {
    const char* kernel_name;
    LaunchShape shape;
    const ThreadBody* body;
    int order;  // 0 : croissant, 1 : décroissant, au-delà : mélanges
    unsigned block_count;
    std::atomic<unsigned> next_block{0};
    std::atomic<bool> aborted{false};
    std::atomic<unsigned long long> progress{0};
    std::unique_ptr<GridBarrier> grid_barrier;
};

struct Block {
    Launch* launch;
    uint3 index{};
    std::vector<ThreadSlot> threads;
    std::byte* dynamic_shared = nullptr;
    bool aborted = false;
    unsigned pass = 0;
};

thread_local Block* current_block = nullptr;
thread_local ThreadSlot* current_thread = nullptr;

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

std::string thread_name(const Block& block, const ThreadSlot& slot) {
    return "bloc " + coordinates(block.index) + ", thread " + coordinates(slot.index);
}

/** @brief Interrompt le bloc (et le lancement) avec un diagnostic. */
void fail(Block& block, const ThreadSlot& slot, const std::string& problem) {
    if (!block.aborted && !block.launch->aborted.exchange(true)) {
        report(std::string("simt : noyau ") + block.launch->kernel_name + ", " +
               thread_name(block, slot) + " : " + problem);
        set_sticky_error(cudaErrorLaunchFailure);
    }
    block.aborted = true;
    if (block.launch->grid_barrier) block.launch->grid_barrier->wake_all();
}

/** @brief Rend la main à l'ordonnanceur ; déroule la fibre si le noyau est interrompu. */
void suspend(ThreadSlot& slot) {
    *slot.sink = std::move(*slot.sink).resume();
    if (current_block->aborted || current_block->launch->aborted) throw KernelAbort{};
}

void fail_current(const std::string& problem) {
    fail(*current_block, *current_thread, problem);
    throw KernelAbort{};
}

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
    }
    return "opération de warp";
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

// ---- Opérations de warp ------------------------------------------------------------------

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

/** @brief Calcule les résultats quand toutes les lanes du masque sont arrivées. */
void complete_warp(Block& block, unsigned first, const WarpRequest& request) {
    ThreadSlot* lanes[kWarpSize] = {};
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if (request.mask >> lane & 1u) lanes[lane] = &block.threads[first + lane];

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
                const int all = ballot == request.mask;
                std::memcpy(own.result, &all, sizeof all);
                break;
            }
            case WarpOp::any: {
                const int any = ballot != 0;
                std::memcpy(own.result, &any, sizeof any);
                break;
            }
            case WarpOp::sync: break;
            default: {
                const int source = shuffle_source(own, lane);
                if (source < 0) {
                    std::memcpy(own.result, own.value, own.size);
                } else if (!(request.mask >> source & 1u)) {
                    fail(block, *slot,
                         std::string(warp_op_name(request.op)) + " lit la lane " +
                             std::to_string(source) + ", absente du masque 0x" +
                             [&] { char b[9]; std::snprintf(b, sizeof b, "%08x", request.mask); return std::string(b); }() +
                             " (" + location(slot->where) + ")");
                    return;
                } else {
                    std::memcpy(own.result, lanes[source]->warp.value, own.size);
                }
            }
        }
    }
    for (ThreadSlot* slot : lanes)
        if (slot) slot->state = State::ready;
}

std::string mask_text(unsigned mask) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", mask);
    return text;
}

/** @brief Termine l'opération si toutes les lanes du masque l'ont atteinte. */
void try_complete_warp(Block& block, ThreadSlot& self) {
    const unsigned first = self.linear / kWarpSize * kWarpSize;
    const WarpRequest& request = self.warp;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!(request.mask >> lane & 1u)) continue;
        if (first + lane >= block.threads.size())
            fail_current(std::string(warp_op_name(request.op)) + " avec le masque " +
                         mask_text(request.mask) + " : la lane " + std::to_string(lane) +
                         " n'existe pas (bloc de " + std::to_string(block.threads.size()) +
                         " threads) (" + location(self.where) + ")");
        const ThreadSlot& other = block.threads[first + lane];
        if (other.state == State::done)
            fail_current(std::string(warp_op_name(request.op)) + " avec le masque " +
                         mask_text(request.mask) + " : la lane " + std::to_string(lane) +
                         " a déjà terminé (" + location(self.where) + ")");
        if (other.state != State::at_warp) return;
        if (other.warp.op != request.op || other.warp.mask != request.mask ||
            other.where.line() != self.where.line())
            fail_current(std::string("opérations de warp discordantes : ") +
                         warp_op_name(request.op) + " masque " + mask_text(request.mask) + " (" +
                         location(self.where) + ") contre " + warp_op_name(other.warp.op) +
                         " masque " + mask_text(other.warp.mask) + " (" + location(other.where) +
                         ") à la lane " + std::to_string(lane));
    }
    complete_warp(block, first, request);
}

// ---- Ordonnancement d'un bloc ---------------------------------------------------------

std::vector<unsigned> pass_order(const Block& block) {
    std::vector<unsigned> order(block.threads.size());
    std::iota(order.begin(), order.end(), 0u);
    const int mode = block.launch->order;
    if (mode == 1) {
        std::reverse(order.begin(), order.end());
    } else if (mode >= 2) {
        std::mt19937 generator(static_cast<unsigned>(mode) * 7919u + block.pass * 104729u +
                               block.index.x * 31u + block.index.y * 17u + block.index.z);
        std::shuffle(order.begin(), order.end(), generator);
    }
    return order;
}

void resume(ThreadSlot& slot) {
    current_thread = &slot;
    threadIdx = slot.index;
    slot.fiber = std::move(slot.fiber).resume();
}

/** @brief Toutes les fibres sont bloquées : libère la barrière commune, ou diagnostique. */
void resolve(Block& block) {
    ThreadSlot* waiting = nullptr;
    ThreadSlot* finished = nullptr;
    ThreadSlot* warp_waiting = nullptr;
    for (ThreadSlot& slot : block.threads) {
        if (slot.state == State::done) finished = finished ? finished : &slot;
        else if (slot.state == State::at_warp) warp_waiting = warp_waiting ? warp_waiting : &slot;
        else if (!waiting) waiting = &slot;
    }
    if (warp_waiting) {
        const unsigned first = warp_waiting->linear / kWarpSize * kWarpSize;
        std::string missing;
        for (unsigned lane = 0; lane < kWarpSize; ++lane) {
            if (!(warp_waiting->warp.mask >> lane & 1u) || first + lane >= block.threads.size()) continue;
            const ThreadSlot& other = block.threads[first + lane];
            if (other.state != State::at_warp)
                missing += " lane " + std::to_string(lane) + " " + state_text(other) + ";";
        }
        fail(block, *warp_waiting,
             std::string(warp_op_name(warp_waiting->warp.op)) + " (" + location(warp_waiting->where) +
                 ") : le masque " + mask_text(warp_waiting->warp.mask) +
                 " ne correspond pas aux lanes qui participent :" + missing);
        return;
    }
    if (!waiting) return;  // tous terminés
    for (ThreadSlot& slot : block.threads) {
        if (slot.state == State::done) {
            fail(block, *waiting,
                 std::string(waiting->state == State::at_grid ? "grid.sync()" : "__syncthreads") +
                     " (" + location(waiting->where) + ") n'est pas atteint par tous les threads du bloc : le thread " +
                     coordinates(finished->index) + " a terminé sans l'atteindre");
            return;
        }
        if (slot.state != waiting->state || slot.where.line() != waiting->where.line() ||
            std::strcmp(slot.where.file_name(), waiting->where.file_name()) != 0) {
            fail(block, *waiting,
                 "barrières divergentes : le thread " + coordinates(waiting->index) + " " +
                     state_text(*waiting) + ", le thread " + coordinates(slot.index) + " " +
                     state_text(slot));
            return;
        }
    }
    if (waiting->state == State::at_grid) {
        Launch& launch = *block.launch;
        if (!launch.grid_barrier) {
            fail(block, *waiting, "grid.sync() exige un lancement coopératif (cudaLaunchCooperativeKernel)");
            return;
        }
        if (!launch.grid_barrier->arrive_and_wait(launch.aborted)) {
            block.aborted = true;
            return;
        }
    } else {
        int count = 0;
        for (const ThreadSlot& slot : block.threads) count += slot.predicate != 0;
        const int total = static_cast<int>(block.threads.size());
        for (ThreadSlot& slot : block.threads) {
            switch (slot.barrier_kind) {
                case BarrierKind::sync: slot.barrier_result = 0; break;
                case BarrierKind::count: slot.barrier_result = count; break;
                case BarrierKind::all: slot.barrier_result = count == total; break;
                case BarrierKind::any: slot.barrier_result = count > 0; break;
            }
        }
    }
    for (ThreadSlot& slot : block.threads) slot.state = State::ready;
    ++block.pass;
    block.launch->progress.fetch_add(1, std::memory_order_relaxed);
}

void run_block(Launch& launch, unsigned linear_block, std::byte* dynamic_shared) {
    const dim3 grid = launch.shape.grid;
    const dim3 shape = launch.shape.block;
    Block block{&launch, {linear_block % grid.x, linear_block / grid.x % grid.y,
                          linear_block / (grid.x * grid.y)}, {}, dynamic_shared, false, 0};
    blockIdx = block.index;
    blockDim = shape;
    gridDim = grid;
    current_block = &block;

    const unsigned count = shape.x * shape.y * shape.z;
    block.threads.resize(count);
    for (unsigned linear = 0; linear < count; ++linear) {
        ThreadSlot& slot = block.threads[linear];
        slot.linear = linear;
        slot.index = {linear % shape.x, linear / shape.x % shape.y, linear / (shape.x * shape.y)};
        slot.fiber = context::fiber(std::allocator_arg, PooledStack{},
                                    [&slot, &block, &launch](context::fiber&& sink) {
            slot.sink = &sink;
            try {
                (*launch.body)();
            } catch (const KernelAbort&) {
            }
            slot.state = State::done;
            launch.progress.fetch_add(1, std::memory_order_relaxed);
            (void)block;
            return std::move(sink);
        });
    }

    while (!block.aborted) {
        bool ran = true;
        while (ran && !block.aborted) {
            ran = false;
            for (unsigned index : pass_order(block)) {
                ThreadSlot& slot = block.threads[index];
                if (slot.state != State::ready) continue;
                resume(slot);
                ran = true;
                if (block.aborted || launch.aborted) {
                    block.aborted = true;
                    break;
                }
            }
            if (ran) std::this_thread::yield();  // attente active d'un autre bloc : laisser la main
        }
        if (block.aborted) break;
        if (std::all_of(block.threads.begin(), block.threads.end(),
                        [](const ThreadSlot& s) { return s.state == State::done; }))
            break;
        resolve(block);
    }
    // Détruire une fibre suspendue la déroule (destructeurs compris) sur sa propre pile.
    block.threads.clear();
    current_block = nullptr;
    current_thread = nullptr;
}

// ---- Lancement -------------------------------------------------------------------------

unsigned resident_blocks(const LaunchShape& shape) {
    const cudaDeviceProp& device = emulated_properties();
    const unsigned threads = shape.block.x * shape.block.y * shape.block.z;
    const unsigned per_multiprocessor =
        std::min<unsigned>(unsigned(device.maxBlocksPerMultiProcessor),
                           unsigned(device.maxThreadsPerMultiProcessor) / threads);
    return std::max(1u, per_multiprocessor) * unsigned(device.multiProcessorCount);
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
    if (shape.cooperative && 1ull * g.x * g.y * g.z > resident_blocks(shape)) {
        why = "lancement coopératif de " + std::to_string(1ull * g.x * g.y * g.z) +
              " blocs, plus que les " + std::to_string(resident_blocks(shape)) +
              " blocs résidents du périphérique émulé";
        return cudaErrorCooperativeLaunchTooLarge;
    }
    return cudaSuccess;
}

double deadlock_timeout_seconds() {
    const char* text = std::getenv("SIMT_DELAI");
    const double value = text ? std::atof(text) : 0.0;
    return value > 0.0 ? value : 60.0;
}

/**
 * @brief Exécute toute la grille une fois, dans l'ordre de threads @p order.
 *
 * @p replayed (mode « courses de données ») : chaque bloc tourne sur un thread du système
 * neuf, dont la mémoire partagée statique (thread_local) part de zéro. Sinon un bloc y
 * trouve ce qu'a laissé le bloc précédent du même thread, selon l'ordonnancement du
 * système : deux exécutions d'un même ordre pourraient différer, et une course être
 * masquée ou signalée au hasard.
 */
void run_grid(const char* name, const LaunchShape& shape, const ThreadBody& body, int order,
              bool replayed) {
    Launch launch{name, shape, &body, order,
                  shape.grid.x * shape.grid.y * shape.grid.z, {}, {}, {}, nullptr};
    if (shape.cooperative) launch.grid_barrier = std::make_unique<GridBarrier>(launch.block_count);
    // Une grille qui tient sur le périphérique a tous ses blocs résidents à la fois
    // (un thread du système chacun) : les attentes actives entre blocs progressent.
    const unsigned workers = std::min(launch.block_count, resident_blocks(shape));
    std::atomic<unsigned> finished{0};
    std::vector<std::thread> threads;
    threads.reserve(workers);
    for (unsigned w = 0; w < workers; ++w) {
        threads.emplace_back([&launch, &shape, &finished, replayed] {
            const std::size_t bytes = std::max<std::size_t>(shape.dynamic_shared_bytes, 1);
            auto* shared = static_cast<std::byte*>(::operator new(bytes, std::align_val_t{128}));
            for (unsigned block; (block = launch.next_block.fetch_add(1)) < launch.block_count &&
                                 !launch.aborted;) {
                std::memset(shared, 0xcd, bytes);  // contenu indéfini, comme sur GPU
                if (replayed)
                    std::thread([&] { run_block(launch, block, shared); }).join();
                else
                    run_block(launch, block, shared);
                launch.progress.fetch_add(1, std::memory_order_relaxed);
            }
            ::operator delete(shared, std::align_val_t{128});
            finished.fetch_add(1);
        });
    }
    // Chien de garde : sans progrès (barrière franchie, thread ou bloc terminé) pendant
    // SIMT_DELAI secondes, le lancement est déclaré interbloqué.
    const auto timeout = std::chrono::duration<double>(deadlock_timeout_seconds());
    auto last_progress = launch.progress.load();
    auto since = std::chrono::steady_clock::now();
    while (finished.load() < workers) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const auto progress = launch.progress.load();
        if (progress != last_progress) {
            last_progress = progress;
            since = std::chrono::steady_clock::now();
        } else if (std::chrono::steady_clock::now() - since > timeout && !launch.aborted) {
            report(std::string("simt : noyau ") + name + " : interblocage, aucun progrès depuis " +
                   std::to_string(int(timeout.count())) +
                   " s (attente active d'un bloc non résident, ou d'une condition jamais remplie)");
            set_sticky_error(cudaErrorLaunchTimeout);
            launch.aborted = true;
            if (launch.grid_barrier) launch.grid_barrier->wake_all();
            since = std::chrono::steady_clock::now();
        } else if (launch.aborted && std::chrono::steady_clock::now() - since > std::chrono::seconds(5)) {
            std::fputs("simt : un thread reste bloqué dans une boucle sans point d'attente ; arrêt du programme.\n", stderr);
            std::_Exit(3);
        }
    }
    for (std::thread& thread : threads) thread.join();
}

/** @brief Premier octet qui diffère entre deux images de la mémoire. */
std::string first_difference(const MemorySnapshot& a, const MemorySnapshot& b) {
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        const auto& left = a[i].second;
        const auto& right = b[i].second;
        for (std::size_t offset = 0; offset < left.size() && offset < right.size(); ++offset)
            if (left[offset] != right[offset])
                return "allocation " + std::to_string(i) + ", octet " + std::to_string(offset);
    }
    return "";
}

}  // namespace

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

int block_barrier(BarrierKind kind, int predicate, const std::source_location& where) {
    ThreadSlot& self = *current_thread;
    self.state = State::at_barrier;
    self.barrier_kind = kind;
    self.predicate = predicate;
    self.where = where;
    suspend(self);
    return self.barrier_result;
}

void grid_barrier(const std::source_location& where) {
    ThreadSlot& self = *current_thread;
    self.state = State::at_grid;
    self.where = where;
    self.predicate = 0;
    suspend(self);
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
    std::memcpy(request.value, value, size);
    self.state = State::at_warp;
    try_complete_warp(*current_block, self);
    if (self.state == State::at_warp) suspend(self);
    if (current_block->aborted) throw KernelAbort{};
    std::memcpy(result, request.result, size);
}

void async_copy(void* destination, const void* source, std::size_t size, std::size_t zero_fill,
                const std::source_location& where) {
    const bool aligned = (reinterpret_cast<std::uintptr_t>(destination) % size == 0) &&
                         (reinterpret_cast<std::uintptr_t>(source) % size == 0);
    if ((size != 4 && size != 8 && size != 16) || zero_fill > size || !aligned)
        fail_current("copie asynchrone invalide (" + location(where) + ") : " + std::to_string(size) +
                     " octets, dont " + std::to_string(zero_fill) +
                     " mis à zéro ; attendu 4, 8 ou 16 octets alignés sur leur taille");
    current_thread->open_group.push_back({destination, source, size, zero_fill});
}

void async_commit() {
    ThreadSlot& self = *current_thread;
    self.committed.push_back(std::move(self.open_group));
    self.open_group.clear();
}

void async_wait_prior(std::size_t prior) {
    auto& groups = current_thread->committed;
    while (groups.size() > prior) {
        for (const AsyncCopy& copy : groups.front()) {
            std::memcpy(copy.destination, copy.source, copy.size - copy.zero_fill);
            std::memset(static_cast<char*>(copy.destination) + copy.size - copy.zero_fill, 0, copy.zero_fill);
        }
        groups.erase(groups.begin());
    }
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

void yield_point() {
    if (current_thread != nullptr) suspend(*current_thread);
}

void* dynamic_shared_memory() { return current_block->dynamic_shared; }

void trap(const char* reason, const std::source_location& where) {
    fail_current(std::string(reason) + " (" + location(where) + ")");
    std::abort();  // jamais atteint : fail_current lève KernelAbort
}

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
        return error;
    }
    if (sticky_error() != cudaSuccess) return sticky_error();

    const int orders = thread_orders();
    if (orders <= 1) {
        run_grid(kernel_name, shape, body, 0, false);
        return cudaSuccess;
    }
    // Mode « courses de données » : rejouer le lancement dans plusieurs ordres de threads
    // à partir de la même mémoire ; un résultat qui dépend de l'ordre trahit un accès
    // concurrent non synchronisé (une barrière manquante, le plus souvent).
    const MemorySnapshot before = snapshot_device_memory();
    run_grid(kernel_name, shape, body, 0, true);
    const MemorySnapshot reference = snapshot_device_memory();
    for (int order = 1; order < orders && sticky_error() == cudaSuccess; ++order) {
        restore_device_memory(before);
        run_grid(kernel_name, shape, body, order, true);
        const MemorySnapshot other = snapshot_device_memory();
        if (const std::string where = first_difference(reference, other); !where.empty()) {
            report(std::string("simt : noyau ") + kernel_name +
                   " : le résultat dépend de l'ordre d'exécution des threads (" + where +
                   ", ordre " + std::to_string(order) +
                   ") : accès concurrent non synchronisé, une barrière (__syncthreads) manque probablement");
            set_sticky_error(cudaErrorLaunchFailure);
            break;
        }
    }
    restore_device_memory(reference);
    return cudaSuccess;
}

}  // namespace simt::detail
