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
#include "simt/cluster_window.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <latch>
#include <thread>

namespace simt::detail {

namespace {

/** @brief Ce que les autres blocs doivent savoir du bloc qui démarre sur ce thread du système. */
void describe_this_thread(ClusterMember& member) {
    executable_tls(member.tls_begin, member.tls_end);
    member.window = dynamic_shared_window();
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
        describe_this_thread(member);
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
            describe_this_thread(member);
            started.arrive_and_wait();
            const uint3 b = member.block_index;
            seat = {&cluster, rank};
            run_block(launch, b.x + b.y * shape.grid.x + b.z * shape.grid.x * shape.grid.y);
            seat = {};
            finished.arrive_and_wait();
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

namespace {

/** @brief Rend prêtes les fibres arrêtées à barrier.cluster.wait dont la phase est achevée (verrou du cluster tenu). */
bool release_finished_waits(Block& block, const Cluster& cluster) {
    bool released = false;
    for (ThreadSlot& slot : block.threads)
        if (slot.state == State::at_cluster && cluster.phase >= slot.cluster_arrivals) {
            slot.state = State::ready;
            released = true;
        }
    return released;
}

bool cluster_waiting(const Block& block) {
    return std::any_of(block.threads.begin(), block.threads.end(),
                       [](const ThreadSlot& s) { return s.state == State::at_cluster; });
}

}  // namespace

// Correction : wait_for_cluster n'est appelée que lorsqu'aucune fibre du bloc n'est prête. Une
// fibre qui attend activement (boucle mbarrier.try_wait d'un producteur de TMA, par exemple)
// reste toujours prête : les autres fibres du bloc, arrêtées à une phase du cluster pourtant
// achevée, n'étaient alors jamais reprises (interblocage d'un GEMM à clusters dont un groupe de
// warps attend une mbarrier que remplit l'autre groupe). run_block appelle donc aussi ceci à
// chaque passe où une fibre a cédé la main dans une attente active.
bool release_cluster_waiters(Block& block) {
    if (block.cluster == nullptr || !cluster_waiting(block)) return false;
    std::lock_guard lock(block.cluster->mutex);
    return release_finished_waits(block, *block.cluster);
}

bool wait_for_cluster(Block& block) {
    if (block.cluster == nullptr || !cluster_waiting(block)) return false;
    Cluster& cluster = *block.cluster;
    std::unique_lock lock(cluster.mutex);
    for (;;) {
        if (release_finished_waits(block, cluster)) return true;
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

namespace {

/**
 * @brief Vide si [@p p, @p p + @p bytes) est dans la mémoire partagée de @p member (ses
 *        variables __shared__ dans son TLS, sa mémoire dynamique jusqu'à @p dynamic_bytes) ;
 *        sinon, pourquoi.
 */
std::string outside(const ClusterMember& member, const std::byte* p, std::size_t bytes, std::size_t dynamic_bytes) {
    if (p >= member.window && p < member.window + kSharedWindowBytes) {
        if (std::size_t(p - member.window) + bytes <= dynamic_bytes) return {};
        return "au-delà des " + std::to_string(dynamic_bytes) +
               " octets de mémoire partagée dynamique demandés au lancement";
    }
    if (p >= member.tls_begin && p + bytes <= member.tls_end) return {};
    return "ni une variable __shared__ ni la mémoire partagée dynamique du bloc";
}

void check_rank(const Cluster& cluster, long long rank, const std::string& what) {
    const std::size_t size = cluster.members.size();
    if (rank < 0 || std::size_t(rank) >= size)
        fail_current(what + " : rang " + std::to_string(rank) + " hors du cluster de " + std::to_string(size) +
                     " bloc" + (size > 1 ? "s" : "") + " (rangs 0 à " + std::to_string(size - 1) + ")");
}

/**
 * @brief Le thread courant vise la mémoire partagée du bloc de rang @p rank (un autre que le
 *        sien) : refusé si ce bloc a terminé ; noté pour vérifier qu'il ne terminera pas avant
 *        la prochaine barrière du cluster ; toléré avant la première (comportement indéfini).
 */
void reach(Block& block, Cluster& cluster, unsigned rank, const std::string& what,
           const std::source_location& where) {
    const std::size_t size = cluster.members.size();
    bool before_first_phase = false;
    {
        std::unique_lock lock(cluster.mutex);
        if (cluster.members[rank].finished) {
            lock.unlock();
            fail_current(what + " : le " + block_text(cluster, rank) +
                         " a déjà terminé ; sa mémoire partagée n'existe plus sur GPU (comportement "
                         "indéfini) : un cluster.sync() avant la fin de chaque bloc l'évite");
        }
        unsigned& needed = cluster.needed[block.cluster_rank * size + rank];
        needed = std::max(needed, current_thread->cluster_arrivals + 1);
        before_first_phase = cluster.phase == 0;
    }
    if (before_first_phase)
        tolerate(block, *current_thread, where, "dsmem-avant-cluster-sync",
                 what + " vise le " + block_text(cluster, rank) +
                     " avant qu'aucune barrière de cluster ne garantisse qu'il a démarré",
                 "tous les blocs du cluster doivent avoir démarré avant un accès à la mémoire partagée "
                 "distribuée, ce que garantit cluster.sync()");
}

}  // namespace

void* cluster_map_shared(const void* generic, long long wanted, const std::source_location& where) {
    Block& block = *current_block;
    Cluster& cluster = block_cluster(block);
    const std::string what = "map_shared_rank (" + location(where) + ")";
    check_rank(cluster, wanted, what);
    const unsigned rank = unsigned(wanted);
    const ClusterMember& self = cluster.members[block.cluster_rank];
    const auto* p = static_cast<const std::byte*>(generic);
    if (const std::string why = outside(self, p, 0, block.launch->shape.dynamic_shared_bytes); !why.empty())
        fail_current(what + " : le pointeur " + hex(generic) + " ne désigne pas la mémoire partagée du bloc (" +
                     why + ")");
    if (rank == block.cluster_rank) return const_cast<std::byte*>(p);
    reach(block, cluster, rank, what, where);
    // Même variable, même décalage dans le TLS du thread du système de l'autre bloc.
    return const_cast<std::byte*>(cluster.members[rank].tls_begin + (p - self.tls_begin));
}

bool cluster_is_shared(const void* generic) {
    if (current_block == nullptr) return false;
    Block& block = *current_block;
    const Cluster& cluster = block_cluster(block);
    for (const ClusterMember& member : cluster.members)
        if (outside(member, static_cast<const std::byte*>(generic), 0, block.launch->shape.dynamic_shared_bytes).empty())
            return true;
    return false;
}

unsigned cluster_query_shared_rank(const void* generic, const std::source_location& where) {
    Block& block = *current_block;
    Cluster& cluster = block_cluster(block);
    const auto* p = static_cast<const std::byte*>(generic);
    for (unsigned rank = 0; rank < cluster.members.size(); ++rank)
        if (outside(cluster.members[rank], p, 0, block.launch->shape.dynamic_shared_bytes).empty()) return rank;
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

// ---- Adresses shared::cluster de 32 bits (voir simt/cluster.hpp) ---------------------------

namespace simt {

namespace {

/** @brief Une adresse shared::cluster décodée : le bloc visé et le décalage depuis sa fenêtre. */
struct ClusterAddress {
    bool own;             // adresse shared::cta du bloc courant (octet de poids fort 0x00 ou 0xff)
    unsigned rank;        // sinon : rang du bloc visé
    std::int32_t offset;  // décalage signé depuis la fenêtre de ce bloc
};

ClusterAddress decode(std::uint32_t address) {
    const unsigned top = address >> kClusterRankShift;
    if (top == 0 || top == 0xff) return {true, 0, static_cast<std::int32_t>(address)};
    return {false, top - 1, static_cast<std::int32_t>(address << 8) >> 8};  // 24 bits signés
}

std::string hex32(std::uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", value);
    return text;
}

detail::Block& device_block(const char* what) {
    if (detail::current_block == nullptr || detail::current_thread == nullptr) {
        std::fprintf(stderr, "simt : %s appelé hors d'un noyau\n", what);
        std::abort();
    }
    return *detail::current_block;
}

}  // namespace

std::uint32_t cluster_shared_address(std::uint32_t address, unsigned rank, const std::source_location& where) {
    detail::Block& block = device_block("mapa");
    detail::Cluster& cluster = detail::block_cluster(block);
    const std::string what = "mapa (" + detail::location(where) + ")";
    detail::check_rank(cluster, rank, what);
    const ClusterAddress decoded = decode(address);
    if (!decoded.own) detail::check_rank(cluster, decoded.rank, what + ", adresse " + hex32(address));
    constexpr std::int32_t limit = std::int32_t{1} << (kClusterRankShift - 1);
    if (decoded.offset < -limit || decoded.offset >= limit)
        detail::fail_current(what + " : l'adresse partagée " + hex32(address) +
                             " est à plus de 8 Mio de la fenêtre du bloc, hors de ce que code une "
                             "adresse shared::cluster de simt (24 bits)");
    return (std::uint32_t(rank + 1) << kClusterRankShift) |
           (static_cast<std::uint32_t>(decoded.offset) & ((1u << kClusterRankShift) - 1));
}

void* cluster_shared_pointer(std::uint32_t address, std::size_t bytes, const std::source_location& where) {
    detail::Block& block = device_block("cluster_shared_pointer");
    detail::Cluster& cluster = detail::block_cluster(block);
    const std::string what = "adresse shared::cluster " + hex32(address) + " (" + detail::location(where) + ")";
    const ClusterAddress decoded = decode(address);
    const unsigned rank = decoded.own ? block.cluster_rank : decoded.rank;
    detail::check_rank(cluster, rank, what);
    const detail::ClusterMember& target = cluster.members[rank];
    const std::byte* p = target.window + decoded.offset;
    if (const std::string why = detail::outside(target, p, bytes, block.launch->shape.dynamic_shared_bytes);
        !why.empty())
        detail::fail_current(what + " : hors de la mémoire partagée du " + detail::block_text(cluster, rank) +
                             " (" + why + ", accès de " + std::to_string(bytes) + " octets)");
    if (rank != block.cluster_rank) detail::reach(block, cluster, rank, what, where);
    return const_cast<std::byte*>(p);
}

unsigned cluster_shared_rank(std::uint32_t address) {
    const ClusterAddress decoded = decode(address);
    return decoded.own ? device_block("cluster_shared_rank").cluster_rank : decoded.rank;
}

}  // namespace simt
