/**
 * @file
 * @brief Outils du benchmark de l'échelle GEMM, partagés par echelle/bench.cu (toute
 *        l'échelle) et par les balayages des étapes 8 et 11 (sweep.cuh) : matrices sur le GPU,
 *        contrôle contre cuBLAS, boucle chronométrée (L2 vidé et C remis hors mesure), inscription.
 *
 * Ce qui est mesuré, et pourquoi (comparaison avec SGEMM_CUDA dans docs/gemm/synthese.md) :
 * - chaque noyau est d'abord comparé à cuBLAS, une fois par taille ; s'il s'en écarte au-delà
 *   de la borne d'erreur, ou si le contrôle lève une autre erreur que le refus de la forme
 *   (une erreur CUDA, par exemple), le benchmark s'arrête en échec (code 1) : un résultat faux
 *   ou un plantage ne sont pas une mesure manquante ;
 * - chaque itération repart du même C (copie d'un original) et vide le cache L2 en écrivant
 *   un tampon de deux fois sa taille, hors de la mesure : β·C ne s'accumule pas d'une
 *   itération à l'autre et aucune opérande n'est encore dans le L2 ;
 * - une seule GEMM est chronométrée par itération, par événements CUDA (temps manuel) ;
 * - débit : compteur « GFLOP/s » = 2·M·N·K par itération, divisé par le temps manuel.
 *
 * Échauffement et médiane viennent de la ligne de commande (ci/gpu-check les passe) :
 * --benchmark_min_warmup_time=0.2 --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
 */
#pragma once

#include "gemm/common/cublas_gemm.cuh"
#include "gemm/common/gemm.hpp"
#include "gemm/common/kernel.cuh"
#include "gemm/echelle/sizes.hpp"
#include "gemm/echelle/verification.hpp"

#include "common/bench_failures.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/event_timer.cuh"

#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace noyaux::gemm::ladder_bench {

using noyaux::DeviceBuffer;
using noyaux::gemm::bf16;
using noyaux::gemm::GemmArgs;
using noyaux::gemm::GemmArgsOf;
using noyaux::gemm::input_of;
using noyaux::gemm::InputTraits;
using noyaux::gemm::GemmKernel;
using noyaux::gemm::Shape;

/**
 * @brief Formes mesurées au-delà des carrés : un côté qui n'est multiple d'aucune tuile
 *        (4000³), deux formes allongées (C large et K court, puis C étroit et K long), et une
 *        forme où aucune dimension n'est multiple de 4 (copies de 16 octets impossibles).
 *        Les noyaux qui exigent des multiples de leur tuile y sont « non mesurés ».
 */
constexpr Shape kShapes[] = {{4000, 4000, 4000}, {1024, 8192, 1024}, {8192, 1024, 8192},
                             {2999, 3001, 1025}};
/** @brief α et β des programmes d'exemple : avec β ≠ 0, chaque GEMM lit aussi C. */
constexpr float kAlpha = 1.0f;
constexpr float kBeta = 0.5f;
/**
 * @brief Temps GPU minimal par répétition. Plus court que la valeur par défaut (0,5 s) : aux
 *        petites tailles, chaque itération passe bien plus de temps à vider le L2 qu'à
 *        calculer, et l'échelle entière doit tenir dans le budget de ci/gpu-check. 20 ms,
 *        c'est encore des milliers de GEMM à 128 et une dizaine à 4096 sur un GPU rapide.
 */
constexpr double kMinTimeSeconds = 0.02;
constexpr unsigned long long kNoDisagreement = std::numeric_limits<unsigned long long>::max();

