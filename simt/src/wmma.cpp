/**
 * @file
 * @brief Vérification des matrices en mémoire de l'API nvcuda::wmma (voir
 *        include/simt/wmma.hpp) : les deux exigences du guide de programmation CUDA (« Warp
 *        Matrix Functions ») sur le pointeur et le pas. Le rendez-vous des 32 lanes et le
 *        calcul passent par warp_exchange (warp.cpp).
 */
#include "execution.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

namespace simt::detail {

void check_matrix_memory(const char* function, const void* pointer, unsigned ldm, std::size_t element_size,
                         const std::source_location& where) {
    const std::string call = std::string(function) + " (" + location(where) + ")";
    const std::string rule = "comme l'exige le guide de programmation CUDA (« Warp Matrix Functions »)";
    if (pointer == nullptr) fail_current(call + " : le pointeur de la matrice est nul");
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    if (address % 32 != 0) {
        char text[32];
        std::snprintf(text, sizeof text, "%#llx", static_cast<unsigned long long>(address));
        fail_current(call + " : l'adresse de la matrice, " + text +
                     ", n'est pas alignée sur 32 octets (256 bits), " + rule);
    }
    const std::size_t bytes = std::size_t{ldm} * element_size;
    if (bytes % 16 != 0)
        fail_current(call + " : ldm = " + std::to_string(ldm) + " éléments de " + std::to_string(element_size) +
                     " octets, soit " + std::to_string(bytes) + " octets, n'est pas un multiple de 16 octets (" +
                     std::to_string(16 / element_size) + " éléments), " + rule);
}

}  // namespace simt::detail
