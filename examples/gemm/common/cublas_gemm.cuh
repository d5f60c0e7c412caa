/**
 * @file
 * @brief La référence de l'échelle : cuBLAS en fp32, et en bf16 avec accumulation fp32.
 *        cuBLAS range ses matrices en colonnes (column-major) ; une matrice en ligne est sa
 *        transposée en colonnes. On calcule donc Cᵀ = Bᵀ·Aᵀ, ce qui revient à appeler cuBLAS
 *        avec B et A échangés, sans rien copier.
 */
#pragma once

#include "gemm.hpp"
#include "gemm_reference.hpp"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <cublas_v2.h>

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::gemm {

/** @brief Poignée cuBLAS possédée (RAII). */
class CublasHandle {
public:
    CublasHandle() {
        if (cublasCreate(&handle_) != CUBLAS_STATUS_SUCCESS)
            throw std::runtime_error("cuBLAS : création de la poignée impossible");
    }
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;
    ~CublasHandle() { cublasDestroy(handle_); }
    /** @brief La poignée, pour les appels cuBLAS. */
    cublasHandle_t get() const { return handle_; }

private:
    cublasHandle_t handle_{};
};

// --8<-- [start:cublas]
/** @brief C ← α·A·B + β·C, matrices en ligne, par cuBLAS (fp32, sans TF32). */
inline void cublas_gemm(cublasHandle_t handle, const GemmArgs& args, cudaStream_t stream = nullptr) {
    const auto [m, n, k] = args.shape;
    cublasSetStream(handle, stream);
    // En colonnes, B (K×N en ligne) est une matrice N×K de dimension principale N : on
    // calcule Cᵀ (N×M) = Bᵀ (N×K) · Aᵀ (K×M).
    const cublasStatus_t status = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &args.alpha,
                                              args.b, n, args.a, k, &args.beta, args.c, n);
    if (status != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error("cuBLAS : cublasSgemm a échoué (statut " +
                                 std::to_string(static_cast<int>(status)) + ")");
}
// --8<-- [end:cublas]

// --8<-- [start:cublas-bf16]
/**
 * @brief C ← α·A·B + β·C, A et B en bf16, C en fp32, accumulation fp32 : cublasGemmEx
 *        (CUDA_R_16BF → CUDA_R_32F, CUBLAS_COMPUTE_32F), sur les Tensor Cores.
 */
inline void cublas_gemm(cublasHandle_t handle, const GemmArgsOf<bf16>& args, cudaStream_t stream = nullptr) {
    const auto [m, n, k] = args.shape;
    cublasSetStream(handle, stream);
    // Même échange de A et de B que cublas_gemm en fp32 : Cᵀ = Bᵀ·Aᵀ en colonnes.
    const cublasStatus_t status =
        cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &args.alpha, args.b, CUDA_R_16BF, n, args.a,
                     CUDA_R_16BF, k, &args.beta, args.c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (status != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error("cuBLAS : cublasGemmEx (bf16 → fp32) a échoué (statut " +
                                 std::to_string(static_cast<int>(status)) + ")");
}
// --8<-- [end:cublas-bf16]

/** @brief Le problème hôte @p problem calculé par cuBLAS ; rend C. */
template <typename Input>
std::vector<float> run_cublas(const HostProblemOf<Input>& problem) {
    DeviceBuffer<Input> a{std::span<const Input>(problem.a)};
    DeviceBuffer<Input> b{std::span<const Input>(problem.b)};
    DeviceBuffer<float> c{std::span<const float>(problem.c)};
    const CublasHandle handle;
    cublas_gemm(handle.get(), GemmArgsOf<Input>{problem.shape, problem.alpha, a.data(), b.data(), problem.beta, c.data()});
    NOYAUX_CHECK_LAUNCH();
    return c.download();
}

}  // namespace noyaux::gemm
