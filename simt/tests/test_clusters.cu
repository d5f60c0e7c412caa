// Clusters de blocs (Hopper) : rang et dimensions pour plusieurs formes de cluster (attribut de
// lancement et __cluster_dims__), échange et réduction par la mémoire partagée distribuée
// (map_shared_rank), barrière du cluster en une fois (sync) ou en deux (barrier_arrive,
// barrier_wait), mode « courses de données », lancements que le pilote refuserait, et les
// diagnostics : bloc qui n'atteint pas la barrière, rang hors du cluster, mémoire d'un bloc
// terminé. Référence : guide de programmation CUDA, « Thread Block Clusters » et
// « Distributed Shared Memory » ; PTX ISA, barrier.cluster et registres %cluster_*.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include "cluster_launch.hpp"
#include "quiet_fixture.hpp"

#include <cooperative_groups.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

using testing::AllOf;
using testing::AnyOf;
using testing::HasSubstr;

namespace cg = cooperative_groups;

// Espace de noms nommé : les noyaux y ont un symbole exporté, que les diagnostics citent.
namespace clusters {

constexpr unsigned kFields = 12;

/** Ce que voit chaque bloc de son cluster, écrit par son thread 0. */
__global__ void describe(unsigned* out) {
    const cg::cluster_group cluster = cg::this_cluster();
    const cg::grid_group grid = cg::this_grid();
    cluster.sync();
    if (threadIdx.x + threadIdx.y + threadIdx.z != 0) return;
    unsigned* o = out + kFields * (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
    const dim3 index = cluster.block_index(), dims = cluster.dim_blocks(), id = grid.cluster_index();
    const dim3 in_clusters = grid.dim_clusters();
    const unsigned values[kFields] = {cluster.block_rank(), cluster.num_blocks(), index.x, index.y, index.z,
                                      dims.x * 100 + dims.y * 10 + dims.z, id.x, id.y, id.z,
                                      in_clusters.x * 100 + in_clusters.y * 10 + in_clusters.z,
                                      cluster.thread_rank(), __clusterDimIsSpecified()};
    for (unsigned f = 0; f < kFields; ++f) o[f] = values[f];
}

/** Deux blocs par cluster, déclarés à la compilation : un lancement <<<>>> ordinaire suffit. */
__global__ void __cluster_dims__(2, 1, 1) declared_pairs(unsigned* ranks) {
    cg::this_cluster().sync();
    if (threadIdx.x == 0) ranks[blockIdx.x] = cg::this_cluster().block_rank() * 10 + cg::this_cluster().num_blocks();
}

/** Modèle : la réécriture ne peut pas inscrire ses dimensions avant le lancement. */
template <int Size>
__global__ void __cluster_dims__(Size, 1, 1) declared_template(unsigned* ranks) {
    if (threadIdx.x == 0) ranks[blockIdx.x] = cg::this_cluster().block_rank();
}

/**
 * Chaque bloc écrit ses valeurs dans la mémoire partagée du bloc de rang suivant ; après la
 * barrière, chacun lit la sienne. La première barrière garantit que tous les blocs ont démarré.
 */
__global__ void rotate(const int* in, int* out) {
    __shared__ int tile[64];
    const cg::cluster_group cluster = cg::this_cluster();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    cluster.sync();
    int* next = cluster.map_shared_rank(tile, int((cluster.block_rank() + 1) % cluster.num_blocks()));
    next[threadIdx.x] = in[i];
    cluster.sync();
    out[i] = tile[threadIdx.x];
}

/** Comme rotate, par la mémoire partagée dynamique et la barrière en deux temps. */
__global__ void rotate_dynamic(const int* in, int* out) {
    extern __shared__ int dynamic_tile[];
    const cg::cluster_group cluster = cg::this_cluster();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    auto token = cluster.barrier_arrive();
    cluster.barrier_wait(std::move(token));
    int* next = cluster.map_shared_rank(dynamic_tile, int((cluster.block_rank() + 1) % cluster.num_blocks()));
    next[threadIdx.x] = in[i];
    cluster.barrier_arrive();
    cluster.barrier_wait();
    out[i] = dynamic_tile[threadIdx.x];
}

/** Somme par bloc, puis le bloc de rang 0 additionne celles de tout le cluster. */
__global__ void cluster_sum(const int* in, int* sums) {
    __shared__ int partial;
    const cg::cluster_group cluster = cg::this_cluster();
    const cg::thread_block block = cg::this_thread_block();
    if (block.thread_rank() == 0) partial = 0;
    block.sync();
    atomicAdd(&partial, in[cluster.thread_rank() + cluster.num_threads() * cg::this_grid().cluster_rank()]);
    cluster.sync();
    if (cluster.block_rank() == 0 && block.thread_rank() == 0) {
        int sum = 0;
        for (unsigned r = 0; r < cluster.num_blocks(); ++r) sum += *cluster.map_shared_rank(&partial, int(r));
        sums[cg::this_grid().cluster_rank()] = sum;
    }
    cluster.sync();  // aucun bloc ne termine tant que le rang 0 lit sa mémoire
}

/** Le bloc de rang 0 attend un drapeau que l'autre ne lève qu'après la barrière : interblocage. */
constexpr int kStuckLine = __LINE__ + 4;
__global__ void stuck_before_cluster_sync(volatile int* flag) {
    if (cg::this_cluster().block_rank() == 0) {
        while (*flag == 0) __nanosleep(100);
    }
    cg::this_cluster().sync();
    *flag = 1;
}

constexpr int kOutsideLine = __LINE__ + 4;
__global__ void rank_outside(int* out) {
    __shared__ int value;
    cg::this_cluster().sync();
    int* far = cg::this_cluster().map_shared_rank(&value, int(cg::this_cluster().num_blocks()));
    out[0] = *far;
}

/** Le rang 1 termine aussitôt ; le rang 0 vise sa mémoire après la barrière. */
constexpr int kFinishedLine = __LINE__ + 6;
__global__ void reads_finished_block(int* out) {
    __shared__ int value;
    const cg::cluster_group cluster = cg::this_cluster();
    if (cluster.block_rank() == 1) return;
    cluster.sync();
    out[0] = *cluster.map_shared_rank(&value, 1);
}

/** Chaque bloc lit son voisin puis termine sans la barrière finale. */
__global__ void missing_final_sync(int* out) {
    __shared__ int value;
    const cg::cluster_group cluster = cg::this_cluster();
    value = int(cluster.block_rank());
    cluster.sync();
    out[blockIdx.x] = *cluster.map_shared_rank(&value, int((cluster.block_rank() + 1) % cluster.num_blocks()));
}

__global__ void wait_without_arrive() { __cluster_barrier_wait(); }

/** Écrit chez le voisin avant la première barrière : rien ne garantit qu'il a démarré. */
__global__ void write_before_first_sync(int* out) {
    __shared__ int value;
    const cg::cluster_group cluster = cg::this_cluster();
    *cluster.map_shared_rank(&value, int(cluster.block_rank() ^ 1u)) = int(cluster.block_rank());
    cluster.sync();
    out[blockIdx.x] = value;
    cluster.sync();
}

// ---- PTX en ligne, écrit comme les enrobages de CUTLASS (cute/arch/cluster_sm90.hpp) -------

__device__ unsigned ptx_rank() {
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    return rank;
}

__device__ unsigned ptx_special(int which) {
    unsigned v = 0;
    switch (which) {
        case 0: asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(v)); break;
        case 1: asm("mov.u32 %0, %%clusterid.x;" : "=r"(v)); break;
        case 2: asm("mov.u32 %0, %%clusterid.y;" : "=r"(v)); break;
        case 3: asm("mov.u32 %0, %%nclusterid.x;" : "=r"(v)); break;
        case 4: asm("mov.u32 %0, %%nclusterid.y;" : "=r"(v)); break;
        case 5: asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v)); break;
        case 6: asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v)); break;
        case 7: asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v)); break;
        case 8: asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v)); break;
        default:
            asm("{\n\t.reg .pred p;\n\tmov.pred p, %%is_explicit_cluster;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(v));
    }
    return v;
}

