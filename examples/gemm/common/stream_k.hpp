/**
 * @file
 * @brief Partition Stream-K hybride (étape 19) : les tuiles des vagues pleines restent entières,
 *        une par bloc et par vague, comme à l'étape 17 ; seules les tuiles de la dernière vague
 *        incomplète, plus une vague pleine, sont partagées : leurs itérations de K, mises bout à
 *        bout, sont réparties en parts égales entre les blocs. Une tuile coupée entre plusieurs
 *        blocs est terminée par celui qui tient sa dernière itération, après avoir ajouté les
 *        sommes partielles des autres.
 *
 * Et la quantification en vagues qui la motive : avec des tuiles entières, la dernière vague
 * n'occupe qu'une partie des SM.
 */
#pragma once

#include "common/host_device.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::gemm::stream_k {

/** @brief Le travail d'une GEMM découpée en tuiles. */
struct Work {
    std::int64_t tiles = 0;            ///< tuiles de C
    std::int64_t iterations_per_tile = 0;  ///< tranches de K par tuile : ⌈K / BK⌉
    int workers = 0;                   ///< blocs persistants, un par SM en général
};

/** @brief Un morceau contigu du travail d'un bloc : des itérations d'une seule tuile. */
struct Segment {
    std::int64_t tile = 0;     ///< la tuile
    std::int64_t k_begin = 0;  ///< première itération de K (incluse)
    std::int64_t k_end = 0;    ///< dernière itération de K (exclue)
    /** @brief Vrai si ce morceau contient la dernière itération : son bloc écrit la tuile. */
    bool finishes_tile = false;
};

/**
 * @brief Refuse un travail vide ou sans bloc, avec un message en français.
 * @throws std::invalid_argument
 */
inline void check_work(const Work& work) {
    if (work.tiles <= 0 || work.iterations_per_tile <= 0)
        throw std::invalid_argument("Stream-K : " + std::to_string(work.tiles) + " tuiles de " +
                                    std::to_string(work.iterations_per_tile) +
                                    " itérations ; il faut au moins une tuile et une itération");
    if (work.workers <= 0)
        throw std::invalid_argument("Stream-K : " + std::to_string(work.workers) +
                                    " blocs ; il en faut au moins un");
}

// --8<-- [start:hybride]
/**
 * @brief Tuiles partagées en Stream-K : les dernières dans l'ordre des tuiles. Aucune si le
 *        nombre de tuiles est un multiple du nombre de blocs (pas de queue) ou si la dernière
 *        vague est au moins à moitié pleine (l'heuristique de CUTLASS : des tuiles entières y
 *        perdent moins de la moitié d'une vague, sans aucune réduction) ; sinon la queue, plus
 *        la dernière vague pleine s'il y en a une : chaque bloc reçoit alors au moins une tuile
 *        d'itérations, si bien qu'une tuile partagée n'est coupée qu'entre deux blocs au plus.
 */
NOYAUX_HOST_DEVICE constexpr std::int64_t shared_tiles(const Work& work) {
    const std::int64_t full_waves = work.tiles / work.workers, tail = work.tiles % work.workers;
    if (tail == 0 || 2 * tail >= work.workers) return 0;
    return tail + (full_waves > 0 ? work.workers : 0);
}

/** @brief Tuiles entières : les premières, un multiple du nombre de blocs quand il y a une queue partagée. */
NOYAUX_HOST_DEVICE constexpr std::int64_t whole_tiles(const Work& work) { return work.tiles - shared_tiles(work); }

/** @brief Le travail Stream-K seul : les tuiles partagées, numérotées à partir de 0, sur tous les blocs. */
NOYAUX_HOST_DEVICE constexpr Work shared_work(const Work& work) {
    return {shared_tiles(work), work.iterations_per_tile, work.workers};
}
// --8<-- [end:hybride]

// --8<-- [start:partition]
/**
 * @brief Première itération (dans l'ordre global : tuile après tuile, K dans chaque tuile)
 *        confiée au bloc @p worker par la partition Stream-K de @p work : les parts diffèrent
 *        au plus d'une itération. Le noyau l'applique à shared_work.
 */
NOYAUX_HOST_DEVICE constexpr std::int64_t first_iteration(const Work& work, std::int64_t worker) {
    const std::int64_t total = work.tiles * work.iterations_per_tile;
    const std::int64_t base = total / work.workers, extra = total % work.workers;
    return worker * base + (worker < extra ? worker : extra);
}

/**
 * @brief Le bloc qui tient l'itération @p iteration (rang global) : l'inverse de
 *        first_iteration. Les `extra` premiers blocs ont base + 1 itérations, les autres base.
 */
