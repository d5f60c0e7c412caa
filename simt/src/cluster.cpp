/**
 * @file
 * @brief Clusters de blocs (Hopper) : exécution d'une grille à clusters, barrière du cluster
 *        (barrier.cluster, cluster.sync()) et mémoire partagée distribuée (map_shared_rank).
 *
 * Les blocs d'un cluster sont co-résidents sur GPU : ici, chacun a son thread du système, et
 * tous sont démarrés avant que l'un d'eux n'exécute le noyau. La mémoire partagée d'un bloc
 * vit dans le stockage local (TLS) de son thread du système (`__shared__` est
 * `static thread_local`) : la même variable d'un autre bloc est au même décalage dans le TLS
 * du thread de ce bloc, ce que calcule map_shared_rank. Les threads de tous les blocs restent
 * en vie jusqu'à la fin du cluster, si bien qu'un accès fautif à la mémoire d'un bloc terminé
 * ne lit jamais une mémoire libérée : il est signalé (cluster_thread_exited, cluster_map_shared).
 *
 * La barrière compte par phases, comme le matériel : une phase s'achève quand tous les
 * threads non terminés du cluster sont arrivés (un thread terminé n'est plus attendu, PTX ISA,
 * barrier.cluster).
 */
#include "execution.hpp"
#include "internal.hpp"

#include <link.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <latch>
#include <new>
#include <thread>

namespace simt::detail {

namespace {

/** @brief Ancre du TLS de l'exécutable, où vivent les variables `__shared__`. */
thread_local constinit std::byte tls_anchor{};

/** @brief Le segment TLS qui contient tls_anchor, pour le thread du système appelant. */
void find_tls(ClusterMember& member) {
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) -> int {
            if (info->dlpi_tls_data == nullptr) return 0;
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                if (info->dlpi_phdr[i].p_type != PT_TLS) continue;
                const auto* begin = static_cast<const std::byte*>(info->dlpi_tls_data);
                const auto* end = begin + info->dlpi_phdr[i].p_memsz;
                if (begin <= &tls_anchor && &tls_anchor < end) {
                    auto& found = *static_cast<ClusterMember*>(data);
                    found.tls_begin = begin;
                    found.tls_end = end;
                    return 1;
                }
            }
            return 0;
        },
        &member);
}

/** @brief Le bloc et le rang qu'un thread du système de cluster s'apprête à exécuter (voir join_cluster). */
struct Seat {
    Cluster* cluster = nullptr;
    unsigned rank = 0;
};
thread_local constinit Seat seat{};

unsigned volume(dim3 d) { return d.x * d.y * d.z; }

/** @brief Indice dans un volume @p d de l'indice linéaire @p linear (x d'abord). */
dim3 unflatten(unsigned linear, dim3 d) { return {linear % d.x, linear / d.x % d.y, linear / (d.x * d.y)}; }

std::string dims_text(dim3 d) {
    return std::to_string(d.x) + "×" + std::to_string(d.y) + "×" + std::to_string(d.z);
}

std::string hex(const void* pointer) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", pointer);
    return text;
}

/** @brief Une phase s'achève (sous le verrou du cluster) : tous les threads non terminés sont de nouveau attendus. */
void complete_phase(Cluster& cluster) {
    ++cluster.phase;
    cluster.pending = 0;
    for (ClusterMember& member : cluster.members) {
        member.pending = member.live;
        cluster.pending += member.live;
    }
    cluster.changed.notify_all();
    cluster.launch->progress.fetch_add(1, std::memory_order_relaxed);
}

/**
 * @brief Le cluster du bloc courant ; hors lancement à clusters, le cluster implicite d'un
 *        seul bloc, créé au premier usage (ses threads déjà terminés n'y comptent pas).
 */