// Mélange de 32 bits (« lowbias32 » de Chris Wellons) : une bijection dont chaque bit de sortie
// dépend de tous les bits d'entrée.
__device__ std::uint32_t mix(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/** @brief Un float vers le type d'élément du GPU (arrondi au plus proche pour le bf16). */
__device__ inline void store_element(float* out, float value) { *out = value; }
__device__ inline void store_element(__nv_bfloat16* out, float value) { *out = __float2bfloat16(value); }

/** @brief Le type CUDA de même disposition qu'un type d'élément de l'hôte. */
inline float* device_elements(float* pointer) { return pointer; }
inline __nv_bfloat16* device_elements(bf16* pointer) { return reinterpret_cast<__nv_bfloat16*>(pointer); }

// Valeurs uniformes dans [-1, 1) tirées d'un hachage de l'indice et de la graine :
// reproductibles, et produites sur le GPU (trois matrices de 8192² tirées sur l'hôte
// prendraient des secondes). En bf16 : l'arrondi de la même valeur.
template <typename Element>
static __global__ void fill_uniform(std::size_t count, std::uint32_t seed, Element* values) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const std::uint32_t x = mix(mix(std::uint32_t(i) ^ mix(std::uint32_t(i >> 32))) + seed);
        store_element(&values[i], float(x >> 8) * 0x1p-23f - 1.0f);  // 24 bits : exact en fp32
    }
}

// |x| est exact dans les deux types : seul le bit de signe change.
template <typename Element>
static __global__ void absolute_values(std::size_t count, const Element* in, Element* out) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x)
        store_element(&out[i], fabsf(float(in[i])));
}

// Premier indice où nos résultats et ceux de cuBLAS s'écartent de plus que permis ; un NaN
// ou un infini ne passe jamais (!(écart <= admis) est vrai pour NaN).
static __global__ void find_disagreement(std::size_t count, const float* ours, const float* theirs,
                                  const float* magnitude, const float* c_initial, float alpha,
                                  float beta, float scale, unsigned long long* first) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const float allowed = scale * (fabsf(alpha) * magnitude[i] + fabsf(beta) * fabsf(c_initial[i]));
        if (!isfinite(ours[i]) || !(fabsf(ours[i] - theirs[i]) <= allowed))
            atomicMin(first, static_cast<unsigned long long>(i));
    }
}

/** @brief Grille d'une boucle grid-stride sur @p count éléments. */
inline unsigned grid_for(std::size_t count) {
    const std::size_t blocks = (count + 255) / 256;
    return unsigned(blocks < 4096 ? blocks : 4096);
}

inline std::string gibibytes(std::size_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f Gio", double(bytes) / double(1ull << 30));
    return text;
}

/** @brief Mode mathématique de cuBLAS pendant les mesures : fp32 strict, sans TF32. */
constexpr cublasMath_t kCublasMathMode = CUBLAS_DEFAULT_MATH;

/**
 * @brief Inscrit dans le contexte des résultats la version de cuBLAS chargée (lue sans GPU
 *        par cublasGetProperty), celle de l'en-tête de compilation et le mode mathématique.
 *        À appeler avant l'exécution des benchmarks (inscription statique).
 * @tparam Input type des entrées mesurées : fp32 (cublasSgemm) ou bf16 (cublasGemmEx)
 */
template <typename Input = float>
void record_cublas_context() {
    int major = 0, minor = 0, patch = 0;
    if (cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
        cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
        cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS)
        benchmark::AddCustomContext("cublas_version", std::to_string(major) + "." +
                                                          std::to_string(minor) + "." +
                                                          std::to_string(patch));
    benchmark::AddCustomContext("cublas_version_compilation",
                                std::to_string(CUBLAS_VER_MAJOR) + "." + std::to_string(CUBLAS_VER_MINOR) +
                                    "." + std::to_string(CUBLAS_VER_PATCH));
    if constexpr (std::is_same_v<Input, float>)
        benchmark::AddCustomContext("cublas_mode_mathematique",
                                    "CUBLAS_DEFAULT_MATH (fp32 strict, sans TF32), cublasSgemm");
    else
        benchmark::AddCustomContext("cublas_mode_mathematique",
                                    "CUBLAS_DEFAULT_MATH, cublasGemmEx bf16 → fp32 (CUBLAS_COMPUTE_32F)");
    benchmark::AddCustomContext("entrees", InputTraits<Input>::name);
}