__device__ void ptx_cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" : : : "memory");
}

__device__ unsigned ptx_map(unsigned shared_address, unsigned rank) {
    unsigned mapped;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(mapped) : "r"(shared_address), "r"(rank));
    return mapped;
}

__device__ void ptx_store(unsigned cluster_address, int value) {
    asm volatile("st.shared::cluster.u32 [%0], %1;" : : "r"(cluster_address), "r"(value) : "memory");
}

__device__ int ptx_load(unsigned cluster_address) {
    int value;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(value) : "r"(cluster_address) : "memory");
    return value;
}

/** Registres spéciaux, comparés aux groupes coopératifs par le thread 0 de chaque bloc. */
__global__ void ptx_registers(unsigned* out) {
    if (threadIdx.x != 0) return;
    unsigned* o = out + 11 * (blockIdx.x + gridDim.x * blockIdx.y);
    o[0] = ptx_rank();
    for (int which = 0; which < 10; ++which) o[1 + which] = ptx_special(which);
}

/** rotate, en PTX : mapa puis st.shared::cluster chez le voisin, barrier.cluster, lecture locale. */
__global__ void ptx_rotate(const int* in, int* out) {
    __shared__ int tile[64];
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    ptx_cluster_sync();
    unsigned nctarank;
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nctarank));
    const unsigned here = static_cast<unsigned>(__cvta_generic_to_shared(&tile[threadIdx.x]));
    ptx_store(ptx_map(here, (ptx_rank() + 1) % nctarank), in[i]);
    ptx_cluster_sync();
    out[i] = ptx_load(here);  // une adresse shared::cta du bloc vaut dans la fenêtre du cluster
    // Lecture du voisin par une adresse mapa, puis barrière finale avant de terminer.
    out[gridDim.x * blockDim.x + i] = ptx_load(ptx_map(here, (ptx_rank() + 1) % nctarank));
    ptx_cluster_sync();
}

