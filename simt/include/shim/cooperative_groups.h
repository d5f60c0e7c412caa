/**
 * @file
 * @brief Groupes coopératifs pour l'émulateur simt (remplace l'en-tête du toolkit, qui
 *        ne se compile qu'avec nvcc) : bloc, grille, cluster de blocs, tuiles statiques et
 *        dynamiques. Une tuile statique compte de 1 à 1 024 threads (puissance de 2), une tuile
 *        dynamique tient dans un warp. Tout groupe sauf le cluster se convertit en thread_group
 *        (bloc, tuile ou groupe coalescé, de nature connue à l'exécution), comme dans CUDA.
 */
#pragma once

#include <cstring>
#include <source_location>
#include <type_traits>

namespace cooperative_groups {

namespace detail {

/** @brief Lane de rang @p rank parmi les lanes de @p mask (le rang-ième bit à 1). */
inline unsigned lane_of_rank(unsigned mask, unsigned rank) {
    for (unsigned lane = 0; lane < 32; ++lane)
        if ((mask >> lane & 1u) && rank-- == 0) return lane;
    return 32;
}

/** @brief Les bits de @p bits choisis par @p mask, tassés vers le bas (rang dans le groupe). */
inline unsigned compact(unsigned bits, unsigned mask) {
    unsigned result = 0, rank = 0;
    for (unsigned lane = 0; lane < 32; ++lane)
        if (mask >> lane & 1u) result |= (bits >> lane & 1u) << rank++;
    return result;
}

inline unsigned block_rank() { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
inline unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }

/** @brief sync() d'une tuile de plusieurs warps. */
inline void tile_sync(unsigned size, const std::source_location& where) {
    int unused = 0;
    simt::detail::tile_collective(simt::detail::TileOp::sync, size, &unused, &unused, sizeof unused, 0,
                                  nullptr, nullptr, where);
}

/** @brief L'opérateur @p op (de type Op) appliqué à deux valeurs de type T rangées en mémoire. */
template <typename T, typename Op>
void combine(const void* op, void* accumulator, const void* value) {
    T a, b;
    std::memcpy(&a, accumulator, sizeof(T));
    std::memcpy(&b, value, sizeof(T));
    const T combined = (*static_cast<const Op*>(op))(a, b);
    std::memcpy(accumulator, &combined, sizeof(T));
}

/** @brief Réduction ou scan sur une tuile de plusieurs warps, dans l'ordre des rangs. */
template <typename T, typename Op>
T tile_fold(simt::detail::TileOp kind, unsigned size, T value, const Op& op, const std::source_location& where) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                  "simt : sur une tuile de plus de 32 threads, CUDA limite les opérations collectives "
                  "aux types de 8 octets au plus");
    T result{};
    simt::detail::tile_collective(kind, size, &value, &result, sizeof(T), 0, &combine<T, Op>, &op, where);
    return result;
}

}  // namespace detail

class thread_group;

namespace detail {
unsigned group_mask(const thread_group& group);
}  // namespace detail

/**
 * @brief Un groupe de threads de nature connue à l'exécution : le bloc, une tuile d'un warp
 *        ou un groupe coalescé. Tous les groupes s'y convertissent.
 */
class thread_group {
public:
    void sync(const std::source_location& where = std::source_location::current()) const {
        if (kind_ == kind::block)
            simt::detail::block_barrier(simt::detail::BarrierKind::sync, 0, where);
        else if (kind_ == kind::tile && size_ > 32)
            detail::tile_sync(size_, where);
        else
            __syncwarp(mask(), where);
    }
    unsigned thread_rank() const {
        switch (kind_) {
            case kind::block: return detail::block_rank();
            case kind::tile: return detail::block_rank() % size_;
            case kind::coalesced: break;
        }
        return unsigned(__popc(mask_ & ((1u << simt::detail::lane_id()) - 1u)));
    }
    unsigned num_threads() const {
        switch (kind_) {
            case kind::block: return detail::block_size();
            case kind::tile: return size_;
            case kind::coalesced: break;
        }
        return unsigned(__popc(mask_));
    }
    unsigned size() const { return num_threads(); }
    /** @brief Rang de la tuile parmi celles du bloc (tuiles seulement). */
    unsigned meta_group_rank() const { return kind_ == kind::tile ? detail::block_rank() / size_ : 0; }
    /** @brief Nombre de tuiles du bloc (tuiles seulement). */
    unsigned meta_group_size() const {
        return kind_ == kind::tile ? (detail::block_size() + size_ - 1) / size_ : 1;
    }

protected:
    enum class kind { block, tile, coalesced };
    thread_group(kind k, unsigned size, unsigned mask) : kind_(k), size_(size), mask_(mask) {}

