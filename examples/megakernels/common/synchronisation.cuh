/**
 * @file
 * @brief Synchronisation entre blocs d'une même grille, commune à tous les exemples de la partie
 *        Megakernels : publier (release) et attendre (acquire) un compteur en mémoire globale,
 *        et une barrière de grille réutilisable (compteur + génération).
 *
 * Modèle mémoire : un thread publie par une opération atomique en ordre release de portée
 * périphérique (cuda::thread_scope_device, « .gpu » en PTX) ; un thread qui lit cette valeur par
 * un chargement en ordre acquire de même portée voit ensuite toutes les écritures ordonnées avant
 * la publication. Le __syncthreads qui précède la publication ordonne les écritures de tout le bloc
 * avant elle ; celui qui suit l'attente étend la garantie à tout le bloc qui attend.
 *
 * Toutes ces attentes supposent que les blocs attendus sont résidents en même temps que celui qui
 * attend : voir co_residence.cuh, qui le vérifie avant le lancement.
 */
#pragma once

#include <cuda/atomic>
#include <cuda_runtime.h>

namespace noyaux::megakernels {

/** @brief Référence atomique de portée périphérique : toute la grille, tous les SM. */
using DeviceAtomicRef = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;

/** @brief Premier recul d'une attente active, en nanosecondes (indicatif : le GPU arrondit). */
constexpr unsigned int kFirstBackoffNs = 32;
/** @brief Plus long recul d'une attente active, en nanosecondes. */
constexpr unsigned int kMaxBackoffNs = 1024;

/** @brief Vrai pour le thread (0, 0, 0) du bloc, celui qui publie et qui attend pour tout le bloc. */
__device__ inline bool is_block_leader() { return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0; }

// --8<-- [start:signal-attente]
/**
 * @brief Publie : ajoute @p amount à @p counter en ordre release, portée périphérique.
 *
 * Contrat : appelée par UN thread du bloc, après un __syncthreads(), pour que les écritures de
 * tout le bloc soient ordonnées avant la publication (la barrière les ordonne avant ce thread, la
 * publication release les ordonne avant tout lecteur acquire qui voit la nouvelle valeur).
 *
 * @param counter compteur en mémoire globale, jamais remis à zéro pendant le lancement
 * @param amount  valeur ajoutée (1 : « une contribution de plus est prête »)
 */
__device__ inline void signal_release(unsigned int* counter, unsigned int amount = 1) {
    DeviceAtomicRef(*counter).fetch_add(amount, cuda::memory_order_release);
}

/**
 * @brief Attend que @p counter atteigne au moins @p target : chargements en ordre acquire,
 *        portée périphérique, avec un recul (__nanosleep) qui double jusqu'à kMaxBackoffNs.
 *
 * Contrat : appelée par UN thread du bloc, puis l'appelant fait un __syncthreads() pour que tout
 * le bloc voie ce que les producteurs ont publié. Les cibles sont monotones (« au moins ») : un
 * compteur qui n'est jamais remis à zéro sert à plusieurs étapes successives.
 *
 * @param counter compteur en mémoire globale, incrémenté par signal_release
 * @param target  valeur attendue (le nombre de contributions qui doivent être prêtes)
 */
__device__ inline void wait_acquire(const unsigned int* counter, unsigned int target) {
    // atomic_ref exige un pointeur non constant ; on ne fait que lire.
    DeviceAtomicRef ref(*const_cast<unsigned int*>(counter));
    unsigned int backoff = kFirstBackoffNs;
    while (ref.load(cuda::memory_order_acquire) < target) {
        __nanosleep(backoff);
        if (backoff < kMaxBackoffNs) backoff *= 2;
    }
}
// --8<-- [end:signal-attente]

/**
 * @brief Prend un ticket dans une file de travail : ajoute 1 à @p counter et rend la valeur
 *        d'avant. Ordre relaxed : le ticket ne publie rien, il partage seulement des indices
 *        (chaque valeur n'est rendue qu'une fois, quel que soit l'ordre des blocs).
 * @param counter prochain ticket, en mémoire globale
 * @return le ticket pris
 */
__device__ inline unsigned int take_ticket(unsigned int* counter) {
    return DeviceAtomicRef(*counter).fetch_add(1, cuda::memory_order_relaxed);
}

/**
 * @brief Drapeau : écrit @p value dans @p flag en ordre release (un thread, après __syncthreads).
 * @param flag  drapeau en mémoire globale
 * @param value valeur publiée (par exemple le numéro de l'étape prête)
 */
__device__ inline void publish_flag(unsigned int* flag, unsigned int value) {
    DeviceAtomicRef(*flag).store(value, cuda::memory_order_release);
}

/**
 * @brief État d'une barrière de grille, en mémoire globale, mis à zéro une fois à l'allocation
 *        (cudaMemset) puis réutilisable sans remise à zéro : entre deux usages, @ref count
 *        revient à 0 et seule @ref generation avance.
 */
struct GridBarrier {
    unsigned int count;       ///< blocs arrivés pendant la génération courante
    unsigned int generation;  ///< nombre de fois que la barrière s'est ouverte
};

// --8<-- [start:barriere]
/**
 * @brief Barrière de toute la grille : aucun bloc ne repart avant que @p expected_blocks blocs
 *        soient arrivés, et chacun voit ensuite ce que tous ont écrit avant d'arriver.
 *
 * Appelée par TOUS les threads de TOUS les blocs (comme __syncthreads). Le thread de tête de
 * chaque bloc lit la génération, puis arrive (fetch_add acq_rel sur le compteur) ; le dernier
 * arrivé remet le compteur à zéro et ouvre la barrière en avançant la génération (release) ; les
 * autres attendent ce changement (acquire). La remise à zéro précède l'ouverture : un bloc qui
 * repart vers la barrière suivante trouve le compteur déjà à 0.
 *
 * @param barrier         état partagé par la grille (voir GridBarrier)
 * @param expected_blocks nombre de blocs qui appellent la barrière (en général gridDim.x) ; tous
 *                        doivent être résidents en même temps, sinon l'attente ne finit jamais
 */
__device__ inline void arrive_and_wait(GridBarrier* barrier, unsigned int expected_blocks) {
    __syncthreads();  // les écritures du bloc sont ordonnées avant l'arrivée de son thread de tête
    if (is_block_leader()) {
        DeviceAtomicRef count(barrier->count);
        DeviceAtomicRef generation(barrier->generation);
        // Lue avant d'arriver : la génération ne peut pas avancer tant que ce bloc n'est pas arrivé.
        const unsigned int current = generation.load(cuda::memory_order_relaxed);
        if (count.fetch_add(1, cuda::memory_order_acq_rel) == expected_blocks - 1) {
            count.store(0, cuda::memory_order_relaxed);  // publié par le release qui suit
            generation.fetch_add(1, cuda::memory_order_release);
        } else {
            unsigned int backoff = kFirstBackoffNs;
            while (generation.load(cuda::memory_order_acquire) == current) {
                __nanosleep(backoff);
                if (backoff < kMaxBackoffNs) backoff *= 2;
            }
        }
    }
    __syncthreads();  // tout le bloc profite de l'acquire de son thread de tête
}
// --8<-- [end:barriere]

}  // namespace noyaux::megakernels