/** L'encodage des adresses shared::cluster de simt (cluster_window.hpp). */
__global__ void ptx_encoding(unsigned* out) {
    __shared__ int value;
    const unsigned here = static_cast<unsigned>(__cvta_generic_to_shared(&value));
    ptx_cluster_sync();
    if (threadIdx.x == 0) {
        const unsigned mapped = ptx_map(here, 1);
        out[4 * blockIdx.x + 0] = mapped >> 24;                         // rang + 1
        out[4 * blockIdx.x + 1] = simt::cluster_shared_rank(mapped);
        out[4 * blockIdx.x + 2] = simt::cluster_shared_rank(here);      // le bloc courant
        out[4 * blockIdx.x + 3] = (mapped & 0xffffffu) == (here & 0xffffffu) && __isClusterShared(&value) &&
                                  !__isClusterShared(out) && __cluster_map_shared_multicast(&value, 3u).x == here;
    }
    ptx_cluster_sync();
}

__global__ void ptx_rank_outside(int* out) {
    __shared__ int value;
    ptx_cluster_sync();
    const unsigned here = static_cast<unsigned>(__cvta_generic_to_shared(&value));
    out[0] = ptx_load(ptx_map(here, 2));
}

/** Le rang 1 termine ; le rang 0 lit sa mémoire par une adresse mapa après la barrière. */
__global__ void ptx_reads_finished_block(int* out) {
    __shared__ int value;
    if (ptx_rank() == 1) return;
    ptx_cluster_sync();
    out[0] = ptx_load(ptx_map(static_cast<unsigned>(__cvta_generic_to_shared(&value)), 1));
}

}  // namespace clusters

class Clusters : public QuietDiagnostics {};

