// Détection des erreurs de synchronisation : chaque noyau fautif doit être arrêté avec un
// diagnostic en français qui nomme le noyau, le bloc, le thread et la ligne, et laisser
// une erreur collante (effacée par cudaDeviceReset), comme une faute sur GPU.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <cuda/atomic>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

using testing::AllOf;
using testing::HasSubstr;

// Espace de noms nommé : les noyaux y ont un symbole exporté, que le diagnostic cite.
namespace detection {

// Les deux branches atteignent chacune « une » barrière, mais pas la même.
constexpr int kFirstBarrierLine = __LINE__ + 4;
constexpr int kSecondBarrierLine = __LINE__ + 5;
__global__ void divergent_barrier(int* out) {
    if (threadIdx.x < 16)
        __syncthreads();
    else
        __syncthreads();
    out[threadIdx.x] = 1;
}

constexpr int kEarlyReturnBarrierLine = __LINE__ + 5;
template <typename T>
__global__ void early_return(const T* in, T* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;  // les threads en trop quittent avant la barrière
    __syncthreads();
    out[i] = in[i];
}

constexpr int kShuffleLine = __LINE__ + 5;
__global__ void shuffle_with_wrong_mask(const int* in, int* out) {
    const unsigned lane = threadIdx.x % warpSize;
    int value = in[threadIdx.x];
    if (lane < 16) {
        value += __shfl_down_sync(0xffffffffu, value, 8);  // masque de 32 lanes, 16 présentes
    }
    out[threadIdx.x] = value;
}

constexpr int kShuffleAtBarrierLine = __LINE__ + 5;
__global__ void shuffle_while_others_wait_at_barrier(const int* in, int* out) {
    const unsigned lane = threadIdx.x % warpSize;
    int value = in[threadIdx.x];
    if (lane < 16) {
        value += __shfl_down_sync(0xffffffffu, value, 8);  // les lanes 16 à 31 n'y viendront pas
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = value;
}

// Échange avec le voisin par la mémoire partagée : sans barrière, la valeur lue dépend
// de l'ordre dans lequel les threads s'exécutent.
__global__ void neighbour_exchange_without_barrier(const int* in, int* out) {
    __shared__ int cells[64];
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    cells[threadIdx.x] = in[i];
    out[i] = cells[(threadIdx.x + 1) % blockDim.x];
}

__global__ void neighbour_exchange(const int* in, int* out) {
    __shared__ int cells[64];
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    cells[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = cells[(threadIdx.x + 1) % blockDim.x];
}

// Attente d'un drapeau que personne ne lève.
__global__ void wait_forever(int* flag) {
    if (threadIdx.x == 0)
        while (atomicAdd(flag, 0) == 0) {
        }
    __syncthreads();
}

// Style « noyau persistant » : le bloc 1 attend un drapeau levé par le bloc 0, après que
// celui-ci a publié ses données. Juste, puisque les deux blocs sont résidents à la fois.
__global__ void producer_consumer(int* data, int* flag, int* result) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = static_cast<int>(threadIdx.x) * 3;
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            atomicExch(flag, 1);
        }
    } else {
        if (threadIdx.x == 0)
            while (atomicAdd(flag, 0) == 0) {
            }
        __syncthreads();
        __threadfence();
        result[threadIdx.x] = data[(threadIdx.x + 1) % blockDim.x];
    }
}

// Barrière de grille « maison » d'un noyau persistant : chaque bloc s'inscrit, puis attend
// que tous l'aient fait. Juste si toute la grille est résidente ; sinon les blocs résidents
// attendent sans fin ceux qui ne peuvent pas démarrer, sur GPU comme dans l'émulateur.
__global__ void counter_grid_barrier(unsigned* arrived) {
    extern __shared__ unsigned char reserved[];  // mémoire partagée : limite l'occupation
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> count(*arrived);
    if (threadIdx.x == 0) {
        reserved[0] = 1;
        count.fetch_add(1, cuda::memory_order_release);
        while (count.load(cuda::memory_order_acquire) < gridDim.x) {
        }
    }
    __syncthreads();
}

}  // namespace detection

namespace {

constexpr int kCount = 128;  // taille des tampons d'entrée et de sortie

std::string line_of(int line) { return "test_detection.cu:" + std::to_string(line); }

}  // namespace

