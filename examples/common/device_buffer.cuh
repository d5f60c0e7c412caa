/**
 * @file
 * @brief Tampon en mémoire globale du GPU, libéré automatiquement (RAII).
 */
#pragma once

#include "cuda_check.cuh"

#include <cstddef>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace noyaux {

/** @brief Tableau de @p T en mémoire globale, possédé de façon unique. */
template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;

    /** @brief Alloue @p count éléments (aucune allocation si @p count vaut 0). */
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        if (count_ > 0) NOYAUX_CUDA_CHECK(cudaMalloc(&data_, count_ * sizeof(T)));
    }

    /** @brief Alloue et copie le contenu de @p host. */
    explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) { upload(host); }

    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    /** @brief Reprend le tampon de @p other, laissé vide. */
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    /** @brief Échange les tampons : l'ancien est libéré avec @p other. */
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(count_, other.count_);
        return *this;
    }
    // Pas de vérification ici : un destructeur ne doit pas lever d'exception.
    ~DeviceBuffer() { cudaFree(data_); }

    /** @brief Adresse du tampon sur le GPU (nulle s'il est vide). */
    T* data() noexcept { return data_; }
    /** @brief Adresse du tampon sur le GPU, en lecture. */
    const T* data() const noexcept { return data_; }
    /** @brief Nombre d'éléments. */
    std::size_t size() const noexcept { return count_; }

    /**
     * @brief Copie @p host (de même taille) vers le GPU ; la copie est terminée au retour, pour
     *        tous les flux.
     */
    void upload(std::span<const T> host) {
        if (host.size() != count_) throw std::invalid_argument("upload : tailles différentes");
        if (count_ == 0) return;
        NOYAUX_CUDA_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
        // Depuis de la mémoire paginable, cudaMemcpy peut rendre la main avant que le DMA ait
        // écrit la destination ; un noyau lancé ensuite sur un flux non bloquant (noyaux::Stream)
        // n'est pas ordonné après le flux par défaut qui porte la copie : on attend ce flux.
        NOYAUX_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    }

    /**
     * @brief Rapatrie le contenu du tampon dans un vecteur hôte. La copie suit le travail du
     *        flux par défaut, pas celui d'un flux non bloquant : synchroniser ce flux avant.
     */
    std::vector<T> download() const {
        std::vector<T> host(count_);
        if (count_ > 0)
            NOYAUX_CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
        return host;
    }

    /** @brief Taille du tampon en octets. */
    std::size_t bytes() const noexcept { return count_ * sizeof(T); }

private:
    T* data_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace noyaux
