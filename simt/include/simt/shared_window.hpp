/**
 * @file
 * @brief PROVISOIRE (branche wgmma, en attendant le cadre PTX de ptx-ampere, qui le remplace à
 *        la fusion) : adresses de la mémoire partagée sur 32 bits, limitées ici à la mémoire
 *        partagée dynamique du bloc (adresse 0 = son début).
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>

namespace simt {

/**
 * @brief Adresse partagée de 32 bits de @p generic.
 * @param generic pointeur vers la mémoire partagée dynamique du bloc courant
 * @param where ligne citée par le diagnostic
 */
std::uint32_t shared_address(const void* generic,
                             const std::source_location& where = std::source_location::current());

/**
 * @brief Pointeur générique de l'adresse partagée @p shared_address pour un accès de @p bytes octets.
 * @param shared_address adresse de la fenêtre partagée
 * @param bytes taille de l'accès en octets
 * @param where ligne citée par le diagnostic
 */
void* shared_pointer(std::uint32_t shared_address, std::size_t bytes,
                     const std::source_location& where = std::source_location::current());

namespace detail {

/**
 * @brief Sans diagnostic : résout @p shared_address pour @p bytes octets, ou dit pourquoi c'est impossible.
 * @param shared_address adresse de la fenêtre partagée
 * @param bytes taille de l'accès
 * @param pointer reçoit le pointeur générique en cas de succès
 * @return vide en cas de succès, sinon le problème en français
 */
std::string resolve_shared(std::uint32_t shared_address, std::size_t bytes, void*& pointer);

}  // namespace detail

}  // namespace simt