/** @brief Diagnostics silencieux pendant le test ; l'erreur collante est effacée à la fin. */
class Detection : public testing::Test {
protected:
    void SetUp() override {
        simt::set_quiet(true);
        simt::clear_diagnostic();
        ASSERT_EQ(cudaMalloc(&in_, kCount * sizeof(int)), cudaSuccess);
        ASSERT_EQ(cudaMalloc(&out_, kCount * sizeof(int)), cudaSuccess);
        std::vector<int> host(kCount);
        for (int i = 0; i < kCount; ++i) host[i] = 10 * i;
        cudaMemcpy(in_, host.data(), kCount * sizeof(int), cudaMemcpyHostToDevice);
    }
    void TearDown() override {
        cudaDeviceReset();  // efface l'erreur collante du noyau fautif
        simt::set_thread_orders(1);
        simt::set_strict(false);
        simt::set_quiet(false);
        cudaFree(in_);
        cudaFree(out_);
    }
    std::vector<int> output() const {
        std::vector<int> host(kCount);
        cudaMemcpy(host.data(), out_, kCount * sizeof(int), cudaMemcpyDeviceToHost);
        return host;
    }
    int* in_ = nullptr;
    int* out_ = nullptr;
};

TEST_F(Detection, DivergentBarriersNameKernelBlockAndThreads) {
    detection::divergent_barrier<<<2, 32>>>(out_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);  // collante : la lecture ne l'efface pas
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau detection::divergent_barrier"), HasSubstr("bloc ("),
                      HasSubstr("barrières divergentes"),
                      HasSubstr("le thread (0, 0, 0) attend __syncthreads (" + line_of(detection::kFirstBarrierLine) + ")"),
                      HasSubstr("le thread (16, 0, 0) attend __syncthreads (" + line_of(detection::kSecondBarrierLine) + ")")));
    // Tant que l'erreur collante reste, les appels suivants échouent aussi.
    int unused = 0;
    EXPECT_EQ(cudaMemcpy(&unused, out_, sizeof(int), cudaMemcpyDeviceToHost), cudaErrorLaunchFailure);
    cudaDeviceReset();
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(&unused, out_, sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
}

// Toléré par défaut comme sur GPU (test_tolerated_behaviour.cu) ; une faute en mode strict.
TEST_F(Detection, BarrierNotReachedByEveryThread) {
    simt::set_strict(true);
    detection::early_return<int><<<1, 64>>>(in_, out_, 40);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau detection::early_return<int>, bloc (0, 0, 0)"),
                      HasSubstr("__syncthreads (" + line_of(detection::kEarlyReturnBarrierLine) +
                                ") n'est pas atteint par tous les threads du bloc"),
                      HasSubstr("le thread (40, 0, 0) a terminé sans l'atteindre"),
                      HasSubstr("mode strict")));
}

// Les lanes 16 à 31 du masque ont terminé : le shuffle ne les attend pas (comme le GPU),
// mais les lanes 8 à 15 lisent leur valeur, indéfinie ; une faute en mode strict.
TEST_F(Detection, ShuffleReadingExitedLanesIsAnErrorInStrictMode) {
    simt::set_strict(true);
    detection::shuffle_with_wrong_mask<<<1, 32>>>(in_, out_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau detection::shuffle_with_wrong_mask, bloc (0, 0, 0), thread (8, 0, 0)"),
                      HasSubstr("__shfl_down_sync (" + line_of(detection::kShuffleLine) + ")"),
                      HasSubstr("masque 0xffffffff"), HasSubstr("lit la lane 16, qui a terminé"),
                      HasSubstr("mode strict")));
}

// Des lanes du masque attendent ailleurs (une barrière de bloc) : faute, même par défaut.
TEST_F(Detection, ShuffleMaskNotMatchingParticipatingLanes) {
    detection::shuffle_while_others_wait_at_barrier<<<1, 32>>>(in_, out_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau detection::shuffle_while_others_wait_at_barrier, bloc (0, 0, 0), thread ("),
                      HasSubstr("__shfl_down_sync (" + line_of(detection::kShuffleAtBarrierLine) + ")"),
                      HasSubstr("le masque 0xffffffff ne correspond pas aux lanes qui participent"),
                      HasSubstr("lane 16 attend __syncthreads")));
}

