/**
 * @file
 * @brief Vérification systématique des appels CUDA : toute erreur devient une exception
 *        qui nomme l'appel, le fichier et la ligne.
 */
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace noyaux {

/** @brief Erreur renvoyée par l'API CUDA, avec son code d'origine. */
class CudaError : public std::runtime_error {
public:
    /** @brief Erreur de code @p code, décrite par @p message. */
    CudaError(cudaError_t code, const std::string& message)
        : std::runtime_error(message), code_(code) {}

    /** @brief Le code d'erreur CUDA d'origine. */
    cudaError_t code() const noexcept { return code_; }

private:
    cudaError_t code_;
};

/**
 * @brief Lève CudaError si @p code n'est pas cudaSuccess.
 * @param code     résultat de l'appel CUDA
 * @param call     texte de l'appel, pour le message
 * @param file     fichier source de l'appel
 * @param line     ligne de l'appel
 */
inline void check_cuda(cudaError_t code, const char* call, const char* file, int line) {
    if (code == cudaSuccess) return;
    throw CudaError(code, std::string("erreur CUDA ") + cudaGetErrorName(code) + " (" +
                              cudaGetErrorString(code) + ") dans " + call + ", " + file + ":" +
                              std::to_string(line));
}

}  // namespace noyaux

/** @brief Vérifie un appel CUDA ; lève noyaux::CudaError en cas d'échec. */
#define NOYAUX_CUDA_CHECK(call) ::noyaux::check_cuda((call), #call, __FILE__, __LINE__)

/**
 * @brief Vérifie le dernier lancement de noyau : erreur de configuration immédiate,
 *        puis erreur d'exécution après synchronisation.
 */
#define NOYAUX_CHECK_LAUNCH()                         \
    do {                                              \
        NOYAUX_CUDA_CHECK(cudaGetLastError());        \
        NOYAUX_CUDA_CHECK(cudaDeviceSynchronize());   \
    } while (0)