Cluster& block_cluster(Block& block) {
    if (block.cluster == nullptr) {
        block.own_cluster = std::make_unique<Cluster>();
        Cluster& cluster = *block.own_cluster;
        cluster.launch = block.launch;
        cluster.index = block.index;
        cluster.members.resize(1);
        ClusterMember& member = cluster.members[0];
        member.block_index = block.index;
        find_tls(member);
        member.dynamic_shared = block.dynamic_shared;
        for (const ThreadSlot& slot : block.threads) member.live += slot.state != State::done;
        member.pending = member.live;
        cluster.pending = member.live;
        cluster.needed.assign(1, 0);
        block.cluster = &cluster;
        block.cluster_rank = 0;
    }
    return *block.cluster;
}

std::string block_text(const Cluster& cluster, unsigned rank) {
    return "bloc " + coordinates(cluster.members[rank].block_index) + " (rang " + std::to_string(rank) + ")";
}

/** @brief Exécute le cluster @p linear de la grille : un thread du système par bloc. */
void run_cluster(Launch& launch, unsigned linear, dim3 clusters_grid) {
    const LaunchShape& shape = launch.shape;
    const dim3 dims = shape.cluster;
    const unsigned size = volume(dims);
    const unsigned threads_per_block = volume(shape.block);
    Cluster cluster;
    cluster.launch = &launch;
    cluster.index = unflatten(linear, clusters_grid);
    cluster.members.resize(size);
    cluster.needed.assign(std::size_t{size} * size, 0);
    for (unsigned rank = 0; rank < size; ++rank) {
        const dim3 relative = unflatten(rank, dims);
        ClusterMember& member = cluster.members[rank];
        member.block_index = {cluster.index.x * dims.x + relative.x, cluster.index.y * dims.y + relative.y,
                              cluster.index.z * dims.z + relative.z};
        member.live = member.pending = threads_per_block;
    }
    cluster.pending = size * threads_per_block;
    {
        std::lock_guard lock(launch.clusters_mutex);
        launch.clusters.push_back(&cluster);
    }
    // Tous les blocs démarrent avant qu'aucun n'exécute le noyau, et aucun thread du système
    // ne se termine (emportant son TLS) avant que tous les blocs aient fini.
    std::latch started(size);
    std::latch finished(size);
    std::vector<std::thread> threads;
    threads.reserve(size);
    for (unsigned rank = 0; rank < size; ++rank) {
        threads.emplace_back([&, rank] {
            ClusterMember& member = cluster.members[rank];
            find_tls(member);
            const std::size_t bytes = std::max<std::size_t>(shape.dynamic_shared_bytes, 1);
            auto* shared = static_cast<std::byte*>(::operator new(bytes, std::align_val_t{128}));
            std::memset(shared, 0xcd, bytes);  // contenu indéfini, comme sur GPU
            member.dynamic_shared = shared;
            started.arrive_and_wait();
            const uint3 b = member.block_index;
            seat = {&cluster, rank};
            run_block(launch, b.x + b.y * shape.grid.x + b.z * shape.grid.x * shape.grid.y, shared);
            seat = {};
            finished.arrive_and_wait();
            ::operator delete(shared, std::align_val_t{128});
        });
    }
    for (std::thread& thread : threads) thread.join();
    std::lock_guard lock(launch.clusters_mutex);
    std::erase(launch.clusters, &cluster);
}

}  // namespace

bool clustered(const LaunchShape& shape) { return shape.explicit_cluster && volume(shape.cluster) > 1; }

void run_clusters(Launch& launch, unsigned resident_blocks) {
    const LaunchShape& shape = launch.shape;
    const unsigned size = volume(shape.cluster);
    const dim3 clusters_grid{shape.grid.x / shape.cluster.x, shape.grid.y / shape.cluster.y,
                             shape.grid.z / shape.cluster.z};
    const unsigned count = launch.block_count / size;
    // Autant de clusters à la fois que de clusters résidents (validate_cluster en garantit un).
    const unsigned workers = std::min(count, std::max(1u, resident_blocks / size));
    std::atomic<unsigned> done{0};
    std::vector<std::thread> threads;
    threads.reserve(workers);
    for (unsigned w = 0; w < workers; ++w) {
        threads.emplace_back([&] {
            for (unsigned first; !launch.aborted && (first = launch.next_block.fetch_add(size)) < launch.block_count;) {
                run_cluster(launch, first / size, clusters_grid);
                launch.finished_blocks.fetch_add(size);
                launch.progress.fetch_add(1, std::memory_order_relaxed);
            }
            done.fetch_add(1);
        });
    }
    watch_for_deadlock(launch, done, workers);
    for (std::thread& thread : threads) thread.join();
}