    /** @brief Lanes du groupe dans le warp du thread courant (tuile ou groupe coalescé). */
    unsigned mask() const {
        if (kind_ == kind::coalesced) return mask_;
        const unsigned base = simt::detail::lane_id() / size_ * size_;
        return (size_ == 32 ? 0xffffffffu : ((1u << size_) - 1u)) << base;
    }

    kind kind_;
    unsigned size_;  ///< taille d'une tuile
    unsigned mask_;  ///< lanes d'un groupe coalescé

    friend thread_group tiled_partition(const thread_group& parent, unsigned size);
    friend unsigned detail::group_mask(const thread_group& group);
};

/** @brief Lanes du groupe dans le warp du thread courant (labeled_partition). */
inline unsigned detail::group_mask(const thread_group& group) { return group.mask(); }

/**
 * @brief Mémoire des tuiles de plus d'un warp : sur GPU, leurs barrières et leurs échanges y
 *        passent (obligatoire avant sm_80) ; simt les fait dans son moteur (tiles.cpp), elle
 *        n'est donc pas utilisée.
 */
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {
    static_assert(MaxBlockSize >= 1 && MaxBlockSize <= 1024, "simt : un bloc compte de 1 à 1 024 threads");
};

/** @brief Le bloc de threads courant. */
class thread_block : public thread_group {
public:
    thread_block() : thread_group(kind::block, 0, 0) {}
    void sync(const std::source_location& where = std::source_location::current()) const {
        simt::detail::block_barrier(simt::detail::BarrierKind::sync, 0, where);
    }
    unsigned thread_rank() const { return detail::block_rank(); }
    unsigned num_threads() const { return detail::block_size(); }
    unsigned size() const { return num_threads(); }
    dim3 group_index() const { return blockIdx; }
    dim3 thread_index() const { return threadIdx; }
    dim3 dim_threads() const { return blockDim; }
    dim3 group_dim() const { return blockDim; }
};

inline thread_block this_thread_block() { return {}; }
/** @brief Forme qui reçoit la mémoire des grandes tuiles (block_tile_memory). */
template <unsigned MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) {
    return {};
}

/** @brief Toute la grille ; sync() exige cudaLaunchCooperativeKernel. */
class grid_group {
public:
    void sync(const std::source_location& where = std::source_location::current()) const {
        simt::detail::grid_barrier(where);
    }
    bool is_valid() const { return true; }
    unsigned long long thread_rank() const { return block_rank() * num_threads_per_block() + detail::block_rank(); }
    unsigned long long num_threads() const {
        return 1ull * gridDim.x * gridDim.y * gridDim.z * num_threads_per_block();
    }
    unsigned long long size() const { return num_threads(); }
    unsigned long long block_rank() const {
        return (1ull * blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    }
    unsigned long long num_blocks() const { return 1ull * gridDim.x * gridDim.y * gridDim.z; }
    dim3 group_dim() const { return gridDim; }
    dim3 dim_blocks() const { return gridDim; }
    dim3 block_index() const { return blockIdx; }
    /** @brief Dimensions de la grille en clusters. */
    dim3 dim_clusters() const { return __clusterGridDimInClusters(); }
    unsigned long long num_clusters() const {
        const dim3 d = dim_clusters();
        return 1ull * d.x * d.y * d.z;
    }
    /** @brief Indice du cluster du bloc courant dans la grille. */
    dim3 cluster_index() const { return __clusterIdx(); }
    unsigned long long cluster_rank() const {
        const dim3 i = cluster_index(), d = dim_clusters();
        return (1ull * i.z * d.y + i.y) * d.x + i.x;
    }

private:
    static unsigned long long num_threads_per_block() { return 1ull * blockDim.x * blockDim.y * blockDim.z; }
};

inline grid_group this_grid() { return {}; }

/**
 * @brief Le cluster de blocs courant (Hopper) : rangs et dimensions, barrière du cluster et
 *        mémoire partagée distribuée. Hors lancement à clusters, un cluster implicite d'un seul
 *        bloc, comme sur GPU. Voir src/cluster.cpp.
 */
class cluster_group {
public:
    /** @brief Jeton rendu par barrier_arrive, passé à barrier_wait. */
    struct arrival_token {};