NOYAUX_HOST_DEVICE constexpr std::int64_t worker_of(const Work& work, std::int64_t iteration) {
    const std::int64_t total = work.tiles * work.iterations_per_tile;
    const std::int64_t base = total / work.workers, extra = total % work.workers;
    const std::int64_t long_part = extra * (base + 1);  // itérations des blocs à base + 1
    return iteration < long_part ? iteration / (base + 1) : extra + (iteration - long_part) / base;
}

/**
 * @brief Les morceaux d'un bloc, dans l'ordre où il les calcule. Sans allocation, pour l'hôte
 *        comme pour le noyau. D'abord ses tuiles entières, vague après vague (la tuile b, puis
 *        b + blocs…), comme à l'étape 17 ; puis sa part Stream-K, à rebours : son dernier
 *        morceau, le début d'une tuile qu'un autre bloc terminera, est publié le premier, et
 *        le morceau qui termine une tuile commencée par d'autres, et doit donc les attendre,
 *        vient en dernier.
 */
class SegmentCursor {
public:
    /** @brief Le curseur du bloc @p worker ; aucun morceau avant le premier next(). */
    NOYAUX_HOST_DEVICE constexpr SegmentCursor(const Work& work, std::int64_t worker)
        : per_tile_(work.iterations_per_tile), workers_(work.workers), whole_next_(worker),
          whole_end_(whole_tiles(work)), shared_begin_(first_iteration(shared_work(work), worker)),
          shared_end_(first_iteration(shared_work(work), worker + 1)) {}

    /** @brief Le morceau suivant dans @p segment ; faux quand le bloc n'en a plus. */
    NOYAUX_HOST_DEVICE constexpr bool next(Segment& segment) {
        if (whole_next_ < whole_end_) {
            segment = {whole_next_, 0, per_tile_, true};
            whole_next_ += workers_;
            return true;
        }
        if (shared_end_ <= shared_begin_) return false;
        // Le morceau qui contient la dernière itération restante : il s'arrête au début de sa
        // tuile ou à celui de la part.
        const std::int64_t tile = (shared_end_ - 1) / per_tile_, tile_start = tile * per_tile_;
        const std::int64_t k_begin = shared_begin_ > tile_start ? shared_begin_ - tile_start : 0;
        const std::int64_t k_end = shared_end_ - tile_start;
        segment = {whole_end_ + tile, k_begin, k_end, k_end == per_tile_};
        shared_end_ = tile_start + k_begin;
        return true;
    }

private:
    std::int64_t per_tile_;      // itérations par tuile
    std::int64_t workers_;       // blocs : le pas entre deux tuiles entières d'un bloc
    std::int64_t whole_next_;    // prochaine tuile entière du bloc
    std::int64_t whole_end_;     // nombre de tuiles entières
    std::int64_t shared_begin_;  // début (inclus) de la part Stream-K, rang dans shared_work
    std::int64_t shared_end_;    // fin (exclue) de ce qui reste de la part, consommée à rebours
};

/**
 * @brief Les blocs qui ont commencé la tuile que termine un morceau @p finisher du bloc
 *        @p worker : [premier, worker). Vide si ce morceau couvre toute la tuile, ce qui est
 *        toujours le cas d'une tuile entière.
 */
NOYAUX_HOST_DEVICE constexpr std::int64_t first_contributor(const Work& work, const Segment& finisher,
                                                            std::int64_t worker) {
    if (finisher.k_begin == 0) return worker;
    return worker_of(shared_work(work), (finisher.tile - whole_tiles(work)) * work.iterations_per_tile);
}

/** @brief Les morceaux du bloc @p worker, dans l'ordre où il les calcule (SegmentCursor, pour l'hôte). */
inline std::vector<Segment> segments(const Work& work, int worker) {
    check_work(work);
    std::vector<Segment> result;
    SegmentCursor cursor(work, worker);
    for (Segment segment; cursor.next(segment);) result.push_back(segment);
    return result;
}
// --8<-- [end:partition]

/**
 * @brief Part des SM occupés quand les tuiles sont distribuées entières, vague après vague :
 *        tuiles / (⌈tuiles / SM⌉ · SM). 1 quand le nombre de tuiles est un multiple du
 *        nombre de SM.
 */
inline double wave_efficiency(std::int64_t tiles, int sms) {
    if (tiles <= 0 || sms <= 0)
        throw std::invalid_argument("quantification en vagues : il faut au moins une tuile et un SM");
    const std::int64_t waves = (tiles + sms - 1) / sms;
    return double(tiles) / double(waves * sms);
}

}  // namespace noyaux::gemm::stream_k
