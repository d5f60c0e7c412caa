/**
 * @file
 * @brief Travail de l'hôte ordonné dans un flux : cudaStreamAddCallback et
 *        cudaLaunchHostFunc. Le flux émulé étant synchrone, tout ce qui y a été mis avant
 *        est terminé à l'appel : la fonction s'exécute aussitôt, dans l'ordre du flux.
 */
#include "internal.hpp"


cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* user_data,
                                  unsigned int flags) {
    if (!callback || flags != 0) return simt::detail::failure(cudaErrorInvalidValue);
    // CUDA interdit ce rappel pendant une capture (cudaLaunchHostFunc le remplace).
    if (simt::detail::refused_during_capture("cudaStreamAddCallback", stream, "d'hôte",
                                             cudaErrorStreamCaptureUnsupported))
        return cudaErrorStreamCaptureUnsupported;
    // Le rappel reçoit l'état du flux : l'erreur collante d'un noyau fautif, s'il y en a une.
    callback(stream, simt::detail::sticky_error(), user_data);
    return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t function, void* user_data) {
    if (!function) return simt::detail::failure(cudaErrorInvalidValue);
    // Pendant une capture, le travail de l'hôte deviendrait un nœud d'hôte, non émulé.
    if (simt::detail::refused_during_capture("cudaLaunchHostFunc", stream, "d'hôte", cudaErrorNotSupported))
        return cudaErrorNotSupported;
    // Contrairement au rappel, la fonction n'est pas appelée après une erreur du contexte.
    if (const cudaError_t error = simt::detail::sticky_error(); error != cudaSuccess) return error;
    function(user_data);
    return cudaSuccess;
}