void join_cluster(Block& block) {
    block.cluster = seat.cluster;
    block.cluster_rank = seat.rank;
}

void cluster_thread_exited(Block& block, const ThreadSlot& slot) {
    Cluster& cluster = *block.cluster;
    std::unique_lock lock(cluster.mutex);
    const unsigned rank = block.cluster_rank;
    ClusterMember& member = cluster.members[rank];
    // Le dernier thread du bloc termine : sa mémoire partagée cesse d'exister, avant que cette
    // sortie n'achève peut-être une phase (la barrière ne l'attendait plus).
    const bool last = --member.live == 0;
    if (last) {
        member.finished = true;
        member.finished_phase = cluster.phase;
    }
    if (slot.cluster_arrivals <= cluster.phase) {  // pas encore arrivé dans la phase en cours
        --member.pending;
        if (--cluster.pending == 0) {
            bool anyone = false;
            for (const ClusterMember& m : cluster.members) anyone = anyone || m.live > 0;
            if (anyone) complete_phase(cluster);
        }
    }
    if (!last) return;
    const unsigned size = unsigned(cluster.members.size());
    for (unsigned reader = 0; reader < size; ++reader) {
        if (reader == rank || cluster.needed[reader * size + rank] <= member.finished_phase) continue;
        const std::string problem =
            "le bloc termine alors que le " + block_text(cluster, reader) +
            " du cluster a désigné sa mémoire partagée (map_shared_rank, mapa) sans qu'une barrière de "
            "cluster les sépare depuis : sur GPU, la mémoire partagée d'un bloc terminé peut être "
            "réattribuée (comportement indéfini) ; un cluster.sync() avant la fin garde chaque bloc "
            "en vie tant qu'un autre lit sa mémoire";
        lock.unlock();
        fail_block(block, problem);
        return;
    }
}

bool wait_for_cluster(Block& block) {
    const auto waiting = [&] {
        return std::any_of(block.threads.begin(), block.threads.end(),
                           [](const ThreadSlot& s) { return s.state == State::at_cluster; });
    };
    if (block.cluster == nullptr || !waiting()) return false;
    Cluster& cluster = *block.cluster;
    std::unique_lock lock(cluster.mutex);
    for (;;) {
        bool released = false;
        for (ThreadSlot& slot : block.threads)
            if (slot.state == State::at_cluster && cluster.phase >= slot.cluster_arrivals) {
                slot.state = State::ready;
                released = true;
            }
        if (released) return true;
        // Seul bloc du cluster : personne d'autre ne fera avancer la barrière ; les threads
        // qui attendent ailleurs forment des barrières divergentes (all_at_same_barrier).
        if (cluster.members.size() == 1) return false;
        if (block.launch->aborted) {
            block.aborted = true;
            return true;
        }
        cluster.changed.wait_for(lock, std::chrono::milliseconds(50));
    }
}

std::string cluster_deadlock_text(Launch& launch) {
    std::lock_guard list_lock(launch.clusters_mutex);
    std::string text;
    for (Cluster* cluster : launch.clusters) {
        std::lock_guard lock(cluster->mutex);
        unsigned live = 0;
        for (const ClusterMember& member : cluster->members) live += member.live;
        if (cluster->pending == 0 || cluster->pending == live) continue;  // personne n'attend la barrière
        std::string missing;
        for (unsigned rank = 0; rank < cluster->members.size(); ++rank) {
            const ClusterMember& member = cluster->members[rank];
            if (member.pending == 0) continue;
            missing += (missing.empty() ? "" : ", ") + block_text(*cluster, rank) + " : " +
                       std::to_string(member.pending) + " thread" + (member.pending > 1 ? "s" : "") +
                       " sur " + std::to_string(member.live) + " non arrivé" + (member.pending > 1 ? "s" : "");
        }
        text += " ; cluster " + coordinates(cluster->index) +
                " : la barrière du cluster (cluster.sync(), barrier.cluster) attend des blocs qui ne "
                "l'atteignent pas : " + missing;
    }
    return text;
}

