/**
 * @file
 * @brief tensor_core_accumulate (simt/tensor_core.hpp) : somme exacte, un seul arrondi.
 *
 * Chemin rapide : la somme en double, dont chaque addition est vérifiée exacte par
 * l'algorithme TwoSum de Knuth (l'erreur d'arrondi d'une addition est elle-même un double,
 * calculé exactement) ; si aucune n'a arrondi, la somme double est la somme exacte, et sa
 * conversion en float est le seul arrondi. C'est le cas de presque tous les appels (produits
 * de 8 à 22 bits significatifs, d'ordres de grandeur voisins). Sinon, un accumulateur à
 * virgule fixe qui couvre tout double (de 2^-1074 à 2^1024) reçoit chaque terme exactement,
 * puis est arrondi en float avec son bit d'arrondi et son bit collant.
 */
#include "simt/tensor_core.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace simt {
namespace {

/** @brief Un entier en complément à deux : le bit i vaut 2^(i − 1074). */
class FixedPointSum {
public:
    void add(double x) {
        int exponent = 0;
        const double fraction = std::frexp(std::fabs(x), &exponent);  // |x| = fraction · 2^exponent
        auto mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
        int shift = exponent - 53 + kBias;  // position du bit de poids faible de mantissa
        if (shift < 0) {  // double sous-normal : les bits perdus sont nuls
            mantissa >>= -shift;
            shift = 0;
        }
        const unsigned limb = static_cast<unsigned>(shift) / 64, offset = static_cast<unsigned>(shift) % 64;
        const std::uint64_t low = mantissa << offset;
        const std::uint64_t high = offset ? mantissa >> (64 - offset) : 0;
        if (x > 0) {
            propagate_add(limb, low);
            propagate_add(limb + 1, high);
        } else {
            propagate_subtract(limb, low);
            propagate_subtract(limb + 1, high);
        }
    }

    /** @brief La somme arrondie au plus proche en float (égalités vers le pair). */
    float to_float() {
        const bool negative = (limbs_[kLimbs - 1] >> 63) != 0;
        if (negative) negate();
        int top = kLimbs * 64 - 1;
        while (top >= 0 && !bit(top)) --top;
        if (top < 0) return 0.0f;  // somme exactement nulle : +0, comme x + (−x) au plus proche
        // Bits gardés : 24 au plus, et aucun sous 2^-149 (plus petit sous-normal float).
        const int lowest = std::max(top - 23, kBias - 149);
        std::uint32_t kept = 0;
        for (int i = top; i >= lowest; --i) kept = (kept << 1) | static_cast<std::uint32_t>(bit(i));
        const bool round = lowest > 0 && bit(lowest - 1);
        const bool sticky = lowest > 1 && any_below(lowest - 1);
        if (round && (sticky || (kept & 1u))) ++kept;  // 2^24 au plus : exact en float
        const float magnitude = std::ldexp(static_cast<float>(kept), lowest - kBias);  // infini au-delà de FLT_MAX
        return negative ? -magnitude : magnitude;
    }

private:
    static constexpr int kBias = 1074;
    static constexpr int kLimbs = 36;  // 2 304 bits : 2^-1074 à 2^1229, marge pour 2^200 termes

    bool bit(int i) const { return (limbs_[static_cast<unsigned>(i) / 64] >> (static_cast<unsigned>(i) % 64)) & 1u; }

    /** @brief Un bit non nul sous le bit @p i ? */
    bool any_below(int i) const {
        const unsigned limb = static_cast<unsigned>(i) / 64, offset = static_cast<unsigned>(i) % 64;
        if (offset && (limbs_[limb] & ((std::uint64_t{1} << offset) - 1))) return true;
        for (unsigned l = 0; l < limb; ++l)
            if (limbs_[l]) return true;
        return false;
    }

    void propagate_add(unsigned limb, std::uint64_t value) {
        for (; value && limb < kLimbs; ++limb) {
            const std::uint64_t before = limbs_[limb];
            limbs_[limb] = before + value;
            value = limbs_[limb] < before ? 1 : 0;
        }
    }

    void propagate_subtract(unsigned limb, std::uint64_t value) {
        for (; value && limb < kLimbs; ++limb) {
            const std::uint64_t before = limbs_[limb];
            limbs_[limb] = before - value;
            value = before < value ? 1 : 0;
        }
    }

    void negate() {
        for (std::uint64_t& l : limbs_) l = ~l;
        propagate_add(0, 1);
    }

    std::array<std::uint64_t, kLimbs> limbs_{};
};

}  // namespace

float tensor_core_accumulate(float c, const double* products, std::size_t count) {
    double sum = c;
    bool exact = std::isfinite(c);
    for (std::size_t i = 0; i < count; ++i) {
        const double term = products[i];
        const double next = sum + term;
        // TwoSum : next + error = sum + term exactement (aucun débordement : |termes| < 2^257).
        const double term_part = next - sum;
        const double error = (sum - (next - term_part)) + (term - term_part);
        exact = exact && std::isfinite(term) && error == 0.0;
        sum = next;
    }
    if (exact || !std::isfinite(sum)) return static_cast<float>(sum);  // NaN et infinis : règles IEEE
    FixedPointSum fixed;
    fixed.add(c);
    for (std::size_t i = 0; i < count; ++i) fixed.add(products[i]);
    return fixed.to_float();
}

}  // namespace simt
