/**
 * @file
 * @brief Partition Stream-K (issue 14, étape 19) : les itérations de K de toutes les tuiles de
 *        C, mises bout à bout, sont réparties en parts égales entre les SM, au lieu de tuiles
 *        entières. Une tuile coupée entre plusieurs SM est terminée par celui qui tient sa
 *        dernière itération, après avoir ajouté les sommes partielles des autres.
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

// --8<-- [start:partition]
/**
 * @brief Première itération (dans l'ordre global : tuile après tuile, K dans chaque tuile)
 *        confiée au bloc @p worker : les parts diffèrent au plus d'une itération.
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
 * @brief Les morceaux d'un bloc, l'un après l'autre : ses itérations [début, fin) découpées
 *        par tuile. Sans allocation, pour l'hôte comme pour le noyau.
 */
class SegmentCursor {
public:
    /** @brief Le curseur du bloc @p worker ; aucun morceau avant le premier next(). */
    NOYAUX_HOST_DEVICE constexpr SegmentCursor(const Work& work, std::int64_t worker)
        : per_tile_(work.iterations_per_tile), next_(first_iteration(work, worker)),
          end_(first_iteration(work, worker + 1)) {}

    /** @brief Le morceau suivant dans @p segment ; faux quand le bloc n'en a plus. */
    NOYAUX_HOST_DEVICE constexpr bool next(Segment& segment) {
        if (next_ >= end_) return false;
        const std::int64_t tile = next_ / per_tile_, tile_start = tile * per_tile_;
        const std::int64_t k_end = end_ - tile_start < per_tile_ ? end_ - tile_start : per_tile_;
        segment = {tile, next_ - tile_start, k_end, k_end == per_tile_};
        next_ = tile_start + k_end;
        return true;
    }

private:
    std::int64_t per_tile_;  // itérations par tuile
    std::int64_t next_;      // prochaine itération du bloc, rang global
    std::int64_t end_;       // fin (exclue) des itérations du bloc
};

/**
 * @brief Les blocs qui ont commencé la tuile que termine un morceau @p finisher du bloc
 *        @p worker : [premier, worker). Vide si ce morceau couvre toute la tuile.
 */
NOYAUX_HOST_DEVICE constexpr std::int64_t first_contributor(const Work& work, const Segment& finisher,
                                                            std::int64_t worker) {
    return finisher.k_begin == 0 ? worker : worker_of(work, finisher.tile * work.iterations_per_tile);
}

/** @brief Les morceaux du bloc @p worker, dans l'ordre (SegmentCursor, pour l'hôte). */
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
