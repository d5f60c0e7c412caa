/**
 * @file
 * @brief Adresses de 32 bits de la fenêtre `.shared::cluster` du PTX : la mémoire partagée
 *        de n'importe quel bloc du cluster (mémoire partagée distribuée).
 *
 * Sur GPU, la fenêtre `.shared::cta` d'un bloc est contenue dans la fenêtre `.shared::cluster`
 * (PTX ISA, « State spaces », mémoire partagée) : une adresse partagée du bloc courant y vaut
 * telle quelle. simt code une adresse `.shared::cluster` ainsi :
 *
 * - octet de poids fort 0x00 ou 0xff : une adresse `.shared::cta` ordinaire du bloc courant
 *   (décalage signé depuis sa fenêtre, voir shared_window.hpp) ;
 * - octet de poids fort r + 1 (1 à 16) : le bloc de rang r du cluster ; les 24 bits de poids
 *   faible sont le décalage signé depuis la fenêtre de ce bloc (± 8 Mio).
 *
 * `mapa` fabrique la seconde forme (cluster_shared_address) ; `ld`/`st.shared::cluster`, la
 * multidiffusion du TMA et `mbarrier.arrive.shared::cluster` lisent l'une ou l'autre
 * (cluster_shared_pointer). Le même décalage désigne la même variable dans chaque bloc : leurs
 * mémoires partagées sont les TLS de threads du système d'un même exécutable (cluster.cpp).
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <source_location>

namespace simt {

/** @brief Position du rang (plus un) dans une adresse `.shared::cluster` : l'octet de poids fort. */
inline constexpr int kClusterRankShift = 24;

/**
 * @brief `mapa.shared::cluster` : l'adresse `.shared::cluster` de la variable d'adresse
 *        @p address (`.shared::cta` du bloc courant, ou `.shared::cluster`) dans le bloc de rang
 *        @p rank ; diagnostic en français si le rang sort du cluster.
 * @param address adresse partagée de la variable
 * @param rank rang du bloc visé dans le cluster
 * @param where ligne citée par les diagnostics
 */
std::uint32_t cluster_shared_address(std::uint32_t address, unsigned rank,
                                     const std::source_location& where = std::source_location::current());

/**
 * @brief Pointeur générique de l'adresse `.shared::cluster` @p address, pour un accès de
 *        @p bytes octets ; diagnostic en français si le rang sort du cluster, si l'accès sort
 *        de la mémoire partagée du bloc visé, ou si ce bloc a déjà terminé.
 * @param address adresse `.shared::cluster` (ou `.shared::cta` du bloc courant)
 * @param bytes taille de l'accès en octets
 * @param where ligne citée par les diagnostics
 */
void* cluster_shared_pointer(std::uint32_t address, std::size_t bytes = 0,
                             const std::source_location& where = std::source_location::current());

/**
 * @brief Rang du bloc que désigne l'adresse `.shared::cluster` @p address (celui du bloc
 *        courant pour une adresse `.shared::cta`).
 * @param address adresse `.shared::cluster`
 */
unsigned cluster_shared_rank(std::uint32_t address);

}  // namespace simt