/** @brief Ce qui sert à toutes les tailles : cuBLAS, tampon de vidage du L2, événements. */
struct Session {
    noyaux::gemm::CublasHandle cublas;
    DeviceBuffer<unsigned char> l2_flush;
    noyaux::EventTimer timer;

    Session() : l2_flush(2 * std::size_t(noyaux::require_device().l2CacheSize)) {
        // Le mode que le contexte des résultats annonce (record_cublas_context) : fp32 strict.
        if (cublasSetMathMode(cublas.get(), kCublasMathMode) != CUBLAS_STATUS_SUCCESS)
            throw std::runtime_error("cuBLAS : impossible de fixer le mode mathématique");
    }

    /** @brief Écrit deux fois la taille du L2 : toute ligne d'une itération précédente en sort. */
    void flush_l2(cudaStream_t stream = nullptr) {
        NOYAUX_CUDA_CHECK(cudaMemsetAsync(l2_flush.data(), 0, l2_flush.bytes(), stream));
    }
};

inline Session& session() {
    static Session instance;  // créée au premier benchmark, une fois le GPU détecté par bench_main
    return instance;
}

/**
 * @brief Les matrices d'une taille, partagées par tous les noyaux de cette taille : A, B, le
 *        C original, le C de travail, le résultat de cuBLAS et |A|·|B|, qui fixe l'écart admis.
 */
template <typename Input>
class WorkspaceOf {
public:
    using Args = GemmArgsOf<Input>;  ///< les arguments d'une GEMM de ce type

    /** @brief Octets à réserver : six matrices, plus |A| et |B| le temps de la préparation. */
    static std::size_t required_bytes(const Shape& s) {
        const std::size_t mn = std::size_t(s.m) * s.n, mk = std::size_t(s.m) * s.k,
                          kn = std::size_t(s.k) * s.n;
        return 4 * mn * sizeof(float) + 2 * (mk + kn) * sizeof(Input) + (256u << 20);  // marge pour cuBLAS
    }

    explicit WorkspaceOf(Shape shape)
        : shape_(shape), a_(std::size_t(shape.m) * shape.k), b_(std::size_t(shape.k) * shape.n),
          c_initial_(std::size_t(shape.m) * shape.n), c_(c_initial_.size()),
          c_cublas_(c_initial_.size()), magnitude_(c_initial_.size()) {
        fill(a_, 1);
        fill(b_, 2);
        fill(c_initial_, 3);
        cublasHandle_t handle = session().cublas.get();
        {
            // |A|·|B| : la somme des |aᵢ·bᵢ| de chaque élément, calculée par cuBLAS.
            DeviceBuffer<Input> abs_a(a_.size()), abs_b(b_.size());
            absolute_values<<<grid_for(a_.size()), 256>>>(a_.size(), device_elements(a_.data()),
                                                          device_elements(abs_a.data()));
            absolute_values<<<grid_for(b_.size()), 256>>>(b_.size(), device_elements(b_.data()),
                                                          device_elements(abs_b.data()));
            noyaux::gemm::cublas_gemm(handle, Args{shape_, 1.0f, abs_a.data(), abs_b.data(), 0.0f,
                                                   magnitude_.data()});
            NOYAUX_CHECK_LAUNCH();
        }
        reset(c_cublas_);
        noyaux::gemm::cublas_gemm(handle, args(c_cublas_));
        NOYAUX_CHECK_LAUNCH();
    }

    /** @brief Arguments d'une GEMM qui écrit dans @p c (le C de travail par défaut). */
    Args args() { return args(c_); }

    /** @brief Remet le C de travail à sa valeur initiale, sur le flux par défaut. */
    void reset_c() { reset(c_); }