namespace {

std::vector<int> iota_input(std::size_t count) {
    std::vector<int> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = int(i * 7 + 3);
    return values;
}

/** Ce qu'écrit rotate : le bloc de rang r reçoit les valeurs du bloc de rang r − 1 du même cluster. */
std::vector<int> rotated(const std::vector<int>& in, unsigned blocks, unsigned threads, unsigned cluster) {
    std::vector<int> out(in.size());
    for (unsigned b = 0; b < blocks; ++b) {
        const unsigned first = b / cluster * cluster;
        const unsigned source = first + (b - first + cluster - 1) % cluster;
        for (unsigned t = 0; t < threads; ++t) out[b * threads + t] = in[source * threads + t];
    }
    return out;
}

/** rotate sur @p blocks blocs en clusters de @p cluster, résultat lu. */
std::vector<int> run_rotate(const std::vector<int>& input, unsigned blocks, unsigned cluster) {
    int *in, *out;
    cudaMalloc(&in, input.size() * sizeof(int));
    cudaMalloc(&out, input.size() * sizeof(int));
    cudaMemcpy(in, input.data(), input.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(dim3(blocks), dim3(64), attribute, dim3(cluster));
    EXPECT_EQ(cudaLaunchKernelEx(&config, clusters::rotate, in, out), cudaSuccess);
    std::vector<int> result(input.size());
    EXPECT_EQ(cudaMemcpy(result.data(), out, input.size() * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(in);
    cudaFree(out);
    return result;
}

}  // namespace

TEST_F(Clusters, RankAndDimensionsForSeveralShapes) {
    struct Shape {
        dim3 grid, cluster, block;
    };
    for (const Shape& s : {Shape{dim3(8), dim3(4), dim3(32)}, Shape{dim3(4, 2), dim3(2, 2), dim3(16, 2)},
                           Shape{dim3(2, 2, 4), dim3(1, 2, 2), dim3(8, 2, 2)}, Shape{dim3(3), dim3(1), dim3(32)}}) {
        const unsigned blocks = s.grid.x * s.grid.y * s.grid.z;
        unsigned* out;
        ASSERT_EQ(cudaMalloc(&out, blocks * clusters::kFields * sizeof(unsigned)), cudaSuccess);
        cudaLaunchAttribute attribute;
        const cudaLaunchConfig_t config = config_with_cluster(s.grid, s.block, attribute, s.cluster);
        ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::describe, out), cudaSuccess);
        std::vector<unsigned> seen(blocks * clusters::kFields);
        ASSERT_EQ(cudaMemcpy(seen.data(), out, seen.size() * sizeof(unsigned), cudaMemcpyDeviceToHost), cudaSuccess);
        const dim3 c = s.cluster;
        const dim3 in_clusters(s.grid.x / c.x, s.grid.y / c.y, s.grid.z / c.z);
        for (unsigned z = 0; z < s.grid.z; ++z)
            for (unsigned y = 0; y < s.grid.y; ++y)
                for (unsigned x = 0; x < s.grid.x; ++x) {
                    const unsigned* o = &seen[clusters::kFields * (x + s.grid.x * (y + s.grid.y * z))];
                    // %cluster_ctarank : x d'abord, puis y, puis z (PTX ISA, registres spéciaux).
                    const unsigned rank = x % c.x + c.x * (y % c.y + c.y * (z % c.z));
                    const unsigned threads = s.block.x * s.block.y * s.block.z;
                    const std::vector<unsigned> expected = {
                        rank, c.x * c.y * c.z, x % c.x, y % c.y, z % c.z, c.x * 100 + c.y * 10 + c.z,
                        x / c.x, y / c.y, z / c.z, in_clusters.x * 100 + in_clusters.y * 10 + in_clusters.z,
                        rank * threads, 1};
                    EXPECT_EQ(std::vector<unsigned>(o, o + clusters::kFields), expected)
                        << "bloc (" << x << ", " << y << ", " << z << "), cluster " << c.x << "×" << c.y << "×" << c.z;
                }
        cudaFree(out);
    }
    EXPECT_EQ(simt::last_diagnostic(), "");
}

TEST_F(Clusters, OrdinaryLaunchIsAClusterOfOneBlock) {
    unsigned* out;
    ASSERT_EQ(cudaMalloc(&out, 2 * clusters::kFields * sizeof(unsigned)), cudaSuccess);
    clusters::describe<<<2, 32>>>(out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<unsigned> seen(2 * clusters::kFields);
    cudaMemcpy(seen.data(), out, seen.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    EXPECT_EQ(std::vector<unsigned>(seen.begin() + clusters::kFields, seen.end()),
              (std::vector<unsigned>{0, 1, 0, 0, 0, 111, 1, 0, 0, 211, 0, 0}));
    cudaFree(out);
}

TEST_F(Clusters, DeclaredDimensionsApplyToAnOrdinaryLaunch) {
    unsigned* ranks;
    ASSERT_EQ(cudaMalloc(&ranks, 6 * sizeof(unsigned)), cudaSuccess);
    clusters::declared_pairs<<<6, 32>>>(ranks);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<unsigned> seen(6);
    cudaMemcpy(seen.data(), ranks, 6 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    EXPECT_EQ(seen, (std::vector<unsigned>{2, 12, 2, 12, 2, 12}));

    cudaFuncAttributes attributes{};
    ASSERT_EQ(cudaFuncGetAttributes(&attributes, clusters::declared_pairs), cudaSuccess);
    EXPECT_EQ(attributes.requiredClusterWidth, 2);
    EXPECT_EQ(attributes.requiredClusterHeight, 1);
    // Fixées à la compilation, elles ne se changent plus (driver_types.h).
    EXPECT_EQ(cudaFuncSetAttribute(clusters::declared_pairs, cudaFuncAttributeRequiredClusterWidth, 4),
              cudaErrorNotPermitted);
    EXPECT_EQ(cudaGetLastError(), cudaErrorNotPermitted);

    // Une grille impaire, ou un attribut de lancement qui les contredit, est refusé.
    clusters::declared_pairs<<<5, 32>>>(ranks);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidClusterSize);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("n'est pas un multiple du cluster (2×1×1)"));
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(dim3(4), dim3(32), attribute, dim3(4));
    EXPECT_EQ(cudaLaunchKernelEx(&config, clusters::declared_pairs, ranks), cudaErrorInvalidClusterSize);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("le noyau exige 2×1×1"));
    cudaFree(ranks);
}

TEST_F(Clusters, DimensionsSetByAttributeApplyToAnOrdinaryLaunch) {
    unsigned* out;
    ASSERT_EQ(cudaMalloc(&out, 4 * clusters::kFields * sizeof(unsigned)), cudaSuccess);
    ASSERT_EQ(cudaFuncSetAttribute(clusters::describe, cudaFuncAttributeRequiredClusterWidth, 4), cudaSuccess);
    ASSERT_EQ(cudaFuncSetAttribute(clusters::describe, cudaFuncAttributeRequiredClusterHeight, 1), cudaSuccess);
    ASSERT_EQ(cudaFuncSetAttribute(clusters::describe, cudaFuncAttributeRequiredClusterDepth, 1), cudaSuccess);
    clusters::describe<<<4, 32>>>(out);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<unsigned> seen(4 * clusters::kFields);
    cudaMemcpy(seen.data(), out, seen.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    EXPECT_EQ(seen[3 * clusters::kFields], 3u);       // rang du bloc 3
    EXPECT_EQ(seen[3 * clusters::kFields + 1], 4u);   // blocs du cluster
    for (cudaFuncAttribute a : {cudaFuncAttributeRequiredClusterWidth, cudaFuncAttributeRequiredClusterHeight,
                                cudaFuncAttributeRequiredClusterDepth})
        ASSERT_EQ(cudaFuncSetAttribute(clusters::describe, a, 0), cudaSuccess);
    cudaFree(out);
}

TEST_F(Clusters, TemplateKernelDeclaringDimensionsNeedsTheLaunchAttribute) {
    unsigned* ranks;
    ASSERT_EQ(cudaMalloc(&ranks, 4 * sizeof(unsigned)), cudaSuccess);
    clusters::declared_template<2><<<4, 32>>>(ranks);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), AllOf(HasSubstr("__cluster_dims__(2, 1, 1)"),
                                               HasSubstr("cudaLaunchAttributeClusterDimension")));
    cudaDeviceReset();
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(dim3(4), dim3(32), attribute, dim3(2));
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::declared_template<2>, ranks), cudaSuccess);
    std::vector<unsigned> seen(4);
    cudaMemcpy(seen.data(), ranks, 4 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    EXPECT_EQ(seen, (std::vector<unsigned>{0, 1, 0, 1}));
    cudaFree(ranks);
}