    static void sync(const std::source_location& where = std::source_location::current()) {
        simt::detail::cluster_arrive(where);
        simt::detail::cluster_wait(where);
    }
    static arrival_token barrier_arrive(const std::source_location& where = std::source_location::current()) {
        simt::detail::cluster_arrive(where);
        return {};
    }
    static void barrier_wait(const std::source_location& where = std::source_location::current()) {
        simt::detail::cluster_wait(where);
    }
    static void barrier_wait(arrival_token&&, const std::source_location& where = std::source_location::current()) {
        simt::detail::cluster_wait(where);
    }
    static unsigned query_shared_rank(const void* address,
                                      const std::source_location& where = std::source_location::current()) {
        return simt::detail::cluster_query_shared_rank(address, where);
    }
    /** @brief La même variable que @p address dans la mémoire partagée du bloc de rang @p rank. */
    template <typename T>
    static T* map_shared_rank(T* address, int rank, const std::source_location& where = std::source_location::current()) {
        return static_cast<T*>(simt::detail::cluster_map_shared(address, rank, where));
    }
    static dim3 block_index() { return __clusterRelativeBlockIdx(); }
    static unsigned block_rank() { return __clusterRelativeBlockRank(); }
    static dim3 thread_index() {
        const dim3 b = block_index();
        return dim3(b.x * blockDim.x + threadIdx.x, b.y * blockDim.y + threadIdx.y, b.z * blockDim.z + threadIdx.z);
    }
    static unsigned thread_rank() { return block_rank() * detail::block_size() + detail::block_rank(); }
    static dim3 dim_blocks() { return __clusterDim(); }
    static unsigned num_blocks() { return __clusterSizeInBlocks(); }
    static dim3 dim_threads() {
        const dim3 d = dim_blocks();
        return dim3(d.x * blockDim.x, d.y * blockDim.y, d.z * blockDim.z);
    }
    static unsigned num_threads() { return num_blocks() * detail::block_size(); }
    static unsigned size() { return num_threads(); }
};

inline cluster_group this_cluster() { return {}; }

/**
 * @brief Tuile de Size threads consécutifs du bloc. Jusqu'à 32 threads, elle tient dans un warp
 *        et a toutes les opérations de warp ; de 64 à 1 024 (plusieurs warps), CUDA n'en garde
 *        que sync, shfl, any, all (et reduce, les scans), sur des types de 8 octets au plus :
 *        les autres n'y sont pas déclarées, comme dans cooperative_groups.h.
 */
template <unsigned Size, typename Parent = void>
class thread_block_tile : public thread_group {
    static_assert(Size >= 1 && Size <= 1024 && (Size & (Size - 1)) == 0,
                  "simt : une tuile compte de 1 à 1 024 threads, puissance de 2");
    static constexpr bool kMultiWarp = Size > 32;

public:
    thread_block_tile() : thread_group(kind::tile, Size, 0) {}
    /** @brief Conversion depuis une tuile de même taille issue d'un autre parent. */
    template <typename OtherParent>
    thread_block_tile(const thread_block_tile<Size, OtherParent>&) : thread_group(kind::tile, Size, 0) {}
    static constexpr unsigned num_threads() { return Size; }
    static constexpr unsigned size() { return Size; }
    unsigned thread_rank() const { return detail::block_rank() % Size; }
    void sync(const std::source_location& where = std::source_location::current()) const {
        if constexpr (kMultiWarp) detail::tile_sync(Size, where);
        else __syncwarp(mask(), where);
    }