    /**
     * @brief Compare le C de travail au résultat de cuBLAS. Chacun est à moins de
     *        2·(K+2)·u·(|α|·Σ|aᵢ·bᵢ| + |β·c|) du résultat exact (la borne de reference_gemm,
     *        marge de 2 comprise, u selon le type d'entrée), donc à moins du double l'un de l'autre. |A|·|B| calculé en
     *        fp32 n'a qu'une erreur relative de l'ordre de K·u (termes positifs), bien
     *        couverte par la marge.
     * @return vide si tout élément est dans sa borne ; sinon le premier écart, décrit.
     */
    std::optional<std::string> disagreement_with_cublas() {
        DeviceBuffer<unsigned long long> first(1);
        NOYAUX_CUDA_CHECK(cudaMemcpy(first.data(), &kNoDisagreement, sizeof kNoDisagreement,
                                     cudaMemcpyHostToDevice));
        const float scale = float(4.0 * (shape_.k + 2) * InputTraits<Input>::accumulation_roundoff);
        find_disagreement<<<grid_for(c_.size()), 256>>>(c_.size(), c_.data(), c_cublas_.data(),
                                                          magnitude_.data(), c_initial_.data(),
                                                          kAlpha, kBeta, scale, first.data());
        NOYAUX_CHECK_LAUNCH();
        const unsigned long long index = first.download()[0];
        if (index == kNoDisagreement) return std::nullopt;
        const float ours = element(c_, index), theirs = element(c_cublas_, index);
        const float allowed = scale * (std::fabs(kAlpha) * element(magnitude_, index) +
                                       std::fabs(kBeta) * std::fabs(element(c_initial_, index)));
        char text[256];
        std::snprintf(text, sizeof text, "C[%llu][%llu] = %g, cuBLAS donne %g (écart %g, admis %g)",
                      index / unsigned(shape_.n), index % unsigned(shape_.n), double(ours),
                      double(theirs), double(std::fabs(ours - theirs)), double(allowed));
        return std::string(text);
    }

    /** @brief La forme de ces matrices. */
    const Shape& shape() const { return shape_; }

private:
    Args args(DeviceBuffer<float>& c) {
        return {shape_, kAlpha, a_.data(), b_.data(), kBeta, c.data()};
    }
    void reset(DeviceBuffer<float>& c) {
        NOYAUX_CUDA_CHECK(cudaMemcpyAsync(c.data(), c_initial_.data(), c_initial_.bytes(),
                                          cudaMemcpyDeviceToDevice));
    }
    template <typename Element>
    static void fill(DeviceBuffer<Element>& buffer, std::uint32_t seed) {
        fill_uniform<<<grid_for(buffer.size()), 256>>>(buffer.size(), seed, device_elements(buffer.data()));
        NOYAUX_CUDA_CHECK(cudaGetLastError());
    }
    static float element(const DeviceBuffer<float>& buffer, unsigned long long index) {
        float value = 0.0f;
        NOYAUX_CUDA_CHECK(cudaMemcpy(&value, buffer.data() + index, sizeof value, cudaMemcpyDeviceToHost));
        return value;
    }

    Shape shape_;
    DeviceBuffer<Input> a_, b_;
    DeviceBuffer<float> c_initial_, c_, c_cublas_, magnitude_;
};

/** @brief Les matrices des étapes fp32. */
using Workspace = WorkspaceOf<float>;

/** @brief Vrai si les deux formes sont égales. */
inline bool same_shape(const Shape& x, const Shape& y) { return x.m == y.m && x.n == y.n && x.k == y.k; }

/**
 * @brief Les matrices de la forme @p shape, gardées d'un appel à l'autre : Google Benchmark
 *        rappelle la fonction plusieurs fois par répétition, et les benchmarks sont inscrits
 *        forme par forme pour que tous les noyaux d'une forme partagent la préparation.
 * @throws std::runtime_error si la mémoire libre du GPU ne suffit pas.
 */
