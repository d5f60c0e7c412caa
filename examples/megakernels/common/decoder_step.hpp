/**
 * @file
 * @brief Étape de décodeur des exemples 4 et 5 (partie hôte) : dimensions et leurs bornes,
 *        poids déterministes, référence CPU en double précision, découpage en opérations.
 *        Sans appel CUDA : testée aussi sur l'émulateur.
 *
 * Une couche applique, au vecteur résiduel x de taille D :
 * n = RMSNorm(x) ⊙ g ; h = SiLU(W1·n + b1) (taille H) ; x ← x + W2·h.
 */
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::megakernels {

/** @brief Plus grande dimension du vecteur résiduel (D). */
constexpr int kMaxHidden = 4096;
/** @brief Plus grande dimension intermédiaire (H) : la page de mémoire partagée en tient H réels. */
constexpr int kMaxIntermediate = 8192;
/** @brief Plus grand nombre de couches. */
constexpr int kMaxLayers = 64;
/** @brief Epsilon de la RMSNorm, ajouté à la moyenne des carrés. */
constexpr float kRmsEpsilon = 1e-5f;

// --8<-- [start:operations]
/** @brief Les opérations d'une couche, dans l'ordre où elles dépendent l'une de l'autre. */
enum class Opcode : std::uint32_t {
    kNop = 0,           ///< rien (bourrage d'une file)
    kRmsNorm = 1,       ///< n = RMSNorm(x) ⊙ g, tout le vecteur
    kUpSilu = 2,        ///< h[r] = SiLU(W1[r]·n + b1[r]) pour une tranche de lignes r
    kDownResidual = 3,  ///< x[r] += W2[r]·h pour une tranche de lignes r
};
// --8<-- [end:operations]

/** @brief Nom français court d'une opération (figures, messages). */
inline const char* opcode_name(Opcode op) {
    switch (op) {
        case Opcode::kNop: return "nop";
        case Opcode::kRmsNorm: return "rmsnorm";
        case Opcode::kUpSilu: return "matvec+silu";
        case Opcode::kDownResidual: return "matvec+residuel";
    }
    return "inconnue";
}

/** @brief Dimensions d'une étape de décodeur. */
struct DecoderShape {
    int hidden = 256;         ///< D, taille du vecteur résiduel
    int intermediate = 1024;  ///< H, taille de la couche intermédiaire
    int layers = 4;           ///< nombre de couches
    int slice_rows = 64;      ///< lignes de sortie par tranche (une instruction ou une tâche)
};

/**
 * @brief Vérifie @p shape : bornes, et tranches qui découpent D et H exactement.
 * @throws std::invalid_argument avec un message français qui nomme la dimension fautive
 */
inline void validate_shape(const DecoderShape& shape) {
    auto check = [](int value, int min, int max, const char* what) {
        if (value < min || value > max)
            throw std::invalid_argument(std::string(what) + " doit être entre " + std::to_string(min) + " et " +
                                        std::to_string(max) + " (demandé : " + std::to_string(value) + ")");
    };
    check(shape.hidden, 1, kMaxHidden, "la dimension D");
    check(shape.intermediate, 1, kMaxIntermediate, "la dimension intermédiaire H");
    check(shape.layers, 1, kMaxLayers, "le nombre de couches");
    check(shape.slice_rows, 1, kMaxIntermediate, "la tranche");
    if (shape.hidden % shape.slice_rows != 0 || shape.intermediate % shape.slice_rows != 0)
        throw std::invalid_argument("la tranche (" + std::to_string(shape.slice_rows) +
                                    " lignes) doit diviser D (" + std::to_string(shape.hidden) + ") et H (" +
                                    std::to_string(shape.intermediate) + ")");
}

/** @brief Tranches de la matvec montante (W1, H lignes) par couche. */
inline int up_slices(const DecoderShape& shape) { return shape.intermediate / shape.slice_rows; }
/** @brief Tranches de la matvec descendante (W2, D lignes) par couche. */
inline int down_slices(const DecoderShape& shape) { return shape.hidden / shape.slice_rows; }

/** @brief Poids de toutes les couches, rangés couche après couche, matrices par lignes. */
struct DecoderWeights {
    DecoderShape shape;          ///< dimensions
    std::vector<float> gain;     ///< g : layers × D
    std::vector<float> w_up;     ///< W1 : layers × H × D
    std::vector<float> b_up;     ///< b1 : layers × H
    std::vector<float> w_down;   ///< W2 : layers × D × H
};

/** @brief Réel pseudo-aléatoire reproductible dans [-1, 1), tiré de @p index et @p seed. */
inline float pseudo_random(std::uint64_t index, std::uint64_t seed) {
    std::uint64_t z = index * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull + 1;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<float>(z >> 40) / static_cast<float>(1ull << 23) - 1.0f;
}

/** @brief Poids reproductibles, d'échelle 1/√colonnes pour que les activations restent d'ordre 1. */
inline DecoderWeights make_weights(const DecoderShape& shape, std::uint64_t seed = 1) {
    validate_shape(shape);
    const auto d = static_cast<std::size_t>(shape.hidden);
    const auto h = static_cast<std::size_t>(shape.intermediate);
    const auto l = static_cast<std::size_t>(shape.layers);
    DecoderWeights w{shape, std::vector<float>(l * d), std::vector<float>(l * h * d), std::vector<float>(l * h),
                     std::vector<float>(l * d * h)};
    for (std::size_t i = 0; i < w.gain.size(); ++i) w.gain[i] = 1.0f + 0.25f * pseudo_random(i, seed);
    const float up_scale = 1.0f / std::sqrt(static_cast<float>(d));
    const float down_scale = 1.0f / std::sqrt(static_cast<float>(h));
    for (std::size_t i = 0; i < w.w_up.size(); ++i) w.w_up[i] = up_scale * pseudo_random(i, seed + 1);
    for (std::size_t i = 0; i < w.b_up.size(); ++i) w.b_up[i] = 0.1f * pseudo_random(i, seed + 2);
    for (std::size_t i = 0; i < w.w_down.size(); ++i) w.w_down[i] = down_scale * pseudo_random(i, seed + 3);
    return w;
}

/** @brief Vecteur d'entrée reproductible de taille @p hidden. */
inline std::vector<float> make_input(int hidden, std::uint64_t seed = 7) {
    std::vector<float> x(static_cast<std::size_t>(hidden));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = pseudo_random(i, seed);
    return x;
}

/** @brief Référence CPU de toute l'étape, accumulée en double : le résultat attendu de @p x. */
inline std::vector<float> decoder_reference(const DecoderWeights& w, std::vector<float> x) {
    const DecoderShape& s = w.shape;
    const auto d = static_cast<std::size_t>(s.hidden);
    const auto h = static_cast<std::size_t>(s.intermediate);
    if (x.size() != d) throw std::invalid_argument("l'entrée doit compter D éléments");
    std::vector<double> normed(d), up(h);
    for (std::size_t layer = 0; layer < static_cast<std::size_t>(s.layers); ++layer) {
        double squares = 0.0;
        for (float v : x) squares += static_cast<double>(v) * v;
        const double inv = 1.0 / std::sqrt(squares / static_cast<double>(d) + kRmsEpsilon);
        for (std::size_t i = 0; i < d; ++i) normed[i] = x[i] * inv * w.gain[layer * d + i];
        for (std::size_t r = 0; r < h; ++r) {
            double acc = w.b_up[layer * h + r];
            for (std::size_t c = 0; c < d; ++c) acc += static_cast<double>(w.w_up[(layer * h + r) * d + c]) * normed[c];
            up[r] = acc / (1.0 + std::exp(-acc));
        }
        for (std::size_t r = 0; r < d; ++r) {
            double acc = 0.0;
            for (std::size_t c = 0; c < h; ++c) acc += static_cast<double>(w.w_down[(layer * d + r) * h + c]) * up[c];
            x[r] = static_cast<float>(x[r] + acc);
        }
    }
    return x;
}

/** @brief Plus grand écart |a − b| / (1 + |b|) entre deux vecteurs de même taille. */
inline double max_relative_error(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size()) throw std::invalid_argument("vecteurs de tailles différentes");
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::fmax(worst, std::fabs(static_cast<double>(a[i]) - b[i]) / (1.0 + std::fabs(static_cast<double>(b[i]))));
    return worst;
}

/** @brief Tolérance du fp32 face à la référence en double (sommes réordonnées, rsqrtf, expf). */
constexpr double kDecoderTolerance = 1e-3;

}  // namespace noyaux::megakernels