TEST_F(Detection, MissingBarrierCaughtByThreadOrders) {
    simt::set_thread_orders(3);
    // La version juste donne le même résultat dans tous les ordres.
    detection::neighbour_exchange<<<2, 64>>>(in_, out_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(simt::last_diagnostic(), "");
    const std::vector<int> result = output();
    for (int i = 0; i < kCount; ++i) EXPECT_EQ(result[i], 10 * (i / 64 * 64 + (i + 1) % 64)) << i;

    // Sans la barrière, l'ordre croissant lit des cases pas encore écrites, l'ordre
    // décroissant des cases déjà écrites : les deux résultats diffèrent.
    detection::neighbour_exchange_without_barrier<<<2, 64>>>(in_, out_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau detection::neighbour_exchange_without_barrier"),
                      HasSubstr("le résultat dépend de l'ordre d'exécution des threads"),
                      HasSubstr(", ordre 1)"),  // dès l'ordre décroissant, à coup sûr
                      HasSubstr("une barrière (__syncthreads) manque probablement")));
}

TEST_F(Detection, DeadlockReportedByWatchdog) {
    // ctest fixe SIMT_DELAI=2 ; lancé à la main, le binaire prendrait 60 s sans cela.
    setenv("SIMT_DELAI", "2", /*overwrite=*/0);
    const double delay = std::atof(std::getenv("SIMT_DELAI"));
    int* flag;
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    const auto start = std::chrono::steady_clock::now();
    detection::wait_forever<<<1, 64>>>(flag);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    EXPECT_GE(elapsed.count(), delay * 0.9);
    EXPECT_LT(elapsed.count(), delay + 2.0);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau detection::wait_forever : interblocage"),
                      HasSubstr("aucun progrès depuis " + std::to_string(int(delay)) + " s")));
    cudaDeviceReset();
    cudaFree(flag);
}

TEST_F(Detection, SpinWaitBetweenResidentBlocksTerminates) {
    int *data, *flag;
    cudaMalloc(&data, 64 * sizeof(int));
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    detection::producer_consumer<<<2, 64>>>(data, flag, out_);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(simt::last_diagnostic(), "");
    const std::vector<int> result = output();
    for (int t = 0; t < 64; ++t) EXPECT_EQ(result[t], 3 * ((t + 1) % 64)) << t;
    cudaFree(data);
    cudaFree(flag);
}

TEST_F(Detection, PersistentGridLargerThanTheDeviceIsACoResidencyDeadlock) {
    setenv("SIMT_DELAI", "2", /*overwrite=*/0);
    constexpr std::size_t kShared = 40 * 1024;  // quelques blocs par multiprocesseur
    int per_multiprocessor = 0, multiprocessors = 0;
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, detection::counter_grid_barrier,
                                                            32, kShared),
              cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    const unsigned resident = unsigned(per_multiprocessor * multiprocessors);
    ASSERT_GT(resident, 1u);
    unsigned* arrived;
    ASSERT_EQ(cudaMalloc(&arrived, sizeof(unsigned)), cudaSuccess);

    // Toute la grille tient sur le périphérique : la barrière maison fonctionne.
    cudaMemset(arrived, 0, sizeof(unsigned));
    detection::counter_grid_barrier<<<resident, 32, kShared>>>(arrived);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(simt::last_diagnostic(), "");

    // Deux blocs de trop : les résidents attendent des blocs qui ne démarreront jamais.
    cudaMemset(arrived, 0, sizeof(unsigned));
    detection::counter_grid_barrier<<<resident + 2, 32, kShared>>>(arrived);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    EXPECT_THAT(simt::last_diagnostic(),
                AllOf(HasSubstr("noyau detection::counter_grid_barrier : interblocage"),
                      HasSubstr(std::to_string(resident) + " blocs résidents attendent ; 2 blocs de la grille "
                                "n'ont pas encore démarré faute de place : interblocage de co-résidence "
                                "(une grille persistante doit tenir en entier sur le GPU ; voir "
                                "cudaOccupancyMaxActiveBlocksPerMultiprocessor)")));
    cudaDeviceReset();
    cudaFree(arrived);
}