    template <typename T>
    T shfl(T value, unsigned source, const std::source_location& w = std::source_location::current()) const {
        if constexpr (kMultiWarp) {
            static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                          "simt : sur une tuile de plus de 32 threads, CUDA limite shfl aux types de "
                          "8 octets au plus");
            T result{};
            simt::detail::tile_collective(simt::detail::TileOp::shfl, Size, &value, &result, sizeof(T),
                                          source, nullptr, nullptr, w);
            return result;
        } else {
            return __shfl_sync(mask(), value, int(source), int(Size), w);
        }
    }
    template <typename T>
    T shfl_down(T value, unsigned delta, const std::source_location& w = std::source_location::current()) const
        requires(!kMultiWarp) {
        return __shfl_down_sync(mask(), value, delta, int(Size), w);
    }
    template <typename T>
    T shfl_up(T value, unsigned delta, const std::source_location& w = std::source_location::current()) const
        requires(!kMultiWarp) {
        return __shfl_up_sync(mask(), value, delta, int(Size), w);
    }
    template <typename T>
    T shfl_xor(T value, int lane_mask, const std::source_location& w = std::source_location::current()) const
        requires(!kMultiWarp) {
        return __shfl_xor_sync(mask(), value, lane_mask, int(Size), w);
    }
    int any(int predicate, const std::source_location& w = std::source_location::current()) const {
        return vote(simt::detail::TileOp::any, predicate, w);
    }
    int all(int predicate, const std::source_location& w = std::source_location::current()) const {
        return vote(simt::detail::TileOp::all, predicate, w);
    }
    unsigned ballot(int predicate, const std::source_location& w = std::source_location::current()) const
        requires(!kMultiWarp) {
        return __ballot_sync(mask(), predicate, w) >> (simt::detail::lane_id() / Size * Size);
    }

private:
    int vote(simt::detail::TileOp op, int predicate, const std::source_location& w) const {
        if constexpr (kMultiWarp) {
            int result = 0;
            simt::detail::tile_collective(op, Size, &predicate, &result, sizeof(int), 0, nullptr, nullptr, w);
            return result;
        } else {
            return op == simt::detail::TileOp::any ? __any_sync(mask(), predicate, w)
                                                   : __all_sync(mask(), predicate, w);
        }
    }
};

namespace detail {
/** @brief Vrai pour une tuile de plus de 32 threads. */
template <typename Group>
constexpr bool is_multi_warp_tile = false;
template <unsigned Size, typename Parent>
constexpr bool is_multi_warp_tile<thread_block_tile<Size, Parent>> = (Size > 32);
}  // namespace detail

/**
 * @brief Les threads actifs d'un warp au point d'appel (coalesced_threads). Les rangs sont
 *        comptés parmi les lanes du groupe, et les shuffles désignent un rang, pas une lane.
 *        Le groupe est formé des lanes arrivées au même appel de coalesced_threads() (même
 *        ligne) : dans une branche divergente, celles de la branche seulement, comme sur GPU.
 */
class coalesced_group : public thread_group {
public:
    explicit coalesced_group(unsigned lanes) : thread_group(kind::coalesced, 0, lanes) {}
    unsigned thread_rank() const { return unsigned(__popc(mask_ & ((1u << simt::detail::lane_id()) - 1u))); }
    unsigned num_threads() const { return unsigned(__popc(mask_)); }
    unsigned size() const { return num_threads(); }
    unsigned meta_group_rank() const { return 0; }
    unsigned meta_group_size() const { return 1; }
    void sync(const std::source_location& where = std::source_location::current()) const {
        __syncwarp(mask_, where);
    }

