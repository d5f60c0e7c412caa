/**
 * @file
 * @brief Groupes coopératifs pour l'émulateur simt (remplace l'en-tête du toolkit, qui
 *        ne se compile qu'avec nvcc) : bloc, grille, tuiles statiques et dynamiques.
 *        Les tuiles tiennent dans un warp (1 à 32 threads, puissance de 2).
 */
#pragma once

#include <source_location>

namespace cooperative_groups {

/** @brief Le bloc de threads courant. */
class thread_block {
public:
    void sync(const std::source_location& where = std::source_location::current()) const {
        simt::detail::block_barrier(simt::detail::BarrierKind::sync, 0, where);
    }
    unsigned thread_rank() const {
        return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    }
    unsigned num_threads() const { return blockDim.x * blockDim.y * blockDim.z; }
    unsigned size() const { return num_threads(); }
    dim3 group_index() const { return blockIdx; }
    dim3 thread_index() const { return threadIdx; }
    dim3 dim_threads() const { return blockDim; }
    dim3 group_dim() const { return blockDim; }
};

inline thread_block this_thread_block() { return {}; }

/** @brief Toute la grille ; sync() exige cudaLaunchCooperativeKernel. */
class grid_group {
public:
    void sync(const std::source_location& where = std::source_location::current()) const {
        simt::detail::grid_barrier(where);
    }
    bool is_valid() const { return true; }
    unsigned long long thread_rank() const {
        const unsigned long long block =
            (1ull * blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
        return block * num_threads_per_block() + this_thread_block().thread_rank();
    }
    unsigned long long num_threads() const {
        return 1ull * gridDim.x * gridDim.y * gridDim.z * num_threads_per_block();
    }
    unsigned long long size() const { return num_threads(); }
    unsigned long long block_rank() const {
        return (1ull * blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    }
    unsigned long long num_blocks() const { return 1ull * gridDim.x * gridDim.y * gridDim.z; }
    dim3 group_dim() const { return gridDim; }

private:
    static unsigned long long num_threads_per_block() { return 1ull * blockDim.x * blockDim.y * blockDim.z; }
};

inline grid_group this_grid() { return {}; }

/** @brief Groupe de threads d'un warp, de taille connue à l'exécution (tiled_partition dynamique). */
class thread_group {
public:
    explicit thread_group(unsigned size) : size_(size) {}
    void sync(const std::source_location& where = std::source_location::current()) const {
        __syncwarp(mask(), where);
    }
    unsigned thread_rank() const { return simt::detail::lane_id() % size_; }
    unsigned num_threads() const { return size_; }
    unsigned size() const { return size_; }
    unsigned meta_group_rank() const {
        return this_thread_block().thread_rank() / size_;
    }
    unsigned meta_group_size() const { return (this_thread_block().num_threads() + size_ - 1) / size_; }

protected:
    unsigned mask() const {
        const unsigned base = simt::detail::lane_id() / size_ * size_;
        return (size_ == 32 ? 0xffffffffu : ((1u << size_) - 1u)) << base;
    }
    unsigned size_;
};

/** @brief Tuile de Size threads consécutifs d'un warp. */
template <unsigned Size, typename Parent = void>
class thread_block_tile : public thread_group {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                  "simt : une tuile tient dans un warp (1 à 32 threads, puissance de 2)");

public:
    thread_block_tile() : thread_group(Size) {}
    /** @brief Conversion depuis une tuile de même taille issue d'un autre parent. */
    template <typename OtherParent>
    thread_block_tile(const thread_block_tile<Size, OtherParent>&) : thread_group(Size) {}
    static constexpr unsigned num_threads() { return Size; }
    static constexpr unsigned size() { return Size; }

    template <typename T>
    T shfl(T value, int source, const std::source_location& w = std::source_location::current()) const {
        return __shfl_sync(mask(), value, source, int(Size), w);
    }
    template <typename T>
    T shfl_down(T value, unsigned delta, const std::source_location& w = std::source_location::current()) const {
        return __shfl_down_sync(mask(), value, delta, int(Size), w);
    }
    template <typename T>
    T shfl_up(T value, unsigned delta, const std::source_location& w = std::source_location::current()) const {
        return __shfl_up_sync(mask(), value, delta, int(Size), w);
    }
    template <typename T>
    T shfl_xor(T value, int lane_mask, const std::source_location& w = std::source_location::current()) const {
        return __shfl_xor_sync(mask(), value, lane_mask, int(Size), w);
    }
    int any(int predicate, const std::source_location& w = std::source_location::current()) const {
        return __any_sync(mask(), predicate, w);
    }
    int all(int predicate, const std::source_location& w = std::source_location::current()) const {
        return __all_sync(mask(), predicate, w);
    }
    unsigned ballot(int predicate, const std::source_location& w = std::source_location::current()) const {
        return __ballot_sync(mask(), predicate, w) >> (simt::detail::lane_id() / Size * Size);
    }
};

template <unsigned Size, typename Parent>
thread_block_tile<Size, Parent> tiled_partition(const Parent&) {
    return {};
}

inline thread_group tiled_partition(const thread_block&, unsigned size) { return thread_group(size); }

/** @brief Opérateurs de réduction de cooperative_groups::reduce. */
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

/** @brief Réduction d'une valeur sur tous les threads de la tuile (résultat pour chacun). */
template <unsigned Size, typename Parent, typename T, typename Op>
T reduce(const thread_block_tile<Size, Parent>& tile, T value, Op op) {
    for (unsigned offset = 1; offset < Size; offset *= 2) value = op(value, tile.shfl_xor(value, int(offset)));
    return value;
}

}  // namespace cooperative_groups