TEST_F(Clusters, EachBlockWritesIntoItsNeighboursSharedMemory) {
    for (unsigned cluster : {2u, 4u, 8u}) {
        const std::vector<int> input = iota_input(16 * 64);
        EXPECT_EQ(run_rotate(input, 16, cluster), rotated(input, 16, 64, cluster)) << "clusters de " << cluster;
    }
    EXPECT_EQ(simt::last_diagnostic(), "");
}

TEST_F(Clusters, DynamicSharedMemoryAndSplitBarrier) {
    const std::vector<int> input = iota_input(8 * 64);
    int *in, *out;
    cudaMalloc(&in, input.size() * sizeof(int));
    cudaMalloc(&out, input.size() * sizeof(int));
    cudaMemcpy(in, input.data(), input.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(dim3(8), dim3(64), attribute, dim3(4), 64 * sizeof(int));
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::rotate_dynamic, in, out), cudaSuccess);
    std::vector<int> result(input.size());
    cudaMemcpy(result.data(), out, input.size() * sizeof(int), cudaMemcpyDeviceToHost);
    EXPECT_EQ(result, rotated(input, 8, 64, 4));
    cudaFree(in);
    cudaFree(out);
}

TEST_F(Clusters, ReductionOverEachCluster) {
    constexpr unsigned kBlocks = 16, kThreads = 32;
    const std::vector<int> input = iota_input(kBlocks * kThreads);
    int *in, *sums;
    cudaMalloc(&in, input.size() * sizeof(int));
    cudaMalloc(&sums, 2 * sizeof(int));
    cudaMemcpy(in, input.data(), input.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaLaunchAttribute attribute;
    // Clusters de 4×2 blocs sur une grille de 4×4 : deux clusters.
    const cudaLaunchConfig_t config = config_with_cluster(dim3(4, 4), dim3(kThreads), attribute, dim3(4, 2));
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::cluster_sum, in, sums), cudaSuccess);
    int seen[2];
    cudaMemcpy(seen, sums, sizeof seen, cudaMemcpyDeviceToHost);
    // La somme suit cluster.thread_rank() : chaque cluster additionne sa moitié de l'entrée.
    int expected[2] = {0, 0};
    for (unsigned i = 0; i < input.size(); ++i) expected[i / (input.size() / 2)] += input[i];
    EXPECT_EQ(seen[0], expected[0]);
    EXPECT_EQ(seen[1], expected[1]);
    EXPECT_EQ(simt::last_diagnostic(), "");
    cudaFree(in);
    cudaFree(sums);
}