// ---- Fonctions du périphérique (engine.hpp) ------------------------------------------------

ClusterPlace cluster_place() {
    ClusterPlace place{dim3(1, 1, 1), dim3(0, 0, 0), 0, dim3(0, 0, 0), dim3(1, 1, 1), false};
    if (current_block == nullptr) return place;
    const LaunchShape& shape = current_block->launch->shape;
    const uint3 b = current_block->index;
    const dim3 d = shape.explicit_cluster ? shape.cluster : dim3(1, 1, 1);
    place.dims = d;
    place.block_index = dim3(b.x % d.x, b.y % d.y, b.z % d.z);
    place.block_rank = place.block_index.x + d.x * (place.block_index.y + d.y * place.block_index.z);
    place.index = dim3(b.x / d.x, b.y / d.y, b.z / d.z);
    place.grid = dim3(shape.grid.x / d.x, shape.grid.y / d.y, shape.grid.z / d.z);
    place.explicit_dims = shape.explicit_cluster;
    return place;
}

void cluster_arrive(const std::source_location& where) {
    ThreadSlot& self = *current_thread;
    Block& block = *current_block;
    Cluster& cluster = block_cluster(block);
    if (self.cluster_arrivals > self.cluster_waits)
        fail_current("barrier.cluster.arrive (" + location(where) +
                     ") une seconde fois sans barrier.cluster.wait entre les deux : chaque arrivée à la "
                     "barrière du cluster doit être suivie de son attente (cluster.barrier_wait())");
    std::lock_guard lock(cluster.mutex);
    ++self.cluster_arrivals;
    --cluster.members[block.cluster_rank].pending;
    if (--cluster.pending == 0) complete_phase(cluster);
}

void cluster_wait(const std::source_location& where) {
    ThreadSlot& self = *current_thread;
    Block& block = *current_block;
    Cluster& cluster = block_cluster(block);
    if (self.cluster_waits == self.cluster_arrivals)
        fail_current("barrier.cluster.wait (" + location(where) +
                     ") sans barrier.cluster.arrive qui le précède : le thread attendrait une phase à "
                     "laquelle il n'est pas arrivé (cluster.barrier_arrive() d'abord)");
    {
        std::lock_guard lock(cluster.mutex);
        if (cluster.phase >= self.cluster_arrivals) {
            self.cluster_waits = self.cluster_arrivals;
            return;
        }
    }
    self.state = State::at_cluster;
    self.where = where;
    suspend(self);  // wait_for_cluster le rend prêt quand la phase s'achève
    self.cluster_waits = self.cluster_arrivals;
}

