/**
 * @file
 * @brief Ordonnancement des threads d'un bloc. Les fibres du bloc sont reprises à tour de
 *        rôle (passe après passe) jusqu'à ce qu'aucune ne soit prête : toutes ont alors
 *        terminé, ou attendent une barrière, que l'on vérifie (divergence.cpp) puis libère
 *        (barrier.cpp). L'ordre des reprises dans une passe est croissant, ou décroissant
 *        ou mélangé en mode « courses de données » (races.cpp).
 */
#include "execution.hpp"
#include "simt/builtins.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <thread>

// Variables intégrées de CUDA : une copie par thread du système, écrite par l'ordonnanceur.
thread_local constinit uint3 threadIdx{};
thread_local constinit uint3 blockIdx{};
thread_local constinit dim3 blockDim{};
thread_local constinit dim3 gridDim{};

namespace simt::detail {

thread_local constinit Block* current_block = nullptr;
thread_local constinit ThreadSlot* current_thread = nullptr;

namespace {

/** @brief Ordre de reprise des fibres pour la passe en cours, rangé dans block.order. */
void pass_order(Block& block) {
    std::vector<unsigned>& order = block.order;
    order.resize(block.threads.size());
    std::iota(order.begin(), order.end(), 0u);
    const int mode = block.launch->order;
    if (mode == 1) {
        std::reverse(order.begin(), order.end());
    } else if (mode >= 2) {
        std::mt19937 generator(static_cast<unsigned>(mode) * 7919u + block.pass * 104729u +
                               block.index.x * 31u + block.index.y * 17u + block.index.z);
        std::shuffle(order.begin(), order.end(), generator);
    }
}

}  // namespace

void run_block(Launch& launch, unsigned linear_block) {
    const dim3 grid = launch.shape.grid;
    const dim3 shape = launch.shape.block;
    // La mémoire dynamique est dans le TLS de ce thread du système, comme les __shared__
    // statiques : les adresses partagées de 32 bits en sont des décalages (shared_window.cpp).
    std::byte* dynamic_shared = dynamic_shared_window();
    std::memset(dynamic_shared, 0xcd, std::min(launch.shape.dynamic_shared_bytes, kSharedWindowBytes));  // indéfini, comme sur GPU
    Block block{};
    block.launch = &launch;
    block.index = {linear_block % grid.x, linear_block / grid.x % grid.y, linear_block / (grid.x * grid.y)};
    block.dynamic_shared = dynamic_shared;
    blockIdx = block.index;
    blockDim = shape;
    gridDim = grid;
    current_block = &block;
    join_cluster(block);

    // Les ThreadSlot servent d'un bloc à l'autre du même thread du système : ni allocation ni
    // initialisation de toute la rangée par bloc (un bloc de 1 024 threads en occupe 170 Kio).
    thread_local std::vector<ThreadSlot> spare;
    block.threads.swap(spare);
    const unsigned count = shape.x * shape.y * shape.z;
    block.threads.resize(count);
    uint3 index{0, 0, 0};  // x varie le plus vite, puis y, puis z : sans trois divisions par thread
    for (unsigned linear = 0; linear < count; ++linear) {
        // Tout l'état d'un thread repart de zéro (requêtes de warp, de groupe de warps, de
        // tuile, arrivées au cluster…) ; seules les capacités des files de copies sont gardées.
        ThreadSlot& slot = block.threads[linear];
        std::vector<AsyncCopy> open_group = std::move(slot.open_group);
        std::vector<std::vector<AsyncCopy>> committed = std::move(slot.committed);
        open_group.clear();
        committed.clear();
        // Reconstruit sur place : « slot = ThreadSlot{} » remplissait un temporaire puis le
        // relisait aussitôt pour le copier, et ces relectures attendaient la fin des écritures
        // (le quart du temps d'un lancement sans point d'attente, comme simpleStreams).
        std::destroy_at(&slot);
        std::construct_at(&slot);
        slot.open_group = std::move(open_group);
        slot.committed = std::move(committed);
        slot.linear = linear;
        slot.index = index;
        if (++index.x == shape.x) {
            index.x = 0;
            if (++index.y == shape.y) {
                index.y = 0;
                ++index.z;
            }
        }
    }

    while (!block.aborted) {
        bool ran = true;
        while (ran && !block.aborted) {
            ran = false;
            pass_order(block);
            // resume fait avancer block.cursor quand une fibre enchaîne plusieurs threads.
            for (block.cursor = 0; block.cursor < block.order.size(); ++block.cursor) {
                ThreadSlot& slot = block.threads[block.order[block.cursor]];
                if (slot.state != State::ready) continue;
                const std::size_t first = block.cursor;
                resume(slot);
                ran = true;
                // Correction : une fibre peut enchaîner plusieurs threads (fiber.cpp), de first à
                // block.cursor ; chacun de ceux qui ont terminé quitte le cluster, pas seulement le
                // premier (sinon la barrière du cluster attendait encore des threads sortis).
                if (block.cluster)
                    for (std::size_t position = first; position <= block.cursor; ++position) {
                        ThreadSlot& exited = block.threads[block.order[position]];
                        if (exited.state != State::done || exited.cluster_exit_noted) continue;
                        exited.cluster_exit_noted = true;
                        cluster_thread_exited(block, exited);
                        if (block.aborted) break;
                    }
                if (block.aborted || launch.aborted) {
                    block.aborted = true;
                    break;
                }
            }
            // Un thread a peut-être cédé la main dans une attente active d'un autre bloc : laisser
            // le processeur aux threads du système des autres blocs. Seulement dans ce cas : sur
            // une machine chargée, chaque sched_yield peut coûter la tranche de temps d'un autre
            // processus, et une passe qui n'a fait que terminer des threads ou atteindre des
            // barrières n'attend personne.
            if (ran && block.spun) {
                block.spun = false;
                release_cluster_waiters(block);  // sinon jamais reprises tant qu'une fibre tourne (cluster.cpp)
                std::this_thread::yield();
            }
        }
        if (block.aborted) break;
        if (std::all_of(block.threads.begin(), block.threads.end(),
                        [](const ThreadSlot& s) { return s.state == State::done; }))
            break;
        // Plus aucune fibre prête : une opération de warp dont les lanes manquantes ont
        // terminé peut s'achever ; sinon toutes attendent, il faut libérer une barrière.
        if (complete_pending_warps(block)) continue;
        if (block.aborted) break;
        if (wait_for_cluster(block)) continue;  // la barrière du cluster dépend des autres blocs
        if (all_at_same_barrier(block)) release_barrier(block);
    }
    if (!block.aborted) check_warpgroups_at_exit(block);  // wgmma jamais attendus (wgmma.cpp)
    // Les fibres sont créées à la première reprise d'un thread (resume, fiber.cpp). Détruire
    // une fibre suspendue (slot.fiber = {}) la déroule, destructeurs compris, sur sa pile.
    for (ThreadSlot& slot : block.threads) {
        destroy_fiber(slot);
        slot.fiber = {};
    }
    block.threads.swap(spare);
    current_block = nullptr;
    current_thread = nullptr;
}

}  // namespace simt::detail