    template <typename T>
    T shfl(T value, unsigned source_rank, const std::source_location& w = std::source_location::current()) const {
        return __shfl_sync(mask_, value, int(detail::lane_of_rank(mask_, source_rank % size())), 32, w);
    }
    template <typename T>
    T shfl_down(T value, unsigned delta, const std::source_location& w = std::source_location::current()) const {
        const unsigned source = thread_rank() + delta;
        const unsigned lane = source < size() ? detail::lane_of_rank(mask_, source) : simt::detail::lane_id();
        return __shfl_sync(mask_, value, int(lane), 32, w);
    }
    template <typename T>
    T shfl_up(T value, unsigned delta, const std::source_location& w = std::source_location::current()) const {
        const unsigned rank = thread_rank();
        const unsigned lane = rank >= delta ? detail::lane_of_rank(mask_, rank - delta) : simt::detail::lane_id();
        return __shfl_sync(mask_, value, int(lane), 32, w);
    }
    int any(int predicate, const std::source_location& w = std::source_location::current()) const {
        return __any_sync(mask_, predicate, w);
    }
    int all(int predicate, const std::source_location& w = std::source_location::current()) const {
        return __all_sync(mask_, predicate, w);
    }
    /** @brief Bit i : le prédicat du thread de rang i. */
    unsigned ballot(int predicate, const std::source_location& w = std::source_location::current()) const {
        return detail::compact(__ballot_sync(mask_, predicate, w), mask_);
    }
};

inline coalesced_group coalesced_threads(const std::source_location& where = std::source_location::current()) {
    return coalesced_group(simt::detail::coalesced_lanes(where));
}

namespace detail {

template <typename Group>
inline constexpr bool is_warp_group = true;
template <unsigned Size, typename Parent>
inline constexpr bool is_warp_group<thread_block_tile<Size, Parent>> = Size <= 32;

}  // namespace detail

/**
 * @brief Partition d'un groupe coalescé ou d'une tuile d'un warp au plus selon une étiquette
 *        (capacité 7.0) : chaque thread rejoint, dans un groupe coalescé, les threads du
 *        parent qui ont la même étiquette (__match_any_sync sur les lanes du parent) ; tous
 *        les threads du parent doivent l'appeler.
 */
template <typename Group>
coalesced_group labeled_partition(const Group& parent, int label,
                                  const std::source_location& where = std::source_location::current()) {
    static_assert(detail::is_warp_group<Group>,
                  "simt : labeled_partition partitionne un groupe coalescé ou une tuile de 32 threads au plus");
    return coalesced_group(__match_any_sync(detail::group_mask(parent), label, where));
}

/** @brief Partition en deux selon un prédicat : labeled_partition sur l'étiquette 0 ou 1. */
template <typename Group>
coalesced_group binary_partition(const Group& parent, bool predicate,
                                 const std::source_location& where = std::source_location::current()) {
    return labeled_partition(parent, predicate ? 1 : 0, where);
}

/**
 * @brief Partition statique en tuiles de Size threads. Une tuile de plusieurs warps se forme,
 *        comme sur GPU à partir de sm_80, par une synchronisation du groupe parent : tous ses
 *        threads doivent l'appeler.
 */
template <unsigned Size, typename Parent>
thread_block_tile<Size, Parent> tiled_partition(
    const Parent& parent, const std::source_location& where = std::source_location::current()) {
    if constexpr (Size > 32) parent.sync(where);
    return {};
}

/** @brief Partition dynamique d'un groupe en tuiles de @p size threads (au plus un warp). */
inline thread_group tiled_partition(const thread_group&, unsigned size) {
    return thread_group(thread_group::kind::tile, size, 0);
}

/** @brief Fonction libre : synchronise le groupe. */
template <typename Group>
void sync(const Group& group, const std::source_location& where = std::source_location::current()) {
    group.sync(where);
}

