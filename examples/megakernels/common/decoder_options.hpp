/**
 * @file
 * @brief Options de taille de l'étape de décodeur, communes aux programmes des exemples 4 et 5.
 */
#pragma once

#include "common/cli.hpp"
#include "megakernels/common/decoder_step.hpp"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace noyaux::megakernels {

/** @brief Valeurs des options de taille, avant validation. */
struct DecoderOptions {
    std::int64_t layers = 4;           ///< --couches
    std::int64_t hidden = 256;         ///< --dimension (D)
    std::int64_t intermediate = 1024;  ///< --intermediaire (H)
    std::int64_t slice = 64;           ///< --tranche
};

/**
 * @brief Déclare --couches, --dimension, --intermediaire et --tranche.
 * @param parser      analyseur du programme
 * @param options     valeurs remplies par l'analyse
 * @param slice_label ce que découpe la tranche (« instruction », « tâche »), pour l'aide
 */
inline void add_decoder_options(cli::Parser& parser, DecoderOptions& options, const char* slice_label) {
    parser.add_integer("--couches", &options.layers, 1, kMaxLayers, "couches de l'étape");
    parser.add_integer("--dimension", &options.hidden, 1, kMaxHidden, "taille D du vecteur résiduel");
    parser.add_integer("--intermediaire", &options.intermediate, 1, kMaxIntermediate,
                       "taille H de la couche intermédiaire");
    parser.add_integer("--tranche", &options.slice, 1, kMaxIntermediate, std::string("lignes de sortie par ") + slice_label + " (divise D et H)");
}

/**
 * @brief Forme validée ; une forme incohérente (tranche qui ne divise pas D et H…) devient une
 *        erreur d'usage, en français, comme une option hors limites.
 * @param options valeurs des options
 * @return la forme de l'étape
 */
inline DecoderShape decoder_shape(const DecoderOptions& options) {
    const DecoderShape shape{static_cast<int>(options.hidden), static_cast<int>(options.intermediate),
                             static_cast<int>(options.layers), static_cast<int>(options.slice)};
    try {
        validate_shape(shape);
    } catch (const std::invalid_argument& error) {
        throw cli::UsageError(error.what());
    }
    return shape;
}

/**
 * @brief Affiche la forme de l'étape.
 * @param shape forme validée
 */
inline void print_decoder_shape(const DecoderShape& shape) {
    std::printf("Étape : %d couche%s, D = %d, H = %d, tranches de %d lignes\n", shape.layers,
                shape.layers > 1 ? "s" : "", shape.hidden, shape.intermediate, shape.slice_rows);
}

}  // namespace noyaux::megakernels