TEST_F(Clusters, RaceModeReplaysClustersWithoutFalseAlarm) {
    simt::set_thread_orders(3);  // chaque bloc sur un thread du système neuf, à chaque ordre
    const std::vector<int> input = iota_input(8 * 64);
    EXPECT_EQ(run_rotate(input, 8, 4), rotated(input, 8, 64, 4));
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(simt::last_diagnostic(), "");
}

TEST_F(Clusters, LaunchesTheDriverWouldRefuse) {
    unsigned* out;
    ASSERT_EQ(cudaMalloc(&out, 64 * clusters::kFields * sizeof(unsigned)), cudaSuccess);
    cudaLaunchAttribute attribute;
    const auto refused = [&](dim3 grid, dim3 block, dim3 cluster, const char* why) {
        const cudaLaunchConfig_t config = config_with_cluster(grid, block, attribute, cluster);
        EXPECT_EQ(cudaLaunchKernelEx(&config, clusters::describe, out), cudaErrorInvalidClusterSize) << why;
        EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidClusterSize) << why;
        EXPECT_THAT(simt::last_diagnostic(), AllOf(HasSubstr("clusters::describe refusé"), HasSubstr(why)));
    };
    refused(dim3(6), dim3(32), dim3(4), "la grille (6×1×1 blocs) n'est pas un multiple du cluster (4×1×1)");
    refused(dim3(16), dim3(32), dim3(16), "au-delà de 8 (taille portable)");
    refused(dim3(32), dim3(32), dim3(0), "dimension de cluster nulle");

    // Autorisée par le noyau, une taille de 16 blocs passe ; au-delà de 16, jamais.
    ASSERT_EQ(cudaFuncSetAttribute(clusters::describe, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
              cudaSuccess);
    const cudaLaunchConfig_t sixteen = config_with_cluster(dim3(32), dim3(32), attribute, dim3(16));
    EXPECT_EQ(cudaLaunchKernelEx(&sixteen, clusters::describe, out), cudaSuccess);
    std::vector<unsigned> seen(32 * clusters::kFields);
    cudaMemcpy(seen.data(), out, seen.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    EXPECT_EQ(seen[31 * clusters::kFields], 15u);
    refused(dim3(32), dim3(32), dim3(32), "au plus 16");
    // Un cluster doit tenir en entier sur le périphérique émulé : 8 blocs de 1 024 threads au plus.
    refused(dim3(16), dim3(1024), dim3(16), "plus que les 8 blocs que le périphérique émulé peut héberger");
    ASSERT_EQ(cudaFuncSetAttribute(clusters::describe, cudaFuncAttributeNonPortableClusterSizeAllowed, 0),
              cudaSuccess);
    cudaFree(out);
}

TEST_F(Clusters, OccupancyInClusters) {
    cudaLaunchAttribute attribute;
    cudaLaunchConfig_t config = config_with_cluster(dim3(8), dim3(1024), attribute, dim3(2));
    int count = 0;
    ASSERT_EQ(cudaOccupancyMaxActiveClusters(&count, clusters::describe, &config), cudaSuccess);
    EXPECT_EQ(count, 4);  // 2 blocs de 1 024 threads par multiprocesseur, 4 multiprocesseurs
    ASSERT_EQ(cudaOccupancyMaxActiveClusters(&count, clusters::declared_pairs, &config), cudaSuccess);
    EXPECT_EQ(count, 4);
    ASSERT_EQ(cudaOccupancyMaxPotentialClusterSize(&count, clusters::describe, &config), cudaSuccess);
    EXPECT_EQ(count, 8);
    config.numAttrs = 0;  // ni au lancement ni au noyau : pas de taille de cluster
    EXPECT_EQ(cudaOccupancyMaxActiveClusters(&count, clusters::describe, &config), cudaErrorInvalidClusterSize);
    EXPECT_EQ(cudaOccupancyMaxActiveClusters(&count, clusters::declared_pairs, &config), cudaSuccess);
    EXPECT_EQ(count, 4);
    int enabled = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&enabled, cudaDevAttrClusterLaunch, 0), cudaSuccess);
    EXPECT_EQ(enabled, 1);
}