/** @brief Rang du thread dans le groupe (fonction libre). */
template <typename Group>
auto thread_rank(const Group& group) {
    return group.thread_rank();
}

/** @brief Taille du groupe (fonction libre). */
template <typename Group>
auto group_size(const Group& group) {
    return group.size();
}

/** @brief Opérateurs de cooperative_groups::reduce et des scans. */
template <typename T>
struct plus {
    T operator()(T a, T b) const { return a + b; }
};
template <typename T>
struct greater {
    T operator()(T a, T b) const { return a > b ? a : b; }
};
template <typename T>
struct less {
    T operator()(T a, T b) const { return a < b ? a : b; }
};
template <typename T>
struct bit_and {
    T operator()(T a, T b) const { return a & b; }
};
template <typename T>
struct bit_or {
    T operator()(T a, T b) const { return a | b; }
};
template <typename T>
struct bit_xor {
    T operator()(T a, T b) const { return a ^ b; }
};

/** @brief Réduction d'une valeur sur tous les threads de la tuile (résultat pour chacun). */
template <unsigned Size, typename Parent, typename T, typename Op>
T reduce(const thread_block_tile<Size, Parent>& tile, T value, Op op,
         const std::source_location& where = std::source_location::current()) {
    if constexpr (Size > 32) {
        return detail::tile_fold(simt::detail::TileOp::reduce, Size, value, op, where);
    } else {
        for (unsigned offset = 1; offset < Size; offset *= 2) value = op(value, tile.shfl_xor(value, int(offset)));
        return value;
    }
}

/** @brief Réduction sur un groupe coalescé : chaque thread combine les valeurs de tous les rangs, dans l'ordre. */
template <typename T, typename Op>
T reduce(const coalesced_group& group, T value, Op op) {
    T result = group.shfl(value, 0u);
    for (unsigned rank = 1; rank < group.size(); ++rank) result = op(result, group.shfl(value, rank));
    return result;
}

/** @brief Somme (ou op) préfixe inclusive : le thread de rang r reçoit op(v0, …, vr). */
template <unsigned Size, typename Parent, typename T, typename Op = plus<T>>
T inclusive_scan(const thread_block_tile<Size, Parent>& tile, T value, Op op = Op(),
                 const std::source_location& where = std::source_location::current()) {
    if constexpr (Size > 32) {
        return detail::tile_fold(simt::detail::TileOp::inclusive_scan, Size, value, op, where);
    } else {
        for (unsigned offset = 1; offset < Size; offset *= 2) {
            const T lower = tile.shfl_up(value, offset);
            if (tile.thread_rank() >= offset) value = op(lower, value);
        }
        return value;
    }
}
template <typename T, typename Op = plus<T>>
T inclusive_scan(const coalesced_group& group, T value, Op op = Op()) {
    for (unsigned offset = 1; offset < group.size(); offset *= 2) {
        const T lower = group.shfl_up(value, offset);
        if (group.thread_rank() >= offset) value = op(lower, value);
    }
    return value;
}

/**
 * @brief Préfixe exclusif : le thread de rang r reçoit op(v0, …, v(r−1)) ; le rang 0 reçoit
 *        T{} (l'élément neutre de plus ; CUDA laisse cette valeur indéfinie pour les autres
 *        opérations).
 */
template <typename Group, typename T, typename Op = plus<T>>
T exclusive_scan(const Group& group, T value, Op op = Op(),
                 const std::source_location& where = std::source_location::current()) {
    if constexpr (detail::is_multi_warp_tile<Group>) {
        return detail::tile_fold(simt::detail::TileOp::exclusive_scan, Group::num_threads(), value, op, where);
    } else {
        const T inclusive = inclusive_scan(group, value, op);
        const T previous = group.shfl_up(inclusive, 1u);
        return group.thread_rank() == 0 ? T{} : previous;
    }
}

}  // namespace cooperative_groups