template <typename Input = float>
WorkspaceOf<Input>& workspace_for(const Shape& shape) {
    static std::optional<WorkspaceOf<Input>> current;
    if (current && same_shape(current->shape(), shape)) return *current;
    current.reset();  // libérer l'ancienne taille avant de mesurer la mémoire libre
    session();        // et réserver d'abord ce qui sert à toutes les tailles
    std::size_t free = 0, total = 0;
    NOYAUX_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    const std::size_t needed = WorkspaceOf<Input>::required_bytes(shape);
    if (free < needed)
        throw std::runtime_error("mémoire du GPU insuffisante pour " + noyaux::gemm::to_string(shape) +
                                 " : il faut " + gibibytes(needed) + ", " + gibibytes(free) +
                                 " sont libres (sur " + gibibytes(total) + ")");
    return current.emplace(shape);
}

/** @brief Chronomètre une GEMM par itération ; C remis à neuf et L2 vidé hors de la mesure. */
template <typename Input, typename Launch>
void timed_loop(benchmark::State& state, WorkspaceOf<Input>& workspace, Launch&& launch) {
    Session& shared = session();
    // --8<-- [start:iteration]
    for (auto _ : state) {
        try {
            workspace.reset_c();  // C repart de sa valeur initiale : β·C ne s'accumule pas
            shared.flush_l2();    // A, B et C sortent du L2 : la GEMM les relit en mémoire
            // Les événements n'encadrent que la GEMM : copie et vidage les précèdent sur le
            // flux, et le GPU les exécute pendant que l'hôte lance la GEMM.
            shared.timer.start();
            launch(workspace.args());
            NOYAUX_CUDA_CHECK(cudaGetLastError());
            state.SetIterationTime(shared.timer.stop_ms() / 1e3);
        } catch (const std::exception& error) {
            state.SkipWithError(error.what());
            break;
        }
    }
    // --8<-- [end:iteration]
    const Shape& shape = workspace.shape();
    const double flop = 2.0 * double(shape.m) * double(shape.n) * double(shape.k);
    // Par itération, divisé par le temps manuel (celui des événements) : des GFLOP/s.
    state.counters["GFLOP/s"] =
        benchmark::Counter(flop * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["taille"] = shape.m;
    state.counters["m"] = shape.m;
    state.counters["n"] = shape.n;
    state.counters["k"] = shape.k;
}

/**
 * @brief Vérifie @p Kernel contre cuBLAS à la forme de @p workspace, une seule fois ; le verdict
 *        est gardé. Une erreur pendant le contrôle arrête le benchmark en échec (code 1) : après
 *        une faute du GPU, le contexte CUDA ne sert plus. Un résultat faux marque la mesure en
 *        échec et fait échouer le benchmark à la fin (bench_failures.hpp). Seul le refus de la
 *        forme donne « non mesuré » (verification.hpp).
 */
template <GemmKernel Kernel>
void verify_once(WorkspaceOf<input_of<Kernel>>& workspace) {
    static std::map<std::string, std::optional<std::string>> verdicts;
    auto [verdict, first_time] = verdicts.try_emplace(noyaux::gemm::to_string(workspace.shape()));
    if (first_time) {
        std::optional<std::string> mismatch;
        try {
            workspace.reset_c();
            Kernel::launch(workspace.args(), nullptr);
            NOYAUX_CHECK_LAUNCH();
            mismatch = workspace.disagreement_with_cublas();
        } catch (...) {
            const VerificationError error =
                judge_verification_error(std::current_exception(), Kernel::name, workspace.shape());
            if (error.fatal) {
                std::fprintf(stderr, "%s\n", error.message.c_str());
                std::exit(EXIT_FAILURE);
            }
            verdict->second = error.message;
        }
        // Un résultat faux n'est pas une mesure manquante : le noyau n'est pas mesuré, sa ligne
        // porte l'échec, et le benchmark se termine en échec après avoir mesuré les autres
        // (le contexte CUDA est intact, au contraire d'une erreur pendant le lancement).
        if (mismatch) {
            verdict->second = std::string("ÉCHEC : ") + Kernel::name + " en désaccord avec cuBLAS à " +
                              noyaux::gemm::to_string(workspace.shape()) + " : " + *mismatch;
            noyaux::report_bench_failure(*verdict->second);
        }
    }
    if (verdict->second) throw std::runtime_error(*verdict->second);
}

template <GemmKernel Kernel>
void bench_kernel(benchmark::State& state, const Shape& shape) {
    try {
        noyaux::gemm::check_shape<Kernel>(shape);  // granularité : message du noyau
        noyaux::require_kernel_image(Kernel::entry(), Kernel::name);
        // Une étape de Hopper sur un GPU plus ancien : ignorée, avec la raison.
        if (const std::string why = noyaux::gemm::unavailable_reason<Kernel>(); !why.empty()) {
            state.SkipWithError(("ignorée : " + why).c_str());
            return;
        }
        using Input = input_of<Kernel>;
        WorkspaceOf<Input>& workspace = workspace_for<Input>(shape);
        verify_once<Kernel>(workspace);
        timed_loop(state, workspace, [](const GemmArgsOf<Input>& args) { Kernel::launch(args, nullptr); });
    } catch (const std::exception& error) {
        state.SkipWithError(error.what());
    }
}

/** @brief Matrices carrées de côté @p n. */
template <GemmKernel Kernel>
void bench_kernel(benchmark::State& state, int n) {
    bench_kernel<Kernel>(state, Shape{n, n, n});
}

/** @brief cuBLAS à la forme @p shape, entrées de type @p Input. */
template <typename Input = float>
void bench_cublas(benchmark::State& state, const Shape& shape) {
    try {
        WorkspaceOf<Input>& workspace = workspace_for<Input>(shape);
        cublasHandle_t handle = session().cublas.get();
        timed_loop(state, workspace,
                   [handle](const GemmArgsOf<Input>& args) { noyaux::gemm::cublas_gemm(handle, args); });
    } catch (const std::exception& error) {
        state.SkipWithError(error.what());
    }
}

/** @brief cuBLAS sur des matrices carrées de côté @p n. */
template <typename Input = float>
void bench_cublas(benchmark::State& state, int n) {
    bench_cublas<Input>(state, Shape{n, n, n});
}

/**
 * @brief Inscrit BM_Gemm/<noyau>/<forme> : temps manuel, en millisecondes. Avec des
 *        répétitions, les agrégats « min » et « max » s'ajoutent à ceux de Google Benchmark
 *        (moyenne, médiane, écart type) : ci/gpu-check garde le minimum, la médiane et le maximum.
 */
template <typename Function>
void register_gemm_named(const std::string& kernel, const std::string& shape, Function function) {
    // append plutôt que « "/" + … » : GCC 12 y voit à tort un débordement (-Wrestrict).
    std::string name = "BM_Gemm/";
    name.append(kernel).append("/").append(shape);
    benchmark::RegisterBenchmark(name.c_str(), function)
        ->UseManualTime()
        ->MinTime(kMinTimeSeconds)
        ->Unit(benchmark::kMillisecond)
        ->ComputeStatistics("min", [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); })
        ->ComputeStatistics("max", [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); });
}

/** @brief Inscrit BM_Gemm/<noyau>/<n> : matrices carrées de côté @p n. */
template <typename Function>
void register_gemm(const char* kernel, int n, Function function) {
    register_gemm_named(kernel, std::to_string(n), function);
}

/** @brief Inscrit BM_Gemm/<noyau>/<M>x<N>x<K> : une forme quelconque. */
template <typename Function>
void register_gemm(const char* kernel, const Shape& shape, Function function) {
    register_gemm_named(kernel, std::to_string(shape.m) + "x" + std::to_string(shape.n) + "x" +
                                    std::to_string(shape.k),
                        function);
}

}  // namespace noyaux::gemm::ladder_bench
