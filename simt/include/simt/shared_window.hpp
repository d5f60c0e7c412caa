/**
 * @file
 * @brief Adresses de la mémoire partagée sur 32 bits (fenêtre `.shared` du PTX).
 *
 * Sur GPU, une adresse de la mémoire partagée est un décalage de 32 bits dans la fenêtre du
 * bloc ; `__cvta_generic_to_shared`, `ldmatrix`, `cp.async`, `mbarrier` et le TMA la
 * prennent sous cette forme. Dans simt, toute la mémoire partagée d'un bloc vit dans le
 * stockage local (TLS) du thread du système qui l'exécute : les `__shared__` statiques sont
 * des variables `static thread_local`, et la mémoire partagée dynamique un tableau
 * `thread_local` de 227 Kio aligné sur 1 024 octets (le plafond de Hopper). L'adresse
 * partagée est le décalage, modulo 2^32, depuis le début de ce tableau : la mémoire
 * dynamique commence à l'adresse 0, et l'alignement d'une variable se retrouve dans son
 * adresse partagée (ce que supposent les swizzles).
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>

namespace simt {

/**
 * @brief Adresse partagée de 32 bits du pointeur générique @p generic ; diagnostic en
 *        français (le noyau s'arrête) s'il ne désigne pas la mémoire partagée du bloc.
 * @param generic pointeur générique vers la mémoire partagée du bloc courant
 * @param where ligne citée par le diagnostic
 */
std::uint32_t shared_address(const void* generic,
                             const std::source_location& where = std::source_location::current());

/**
 * @brief Pointeur générique de l'adresse partagée @p shared_address du bloc courant ;
 *        diagnostic en français si elle sort de la mémoire partagée du bloc.
 * @param shared_address adresse de la fenêtre partagée (décalage de 32 bits)
 * @param where ligne citée par le diagnostic
 */
void* shared_pointer(std::uint32_t shared_address,
                     const std::source_location& where = std::source_location::current());

/**
 * @brief Comme shared_pointer, pour un accès de @p bytes octets : tout l'accès doit tenir
 *        dans la mémoire partagée du bloc.
 * @param shared_address adresse de la fenêtre partagée
 * @param bytes taille de l'accès en octets
 * @param where ligne citée par le diagnostic
 */
void* shared_pointer(std::uint32_t shared_address, std::size_t bytes,
                     const std::source_location& where = std::source_location::current());

/**
 * @brief Vrai si @p generic désigne la mémoire partagée du bloc courant (`__isShared`).
 * @param generic pointeur générique quelconque
 */
bool is_shared(const void* generic);

namespace detail {

/**
 * @brief Sans diagnostic : résout l'adresse partagée @p shared_address pour un accès de
 *        @p bytes octets du bloc courant, ou dit pourquoi c'est impossible (pour une opération
 *        de warp qui vérifie l'adresse d'une autre lane que la sienne).
 * @param shared_address adresse de la fenêtre partagée
 * @param bytes taille de l'accès
 * @param pointer reçoit le pointeur générique en cas de succès
 * @return vide en cas de succès, sinon le problème en français
 */
std::string resolve_shared(std::uint32_t shared_address, std::size_t bytes, void*& pointer);

}  // namespace detail

}  // namespace simt

/** @brief Pointeur générique → adresse partagée (fonction du périphérique de CUDA). */
inline std::size_t __cvta_generic_to_shared(const void* pointer,
                                            const std::source_location& where = std::source_location::current()) {
    return simt::shared_address(pointer, where);
}

/** @brief Adresse partagée → pointeur générique (fonction du périphérique de CUDA). */
inline void* __cvta_shared_to_generic(std::size_t address,
                                      const std::source_location& where = std::source_location::current()) {
    return simt::shared_pointer(static_cast<std::uint32_t>(address), where);
}

/** @brief 1 si @p pointer désigne la mémoire partagée du bloc, 0 sinon. */
inline unsigned int __isShared(const void* pointer) { return simt::is_shared(pointer) ? 1u : 0u; }
