/**
 * @file
 * @brief La référence de l'échelle : cuBLAS en fp32. cuBLAS range ses matrices en colonnes
 *        (column-major) ; une matrice en ligne est sa transposée en colonnes. On calcule donc
 *        Cᵀ = Bᵀ·Aᵀ, ce qui revient à appeler cuBLAS avec B et A échangés, sans rien copier.
 */
#pragma once

#include "gemm.hpp"

#include "common/cuda_check.cuh"

#include <cublas_v2.h>

#include <stdexcept>
#include <string>

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

}  // namespace noyaux::gemm
