/**
 * @file
 * @brief Le programme du megakernel (partie hôte) : une instruction par opération et par tranche,
 *        réparties en une file par bloc, et les compteurs qui les ordonnent. Construit sur
 *        l'hôte, validé (ordonnancement.hpp), puis copié tel quel sur le GPU.
 */
#pragma once

#include "megakernels/common/decoder_step.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::megakernels::interpreter {

/** @brief Compteur absent : l'instruction n'attend rien, ou ne signale rien. */
constexpr std::uint32_t kNoCounter = 0xffffffffu;
/** @brief Plus grand nombre de files (de blocs du megakernel). */
constexpr int kMaxQueues = 4096;

// --8<-- [start:instruction]
/** @brief Une instruction : quoi calculer, après quel compteur, et quel compteur signaler. */
struct Instruction {
    Opcode opcode;                          ///< opération
    std::uint32_t layer;                    ///< couche
    std::uint32_t begin;                    ///< première ligne de sortie de la tranche
    std::uint32_t end;                      ///< ligne de sortie après la tranche
    std::uint32_t wait_counter = kNoCounter;    ///< compteur à attendre, ou kNoCounter
    std::uint32_t wait_target = 0;              ///< valeur qu'il doit atteindre
    std::uint32_t signal_counter = kNoCounter;  ///< compteur incrémenté à la fin, ou kNoCounter
    std::uint32_t signal_amount = 1;            ///< de combien
};

/** @brief Le programme : les files mises bout à bout, et le nombre de compteurs. */
struct Program {
    std::vector<Instruction> instructions;    ///< toutes les files, l'une après l'autre
    std::vector<std::uint32_t> queue_begin;   ///< file q = [queue_begin[q], queue_begin[q + 1])
    std::uint32_t counter_count = 0;          ///< taille du tableau de compteurs
    /** @brief Nombre de files. */
    int queue_count() const { return static_cast<int>(queue_begin.size()) - 1; }
};
// --8<-- [end:instruction]

/** @brief Compteur de l'opération @p op de la couche @p layer (trois par couche). */
inline std::uint32_t counter_of(Opcode op, int layer) {
    return static_cast<std::uint32_t>(layer) * 3u + static_cast<std::uint32_t>(op) - 1u;
}

/** @brief Les files d'instructions, une par bloc, à plat (Program). */
inline Program flatten(const std::vector<std::vector<Instruction>>& queues, std::uint32_t counter_count) {
    Program program;
    program.counter_count = counter_count;
    program.queue_begin.push_back(0);
    for (const auto& queue : queues) {
        program.instructions.insert(program.instructions.end(), queue.begin(), queue.end());
        program.queue_begin.push_back(static_cast<std::uint32_t>(program.instructions.size()));
    }
    return program;
}

// --8<-- [start:construction]
/**
 * @brief Le programme d'une étape de décodeur sur @p queue_count blocs. Les instructions sont
 *        émises dans l'ordre des dépendances (couche par couche : RMSNorm, tranches montantes,
 *        tranches descendantes) et distribuées à tour de rôle sur les files ; chacune attend le
 *        compteur de l'opération qui la précède et signale le sien.
 * @throws std::invalid_argument si @p shape ou @p queue_count sortent des bornes
 */
inline Program build_decoder_program(const DecoderShape& shape, int queue_count) {
    validate_shape(shape);
    if (queue_count < 1 || queue_count > kMaxQueues)
        throw std::invalid_argument("le megakernel compte de 1 à " + std::to_string(kMaxQueues) +
                                    " blocs (demandé : " + std::to_string(queue_count) + ")");
    std::vector<std::vector<Instruction>> queues(static_cast<std::size_t>(queue_count));
    std::size_t next = 0;
    auto emit = [&](const Instruction& instruction) { queues[next++ % queues.size()].push_back(instruction); };
    const auto rows = static_cast<std::uint32_t>(shape.slice_rows);
    for (int layer = 0; layer < shape.layers; ++layer) {
        const auto l = static_cast<std::uint32_t>(layer);
        Instruction norm{Opcode::kRmsNorm, l, 0, static_cast<std::uint32_t>(shape.hidden)};
        if (layer > 0) {  // x doit être complet : toutes les tranches descendantes de la couche précédente
            norm.wait_counter = counter_of(Opcode::kDownResidual, layer - 1);
            norm.wait_target = static_cast<std::uint32_t>(down_slices(shape));
        }
        norm.signal_counter = counter_of(Opcode::kRmsNorm, layer);
        emit(norm);
        for (int s = 0; s < up_slices(shape); ++s)
            emit({Opcode::kUpSilu, l, s * rows, (s + 1) * rows, counter_of(Opcode::kRmsNorm, layer), 1,
                  counter_of(Opcode::kUpSilu, layer), 1});
        for (int s = 0; s < down_slices(shape); ++s)
            emit({Opcode::kDownResidual, l, s * rows, (s + 1) * rows, counter_of(Opcode::kUpSilu, layer),
                  static_cast<std::uint32_t>(up_slices(shape)), counter_of(Opcode::kDownResidual, layer), 1});
    }
    return flatten(queues, static_cast<std::uint32_t>(shape.layers) * 3u);
}
// --8<-- [end:construction]

/** @brief Étape montrée par la figure du site (flux d'instructions) : deux couches, H = 4 tranches. */
constexpr DecoderShape kIllustratedShape{256, 1024, 2, 256};
/** @brief Files (blocs) de la figure du site. */
constexpr int kIllustratedQueues = 3;

}  // namespace noyaux::megakernels::interpreter