void* cluster_map_shared(const void* generic, long long wanted, const std::source_location& where) {
    Block& block = *current_block;
    Cluster& cluster = block_cluster(block);
    const unsigned size = unsigned(cluster.members.size());
    if (wanted < 0 || wanted >= size)
        fail_current("map_shared_rank (" + location(where) + ") : rang " + std::to_string(wanted) +
                     " hors du cluster de " + std::to_string(size) + " bloc" + (size > 1 ? "s" : "") +
                     " (rangs 0 à " + std::to_string(size - 1) + ")");
    const unsigned rank = unsigned(wanted);
    const ClusterMember& self = cluster.members[block.cluster_rank];
    const ClusterMember& target = cluster.members[rank];
    const auto* p = static_cast<const std::byte*>(generic);
    const std::size_t dynamic_bytes = block.launch->shape.dynamic_shared_bytes;
    const std::byte* mapped = nullptr;
    if (self.dynamic_shared != nullptr && p >= self.dynamic_shared && p < self.dynamic_shared + dynamic_bytes)
        mapped = target.dynamic_shared + (p - self.dynamic_shared);
    else if (p >= self.tls_begin && p < self.tls_end)
        mapped = target.tls_begin + (p - self.tls_begin);
    else
        fail_current("map_shared_rank (" + location(where) + ") : le pointeur " + hex(generic) +
                     " ne désigne pas la mémoire partagée du bloc (ni variable __shared__, ni mémoire "
                     "partagée dynamique)");
    if (rank == block.cluster_rank) return const_cast<std::byte*>(p);
    bool before_first_phase = false;
    {
        std::unique_lock lock(cluster.mutex);
        if (target.finished) {
            lock.unlock();
            fail_current("map_shared_rank (" + location(where) + ") : le " + block_text(cluster, rank) +
                         " a déjà terminé ; sa mémoire partagée n'existe plus sur GPU (comportement "
                         "indéfini) : un cluster.sync() avant la fin de chaque bloc l'évite");
        }
        unsigned& needed = cluster.needed[block.cluster_rank * size + rank];
        needed = std::max(needed, current_thread->cluster_arrivals + 1);
        before_first_phase = cluster.phase == 0;
    }
    if (before_first_phase)
        tolerate(block, *current_thread, where, "dsmem-avant-cluster-sync",
                 "map_shared_rank vise le " + block_text(cluster, rank) +
                     " avant qu'aucune barrière de cluster ne garantisse qu'il a démarré",
                 "tous les blocs du cluster doivent avoir démarré avant un accès à la mémoire partagée "
                 "distribuée, ce que garantit cluster.sync()");
    return const_cast<std::byte*>(mapped);
}

unsigned cluster_query_shared_rank(const void* generic, const std::source_location& where) {
    Block& block = *current_block;
    Cluster& cluster = block_cluster(block);
    const auto* p = static_cast<const std::byte*>(generic);
    const std::size_t dynamic_bytes = block.launch->shape.dynamic_shared_bytes;
    for (unsigned rank = 0; rank < cluster.members.size(); ++rank) {
        const ClusterMember& member = cluster.members[rank];
        if ((p >= member.tls_begin && p < member.tls_end) ||
            (member.dynamic_shared != nullptr && p >= member.dynamic_shared && p < member.dynamic_shared + dynamic_bytes))
            return rank;
    }
    fail_current("query_shared_rank (" + location(where) + ") : le pointeur " + hex(generic) +
                 " ne désigne la mémoire partagée d'aucun bloc du cluster");
}

void check_cluster_dims(unsigned x, unsigned y, unsigned z, const std::source_location& where) {
    if (current_block == nullptr) return;
    const LaunchShape& shape = current_block->launch->shape;
    if (x == 0 && y == 0 && z == 0) {
        if (shape.explicit_cluster) return;
        fail_current("le noyau déclare __cluster_dims__() (" + location(where) +
                     ") : il doit être lancé avec des dimensions de cluster (cudaLaunchKernelEx, "
                     "cudaLaunchAttributeClusterDimension)");
    }
    if (shape.explicit_cluster && shape.cluster.x == x && shape.cluster.y == y && shape.cluster.z == z) return;
    if (!shape.explicit_cluster)
        fail_current("le noyau déclare __cluster_dims__(" + std::to_string(x) + ", " + std::to_string(y) + ", " +
                     std::to_string(z) + ") (" + location(where) +
                     "), que simt n'a pas pu lire avant le lancement : la réécriture ne retient "
                     "l'attribut que pour un noyau seul de son nom, ni modèle ni surchargé ; lancez "
                     "celui-ci par cudaLaunchKernelEx avec cudaLaunchAttributeClusterDimension");
    fail_current("lancé en clusters de " + dims_text(shape.cluster) + " blocs, le noyau déclare __cluster_dims__(" +
                 std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ") (" +
                 location(where) + ")");
}

}  // namespace simt::detail
