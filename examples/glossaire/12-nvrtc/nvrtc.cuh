/**
 * @file
 * @brief Charger un noyau compilé à l'exécution par NVRTC et le lancer, par l'API runtime
 *        seule : cudaLibraryLoadData (le code en mémoire, PTX ou cubin), cudaLibraryGetKernel
 *        (le noyau, par son nom décoré), cudaLaunchKernel. Aucun lien avec libcuda.
 *
 * Réservé au GPU pour le chargement et le lancement ; la compilation (compilation.hpp) n'a
 * besoin d'aucun GPU et se teste aussi sur l'émulateur.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "compilation.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace noyaux::glossaire::runtime_compilation {

// --8<-- [start:charger]
/** @brief Un noyau compilé par NVRTC, chargé dans le contexte courant, déchargé avec l'objet. */
class LoadedKernel {
public:
    /**
     * @brief Charge @p compiled : un cubin est pris tel quel, de la PTX est compilée par le
     *        pilote pour le GPU courant.
     */
    explicit LoadedKernel(const CompiledKernel& compiled) {
        NOYAUX_CUDA_CHECK(cudaLibraryLoadData(&library_, compiled.image.data(), nullptr, nullptr, 0, nullptr,
                                              nullptr, 0));
        const cudaError_t found = cudaLibraryGetKernel(&kernel_, library_, compiled.lowered_name.c_str());
        if (found != cudaSuccess) {
            cudaLibraryUnload(library_);
            NOYAUX_CUDA_CHECK(found);
        }
    }
    LoadedKernel(const LoadedKernel&) = delete;
    LoadedKernel& operator=(const LoadedKernel&) = delete;
    ~LoadedKernel() { cudaLibraryUnload(library_); }

    /** @brief Lance le noyau (asynchrone) ; @p args pointe vers chacun de ses arguments. */
    void launch(dim3 grid, dim3 block, void** args, cudaStream_t stream = nullptr) const {
        // cudaKernel_t se passe à cudaLaunchKernel à la place d'un pointeur de fonction.
        NOYAUX_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel_), grid, block, args, 0, stream));
    }

private:
    cudaLibrary_t library_ = nullptr;
    cudaKernel_t kernel_ = nullptr;
};
// --8<-- [end:charger]

/** @brief Threads par bloc du lancement de saxpy. */
constexpr unsigned kThreads = 128;

/**
 * @brief Lance saxpy<unroll> chargé dans @p kernel sur @p n éléments et attend la fin.
 * @param kernel le noyau chargé
 * @param unroll le déroulement avec lequel @p kernel a été compilé (il fixe la grille)
 * @param a le facteur
 * @param x entrée, @p n flottants sur le GPU
 * @param y entrée et sortie, @p n flottants sur le GPU
 * @param n nombre d'éléments
 */
inline void run_saxpy(const LoadedKernel& kernel, int unroll, float a, const float* x, float* y, int n) {
    const unsigned per_block = kThreads * static_cast<unsigned>(unroll);
    const dim3 grid((static_cast<unsigned>(n) + per_block - 1) / per_block);
    void* args[] = {&a, &x, &y, &n};
    kernel.launch(grid, dim3(kThreads), args);
    NOYAUX_CHECK_LAUNCH();
}

/** @brief Référence CPU de saxpy : y ← fma(a, x, y), le même arrondi que fmaf. */
inline std::vector<float> saxpy_reference(float a, const std::vector<float>& x, std::vector<float> y) {
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = std::fma(a, x[i], y[i]);
    return y;
}

}  // namespace noyaux::glossaire::runtime_compilation
