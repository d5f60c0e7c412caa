/**
 * @file
 * @brief Barrières asynchrones `mbarrier` de PTX (sm_80, transactions sm_90), exécutées sur le
 *        processeur. Sémantique : PTX ISA, section « Parallel Synchronization and Communication
 *        Instructions: mbarrier » (objet, phases, compte d'arrivées, compte de transactions).
 *
 * L'objet est un mot de 64 bits en mémoire partagée, dont le codage est propre à simt (il est
 * opaque pour le programme, comme sur GPU) : arrivées restantes (bits 0 à 19), arrivées attendues
 * par phase (bits 20 à 39), compte de transactions signé (bits 40 à 60), parité de la phase en
 * cours (bit 63). Une phase se termine quand il ne reste aucune arrivée et aucun octet attendu :
 * la parité change et les arrivées restantes repartent du compte attendu.
 *
 * Chaque fonction existe sous deux formes : avec l'adresse générique du mot (`std::uint64_t*`),
 * et avec son adresse de l'espace partagé sur 32 bits (l'opérande "r" du PTX en ligne).
 * Une mauvaise utilisation (compte hors limites, arrivées ou octets en trop) arrête le noyau
 * avec un diagnostic en français ; une attente qui ne peut plus se terminer est nommée, avec
 * l'état de la barrière, par le diagnostic d'interblocage du chien de garde.
 */
#pragma once

#include <cstdint>
#include <source_location>
#include <string>

namespace simt::ptx {

/** @brief Plus grand compte d'arrivées ou d'octets qu'accepte une mbarrier (2^20 - 1). */
inline constexpr std::uint32_t kMbarrierMaxCount = (1u << 20) - 1;

/**
 * @brief `mbarrier.init.shared::cta.b64 [bar], count` : phase 0, @p count arrivées attendues.
 * @param bar le mot de 64 bits, aligné sur 8 octets, en mémoire partagée
 * @param count arrivées attendues par phase, de 1 à 2^20 - 1
 * @param where ligne de l'appel, pour les diagnostics
 */
void mbarrier_init(std::uint64_t* bar, std::uint32_t count,
                   std::source_location where = std::source_location::current());

/**
 * @brief `mbarrier.arrive{.release.cta}.shared::cta.b64 state, [bar]{, count}` : @p count
 *        arrivées ; termine la phase s'il n'en reste plus et qu'aucun octet n'est attendu.
 * @param bar le mot de la barrière
 * @param count nombre d'arrivées (1 sans l'opérande)
 * @param where ligne de l'appel
 * @return l'état de la barrière avant l'arrivée (la phase à attendre avec mbarrier_test_wait)
 */
std::uint64_t mbarrier_arrive(std::uint64_t* bar, std::uint32_t count = 1,
                              std::source_location where = std::source_location::current());

/**
 * @brief `mbarrier.arrive.noComplete.shared::cta.b64 state, [bar], count` : arrivées qui ne
 *        doivent pas terminer la phase (le contraire est indéfini en PTX : diagnostic).
 * @param bar le mot de la barrière
 * @param count nombre d'arrivées
 * @param where ligne de l'appel
 * @return l'état de la barrière avant l'arrivée
 */
std::uint64_t mbarrier_arrive_no_complete(std::uint64_t* bar, std::uint32_t count,
                                          std::source_location where = std::source_location::current());

/**
 * @brief `mbarrier.arrive.expect_tx.shared::cta.b64 state, [bar], tx_count{, count}` : annonce
 *        @p tx_count octets (expect-tx), puis @p count arrivées.
 * @param bar le mot de la barrière
 * @param tx_count octets que la phase doit encore recevoir
 * @param count nombre d'arrivées
 * @param where ligne de l'appel
 * @return l'état de la barrière avant l'arrivée
 */
std::uint64_t mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t tx_count, std::uint32_t count = 1,
                                        std::source_location where = std::source_location::current());

/**
 * @brief `mbarrier.expect_tx.shared::cta.b64 [bar], tx_count` : annonce des octets sans arriver.
 * @param bar le mot de la barrière
 * @param tx_count octets ajoutés au compte de transactions
 * @param where ligne de l'appel
 */
void mbarrier_expect_tx(std::uint64_t* bar, std::uint32_t tx_count,
                        std::source_location where = std::source_location::current());

/**
 * @brief `mbarrier.complete_tx.shared::cta.b64 [bar], tx_count` : @p tx_count octets livrés
 *        (ce que fait aussi une copie du TMA qui se termine).
 * @param bar le mot de la barrière
 * @param tx_count octets retirés du compte de transactions
 * @param where ligne de l'appel
 */
void mbarrier_complete_tx(std::uint64_t* bar, std::uint32_t tx_count,
                          std::source_location where = std::source_location::current());

/**
 * @brief `mbarrier.test_wait.shared::cta.b64 done, [bar], state` : la phase de @p state
 *        est-elle terminée ? Sans attendre ; un échec cède la main aux autres threads.
 * @param bar le mot de la barrière
 * @param state valeur rendue par une arrivée
 * @param where ligne de l'appel
 */
bool mbarrier_test_wait(std::uint64_t* bar, std::uint64_t state,
                        std::source_location where = std::source_location::current());

/**
 * @brief `mbarrier.test_wait.parity.shared::cta.b64 done, [bar], parity` : la phase de parité
 *        @p parity (la phase en cours ou la précédente) est-elle terminée ?
 * @param bar le mot de la barrière
 * @param parity 0 pour une phase paire, 1 pour une phase impaire
 * @param where ligne de l'appel
 */
bool mbarrier_test_wait_parity(std::uint64_t* bar, std::uint32_t parity,
                               std::source_location where = std::source_location::current());

/**
 * @brief `mbarrier.try_wait.shared::cta.b64 done, [bar], state{, hint}` : comme test_wait,
 *        mais le thread laisse d'abord les autres avancer (l'attente suspendue du GPU, dont
 *        la durée @p suspend_time_hint n'est qu'une indication).
 * @param bar le mot de la barrière
 * @param state valeur rendue par une arrivée
 * @param suspend_time_hint durée indicative en nanosecondes (sans effet)
 * @param where ligne de l'appel
 */
bool mbarrier_try_wait(std::uint64_t* bar, std::uint64_t state, std::uint32_t suspend_time_hint = 0,
                       std::source_location where = std::source_location::current());

/**
 * @brief `mbarrier.try_wait.parity.shared::cta.b64 done, [bar], parity{, hint}`.
 * @param bar le mot de la barrière
 * @param parity 0 pour une phase paire, 1 pour une phase impaire
 * @param suspend_time_hint durée indicative en nanosecondes (sans effet)
 * @param where ligne de l'appel
 */
bool mbarrier_try_wait_parity(std::uint64_t* bar, std::uint32_t parity, std::uint32_t suspend_time_hint = 0,
                              std::source_location where = std::source_location::current());

/**
 * @brief `mbarrier.inval.shared::cta.b64 [bar]` : la barrière n'est plus utilisable avant un
 *        nouvel init (simt la marque : toute opération ultérieure est diagnostiquée).
 * @param bar le mot de la barrière
 * @param where ligne de l'appel
 */
void mbarrier_inval(std::uint64_t* bar, std::source_location where = std::source_location::current());

/**
 * @brief Description d'une barrière pour un diagnostic : parité de la phase, arrivées attendues
 *        et restantes, octets attendus (« phase de parité 1, 2 arrivées restantes sur 3… »).
 * @param word le mot de 64 bits de la barrière
 */
std::string mbarrier_state_text(std::uint64_t word);

}  // namespace simt::ptx
