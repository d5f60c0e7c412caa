/**
 * @file
 * @brief Copies du TMA (cp.async.bulk, cp.async.bulk.tensor) et instructions voisines de PTX,
 *        exécutées sur le processeur. Sémantique : PTX ISA, « Data Movement and Conversion
 *        Instructions: cp.async.bulk.tensor » et « Tensor copy » (mode tuilé, remplissage hors
 *        limites, modes de swizzle) ; la carte de tenseur vient de cuTensorMapEncodeTiled de simt.
 *
 * Une copie vers la mémoire partagée est faite au moment où elle est émise, puis ses octets
 * sont retirés du compte de transactions de la mbarrier (complete_tx) : c'est une exécution
 * permise de l'instruction asynchrone, l'attente de la barrière restant nécessaire pour que la
 * phase se termine. Une écriture vers la mémoire globale est aussi faite à l'émission ; les
 * groupes (commit_group, wait_group) n'ont donc rien à attendre.
 */
#pragma once

#include <cstdint>
#include <initializer_list>
#include <source_location>

namespace simt::ptx {

/**
 * @brief `cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes
 *        [dst], [tmap, {c0, …}], [bar]` : charge la boîte qui commence aux coordonnées @p coords
 *        (signées ; hors limites, zéro ou NaN selon la carte), swizzle appliqué, puis complete_tx.
 * @param destination mémoire partagée, alignée sur 128 octets
 * @param tensor_map la carte (paramètre `const __grid_constant__ CUtensorMap`)
 * @param bar la mbarrier qui reçoit les octets
 * @param coords une coordonnée par dimension de la carte, la plus intérieure d'abord
 * @param where ligne de l'appel
 */
void cp_async_bulk_tensor_load(void* destination, const void* tensor_map, std::uint64_t* bar,
                               std::initializer_list<std::int32_t> coords,
                               std::source_location where = std::source_location::current());

/**
 * @brief `cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
 *        [dst], [tmap, {c0, …}], [bar], ctaMask` : la même boîte est écrite, au même décalage
 *        que @p destination, dans la mémoire partagée de chaque bloc du cluster dont le rang est
 *        un bit de @p cta_mask, et chacun de ces blocs reçoit les octets sur la mbarrier au même
 *        décalage que @p bar (PTX ISA, cp.async.bulk.tensor, « .multicast::cluster »).
 * @param destination adresse `.shared::cluster` (ou `.shared::cta`) de la boîte
 * @param tensor_map la carte
 * @param bar adresse `.shared::cluster` (ou `.shared::cta`) de la mbarrier
 * @param coords une coordonnée par dimension, la plus intérieure d'abord
 * @param cta_mask un bit par rang de bloc destinataire
 * @param where ligne de l'appel
 */
void cp_async_bulk_tensor_load_multicast(std::uint32_t destination, const void* tensor_map, std::uint32_t bar,
                                         std::initializer_list<std::int32_t> coords, std::uint16_t cta_mask,
                                         std::source_location where = std::source_location::current());

/**
 * @brief `cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group [tmap, {c0, …}], [src]` :
 *        écrit la boîte ; les éléments hors limites ne sont pas écrits.
 * @param tensor_map la carte
 * @param coords une coordonnée par dimension, la plus intérieure d'abord
 * @param source mémoire partagée (disposition de la boîte, swizzle compris), alignée sur 128 octets
 * @param where ligne de l'appel
 */
void cp_async_bulk_tensor_store(const void* tensor_map, std::initializer_list<std::int32_t> coords,
                                const void* source, std::source_location where = std::source_location::current());

/**
 * @brief `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [bar]`.
 * @param destination mémoire partagée, alignée sur 16 octets
 * @param source mémoire globale, alignée sur 16 octets
 * @param size octets, multiple de 16
 * @param bar la mbarrier qui reçoit les octets
 * @param where ligne de l'appel
 */
void cp_async_bulk_load(void* destination, const void* source, std::uint32_t size, std::uint64_t* bar,
                        std::source_location where = std::source_location::current());

/**
 * @brief `cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size`.
 * @param destination mémoire globale, alignée sur 16 octets
 * @param source mémoire partagée, alignée sur 16 octets
 * @param size octets, multiple de 16
 * @param where ligne de l'appel
 */
void cp_async_bulk_store(void* destination, const void* source, std::uint32_t size,
                         std::source_location where = std::source_location::current());

/** @brief `cp.async.bulk.commit_group` : les écritures étant faites à l'émission, rien à fermer. */
inline void cp_async_bulk_commit_group() {}

/**
 * @brief `cp.async.bulk.wait_group{.read} N` : rien n'est en attente (voir le fichier).
 * @param pending groupes que l'on accepte de laisser en cours
 */
inline void cp_async_bulk_wait_group(std::uint32_t pending) { (void)pending; }

/** @brief `fence.proxy.async{.shared::cta}` : un seul « proxy » sur le processeur, rien à ordonner. */
inline void fence_proxy_async() {}

/**
 * @brief `prefetch.tensormap [tmap]` : une indication pour le cache, sans effet.
 * @param tensor_map la carte
 */
inline void prefetch_tensormap(const void* tensor_map) { (void)tensor_map; }

/**
 * @brief Adresse dans la mémoire partagée où le TMA range l'octet @p offset d'une boîte posée
 *        à @p base, en mode de swizzle @p swizzle (CUtensorMapSwizzle : 0 aucun, 1 32B, 2 64B,
 *        3 128B) : les bits 4 à 4+B-1 de l'adresse (le bloc de 16 octets) sont combinés par
 *        ou exclusif avec les bits 7 à 7+B-1 (la ligne de 128 octets), B = @p swizzle.
 * @param base adresse de la boîte
 * @param offset octet de la boîte, dans l'ordre des éléments (dimension intérieure d'abord)
 * @param swizzle mode de swizzle de la carte
 */
inline std::uintptr_t tma_swizzled_address(std::uintptr_t base, std::uintptr_t offset, unsigned swizzle) {
    const std::uintptr_t address = base + offset;
    const std::uintptr_t mask = (std::uintptr_t(1) << swizzle) - 1;
    return address ^ (((address >> 7) & mask) << 4);
}

}  // namespace simt::ptx