TEST_F(Clusters, BlockThatNeverReachesClusterSyncIsNamedByTheWatchdog) {
    // ctest fixe SIMT_DELAI=2 ; lancé à la main, le binaire prendrait 60 s sans cela.
    setenv("SIMT_DELAI", "2", /*overwrite=*/0);
    int* flag;
    ASSERT_EQ(cudaMalloc(&flag, sizeof(int)), cudaSuccess);
    cudaMemset(flag, 0, sizeof(int));
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(dim3(2), dim3(32), attribute, dim3(2));
    EXPECT_EQ(cudaLaunchKernelEx(&config, clusters::stuck_before_cluster_sync, static_cast<volatile int*>(flag)),
              cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau clusters::stuck_before_cluster_sync : interblocage"),
                      HasSubstr("cluster (0, 0, 0) : la barrière du cluster (cluster.sync(), barrier.cluster) "
                                "attend des blocs qui ne l'atteignent pas : bloc (0, 0, 0) (rang 0) : "
                                "32 threads sur 32 non arrivés")));
    cudaFree(flag);
}

TEST_F(Clusters, MapSharedRankOutsideTheClusterIsReported) {
    int* out;
    ASSERT_EQ(cudaMalloc(&out, sizeof(int)), cudaSuccess);
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(dim3(4), dim3(32), attribute, dim3(2));
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::rank_outside, out), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau clusters::rank_outside, bloc ("),
                      HasSubstr("map_shared_rank (test_clusters.cu:" + std::to_string(clusters::kOutsideLine) +
                                ") : rang 2 hors du cluster de 2 blocs (rangs 0 à 1)")));
    cudaFree(out);
}

TEST_F(Clusters, SharedMemoryOfAFinishedBlockIsReported) {
    int* out;
    ASSERT_EQ(cudaMalloc(&out, 4 * sizeof(int)), cudaSuccess);
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(dim3(2), dim3(32), attribute, dim3(2));
    // Le rang 1 a terminé : la barrière ne l'attend plus, et sa mémoire n'existe plus.
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::reads_finished_block, out), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau clusters::reads_finished_block, bloc (0, 0, 0), thread ("),
                      HasSubstr("map_shared_rank (test_clusters.cu:" + std::to_string(clusters::kFinishedLine) +
                                ") : le bloc (1, 0, 0) (rang 1) a déjà terminé")));
    cudaDeviceReset();
    // Sans barrière finale, un bloc peut terminer pendant que son voisin lit sa mémoire.
    const cudaLaunchConfig_t pairs = config_with_cluster(dim3(4), dim3(32), attribute, dim3(2));
    ASSERT_EQ(cudaLaunchKernelEx(&pairs, clusters::missing_final_sync, out), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau clusters::missing_final_sync, bloc ("),
                      AnyOf(HasSubstr("sans qu'une barrière de cluster les sépare depuis"),
                            HasSubstr("a déjà terminé"))));
    cudaFree(out);
}

TEST_F(Clusters, ReachingAnotherBlockBeforeTheFirstBarrierIsTolerated) {
    int* out;
    ASSERT_EQ(cudaMalloc(&out, 2 * sizeof(int)), cudaSuccess);
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(dim3(2), dim3(32), attribute, dim3(2));
    simt::set_strict(false);  // indépendant d'un SIMT_STRICT=1 dans l'environnement
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::write_before_first_sync, out), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    int seen[2];
    cudaMemcpy(seen, out, sizeof seen, cudaMemcpyDeviceToHost);
    EXPECT_EQ(seen[0], 1);
    EXPECT_EQ(seen[1], 0);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("AVERTISSEMENT : noyau clusters::write_before_first_sync"),
                      HasSubstr("avant qu'aucune barrière de cluster ne garantisse qu'il a démarré")));
    simt::set_strict(true);
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::write_before_first_sync, out), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("refusé en mode strict"));
    simt::set_strict(false);
    cudaFree(out);
}

TEST_F(Clusters, WaitWithoutArriveIsReported) {
    clusters::wait_without_arrive<<<1, 32>>>();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("sans barrier.cluster.arrive qui le précède"));
}

TEST_F(Clusters, PtxSpecialRegisters) {
    unsigned* out;
    ASSERT_EQ(cudaMalloc(&out, 8 * 11 * sizeof(unsigned)), cudaSuccess);
    cudaLaunchAttribute attribute;
    // Grille de 4×2 blocs en clusters de 2×2 : 2 clusters sur x, 1 sur y.
    const cudaLaunchConfig_t config = config_with_cluster(dim3(4, 2), dim3(32), attribute, dim3(2, 2));
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::ptx_registers, out), cudaSuccess);
    std::vector<unsigned> seen(8 * 11);
    ASSERT_EQ(cudaMemcpy(seen.data(), out, seen.size() * sizeof(unsigned), cudaMemcpyDeviceToHost), cudaSuccess);
    for (unsigned y = 0; y < 2; ++y)
        for (unsigned x = 0; x < 4; ++x) {
            const unsigned* o = &seen[11 * (x + 4 * y)];
            // PTX ISA, registres spéciaux : %cluster_ctarank = x + y × %cluster_nctaid.x dans le cluster.
            const std::vector<unsigned> expected = {x % 2 + 2 * y, 4, x / 2, 0, 2, 1, x % 2, y, 2, 2, 1};
            EXPECT_EQ(std::vector<unsigned>(o, o + 11), expected) << "bloc (" << x << ", " << y << ")";
        }
    clusters::ptx_registers<<<1, 32>>>(out);  // sans cluster : un cluster implicite d'un bloc
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaMemcpy(seen.data(), out, 11 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    EXPECT_EQ(std::vector<unsigned>(seen.begin(), seen.begin() + 11),
              (std::vector<unsigned>{0, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0}));
    cudaFree(out);
}

TEST_F(Clusters, PtxExchangeThroughMapaAndSharedClusterStores) {
    constexpr unsigned kBlocks = 8, kThreads = 64;
    const std::vector<int> input = iota_input(kBlocks * kThreads);
    int *in, *out;
    cudaMalloc(&in, input.size() * sizeof(int));
    cudaMalloc(&out, 2 * input.size() * sizeof(int));
    cudaMemcpy(in, input.data(), input.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(dim3(kBlocks), dim3(kThreads), attribute, dim3(4));
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::ptx_rotate, in, out), cudaSuccess);
    std::vector<int> result(2 * input.size());
    ASSERT_EQ(cudaMemcpy(result.data(), out, result.size() * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    const std::vector<int> received = rotated(input, kBlocks, kThreads, 4);
    EXPECT_EQ(std::vector<int>(result.begin(), result.begin() + input.size()), received);
    // Ce que le voisin a reçu : les valeurs de ce bloc-ci.
    EXPECT_EQ(std::vector<int>(result.begin() + input.size(), result.end()), input);
    EXPECT_EQ(simt::last_diagnostic(), "");
    cudaFree(in);
    cudaFree(out);
}

TEST_F(Clusters, SharedClusterAddressEncoding) {
    unsigned* out;
    ASSERT_EQ(cudaMalloc(&out, 2 * 4 * sizeof(unsigned)), cudaSuccess);
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(dim3(2), dim3(32), attribute, dim3(2));
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::ptx_encoding, out), cudaSuccess);
    std::vector<unsigned> seen(8);
    cudaMemcpy(seen.data(), out, seen.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    // Rang + 1 dans l'octet de poids fort, même décalage ; une adresse shared::cta désigne le bloc courant.
    EXPECT_EQ(seen, (std::vector<unsigned>{2, 1, 0, 1, 2, 1, 1, 1}));
    cudaFree(out);
}

TEST_F(Clusters, PtxDiagnostics) {
    int* out;
    ASSERT_EQ(cudaMalloc(&out, sizeof(int)), cudaSuccess);
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = config_with_cluster(dim3(2), dim3(32), attribute, dim3(2));
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::ptx_rank_outside, out), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(), AllOf(HasSubstr("noyau clusters::ptx_rank_outside, bloc ("),
                                               HasSubstr("mapa (test_clusters.cu:"),
                                               HasSubstr(") : rang 2 hors du cluster de 2 blocs")));
    cudaDeviceReset();
    ASSERT_EQ(cudaLaunchKernelEx(&config, clusters::ptx_reads_finished_block, out), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau clusters::ptx_reads_finished_block, bloc (0, 0, 0)"),
                      HasSubstr("adresse shared::cluster 0x02"),
                      HasSubstr("le bloc (1, 0, 0) (rang 1) a déjà terminé")));
    cudaFree(out);
}
