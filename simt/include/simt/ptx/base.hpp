/**
 * @file
 * @brief PTX en ligne traduit par la réécriture (simt/rewrite/ptx) : registres, conversions
 *        entre opérandes C++ et registres PTX, et le petit PTX des fonctions d'enrobage
 *        (mov, setp, selp, cvt, cvta, arithmétique entière, registres spéciaux).
 *
 * Un registre PTX est un conteneur de bits non signé de sa taille (`.b16` → `uint16_t`,
 * `.f32` → `uint32_t`…), un prédicat un `bool` ; chaque instruction lit ses opérandes dans
 * son type (get) et range son résultat en bits (put). Les opérandes de l'instruction `asm`
 * suivent la même règle : `"f"(x)` range les bits du flottant dans un `uint32_t`.
 */
#pragma once

#include "simt/engine.hpp"
#include "simt/shared_window.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

namespace simt::ptx {

/** @brief Entier non signé de @p Bytes octets : le conteneur d'un registre. */
template <std::size_t Bytes>
using bits_t = std::conditional_t<Bytes == 1, std::uint8_t,
               std::conditional_t<Bytes == 2, std::uint16_t,
               std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>>>;

/** @brief Valeur de type @p T lue dans un registre ou une valeur immédiate @p value. */
template <typename T, typename R>
T get(const R& value) {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<R, bool>) {
        return static_cast<T>(value);
    } else if constexpr (std::is_floating_point_v<T> && std::is_integral_v<R> && std::is_unsigned_v<R>) {
        return std::bit_cast<T>(static_cast<bits_t<sizeof(T)>>(value));  // bits d'un registre
    } else {
        return static_cast<T>(value);  // immédiat, ou entier (troncature et extension comme PTX)
    }
}

/** @brief Range @p value (de son type PTX) dans le registre @p reg, en bits. */
template <typename R, typename T>
void put(R& reg, T value) {
    if constexpr (std::is_same_v<R, bool>) {
        reg = static_cast<bool>(value);
    } else if constexpr (std::is_floating_point_v<T>) {
        reg = static_cast<R>(std::bit_cast<bits_t<sizeof(T)>>(value));
    } else {
        reg = static_cast<R>(value);
    }
}

/** @brief Bits d'un opérande d'entrée de `asm` (`"r"(x)`, `"l"(pointeur)`, `"h"(demi)`…). */
template <typename R, typename E>
R in(const E& expression) {
    using T = std::remove_cvref_t<E>;
    if constexpr (std::is_pointer_v<T>) {
        return static_cast<R>(reinterpret_cast<std::uintptr_t>(expression));
    } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
        return static_cast<R>(expression);
    } else if constexpr (std::is_floating_point_v<T> && sizeof(T) == sizeof(R)) {
        return std::bit_cast<R>(expression);
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<R>(std::bit_cast<bits_t<sizeof(T)>>(expression));
    } else {
        static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(R),
                      "opérande d'asm : type sans conversion vers un registre PTX");
        bits_t<sizeof(T)> raw;
        std::memcpy(&raw, &expression, sizeof(T));
        return static_cast<R>(raw);
    }
}

/** @brief Range les bits @p reg d'un opérande de sortie de `asm` dans l'expression C++ @p target. */
template <typename E, typename R>
void out(E& target, R reg) {
    using T = std::remove_cvref_t<E>;
    if constexpr (std::is_pointer_v<T>) {
        target = reinterpret_cast<T>(static_cast<std::uintptr_t>(reg));
    } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
        target = static_cast<T>(reg);
    } else if constexpr (std::is_floating_point_v<T>) {
        target = std::bit_cast<T>(static_cast<bits_t<sizeof(T)>>(reg));
    } else {
        static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(R),
                      "opérande d'asm : type sans conversion depuis un registre PTX");
        const auto raw = static_cast<bits_t<sizeof(T)>>(reg);
        std::memcpy(&target, &raw, sizeof(T));
    }
}

/** @brief Flottant de 32 bits d'un immédiat PTX `0fXXXXXXXX`. */
inline float f32_bits(std::uint32_t bits) { return std::bit_cast<float>(bits); }
/** @brief Flottant de 64 bits d'un immédiat PTX `0dXXXXXXXXXXXXXXXX`. */
inline double f64_bits(std::uint64_t bits) { return std::bit_cast<double>(bits); }

// ---- Arithmétique et logique (les entiers signés calculent en non signé : débordement modulo 2^n, comme PTX)

/** @brief Type où calculer une addition ou une multiplication de @p T sans comportement indéfini. */
template <typename T>
using wrap_t = std::conditional_t<std::is_integral_v<T>, std::make_unsigned_t<T>, T>;

/** @brief add.T */
template <typename T, typename D, typename A, typename B>
void add(D& d, const A& a, const B& b) { put(d, static_cast<T>(wrap_t<T>(get<T>(a)) + wrap_t<T>(get<T>(b)))); }
/** @brief sub.T */
template <typename T, typename D, typename A, typename B>
void sub(D& d, const A& a, const B& b) { put(d, static_cast<T>(wrap_t<T>(get<T>(a)) - wrap_t<T>(get<T>(b)))); }
/** @brief mul.lo.T (entiers), mul.T (flottants) */
template <typename T, typename D, typename A, typename B>
void mul(D& d, const A& a, const B& b) { put(d, static_cast<T>(wrap_t<T>(get<T>(a)) * wrap_t<T>(get<T>(b)))); }
/** @brief and.T */
template <typename T, typename D, typename A, typename B>
void bit_and(D& d, const A& a, const B& b) { put(d, static_cast<T>(get<T>(a) & get<T>(b))); }
/** @brief or.T */
template <typename T, typename D, typename A, typename B>
void bit_or(D& d, const A& a, const B& b) { put(d, static_cast<T>(get<T>(a) | get<T>(b))); }
/** @brief xor.T */
template <typename T, typename D, typename A, typename B>
void bit_xor(D& d, const A& a, const B& b) { put(d, static_cast<T>(get<T>(a) ^ get<T>(b))); }
/** @brief not.T */
template <typename T, typename D, typename A>
void bit_not(D& d, const A& a) { put(d, static_cast<T>(~get<T>(a))); }
/** @brief shl.T : un décalage au-delà de la largeur donne 0 (PTX ISA, shl). */
template <typename T, typename D, typename A, typename B>
void shl(D& d, const A& a, const B& b) {
    const std::uint32_t n = get<std::uint32_t>(b);
    put(d, n >= sizeof(T) * 8 ? T(0) : static_cast<T>(wrap_t<T>(get<T>(a)) << n));
}
/** @brief shr.T : arithmétique pour .s, logique sinon ; la largeur bornée (PTX ISA, shr). */
template <typename T, typename D, typename A, typename B>
void shr(D& d, const A& a, const B& b) {
    const std::uint32_t n = std::min<std::uint32_t>(get<std::uint32_t>(b), sizeof(T) * 8 - 1);
    const T value = get<T>(a);
    if constexpr (std::is_signed_v<T>) put(d, static_cast<T>(value >> n));
    else put(d, get<std::uint32_t>(b) >= sizeof(T) * 8 ? T(0) : static_cast<T>(value >> n));
}

/** @brief mov.T d, {a, b…} : assemble des parties de @p PartBits bits, la première en bits bas. */
template <typename T, int PartBits, typename D, typename... P>
void mov_pack(D& d, const P&... parts) {
    T value = 0;
    int shift = 0;
    ((value |= static_cast<T>(static_cast<T>(parts) << shift), shift += PartBits), ...);
    put(d, value);
}

/** @brief mov.T {a, b…}, s : découpe en parties de @p PartBits bits, la première en bits bas. */
template <typename T, int PartBits, typename... P>
void mov_unpack(T value, P&... parts) {
    int shift = 0;
    ((put(parts, static_cast<bits_t<PartBits / 8>>(value >> shift)), shift += PartBits), ...);
}

// ---- Comparaisons (setp) : ordonnées pour les flottants (fausses si un opérande est NaN)

/** @brief setp.eq */
template <typename T> bool compare_eq(T a, T b) { return a == b; }
/** @brief setp.ne (pour les flottants, ordonnée : fausse si NaN, comme PTX) */
template <typename T> bool compare_ne(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) return a < b || a > b;
    else return a != b;
}
/** @brief setp.lt / lo */
template <typename T> bool compare_lt(T a, T b) { return a < b; }
/** @brief setp.le / ls */
template <typename T> bool compare_le(T a, T b) { return a <= b; }
/** @brief setp.gt / hi */
template <typename T> bool compare_gt(T a, T b) { return a > b; }
/** @brief setp.ge / hs */
template <typename T> bool compare_ge(T a, T b) { return a >= b; }

// ---- Chargements et rangements (ld, st) -------------------------------------------------------

/** @brief ld{.v2,.v4}.T : lit des valeurs consécutives de type @p T à @p pointer. */
template <typename T, typename... D>
void load(const void* pointer, D&... targets) {
    const auto* p = static_cast<const unsigned char*>(pointer);
    (
        [&] {
            T value;
            std::memcpy(&value, p, sizeof value);
            p += sizeof value;
            put(targets, value);
        }(),
        ...);
}

/** @brief st{.v2,.v4}.T : range des valeurs consécutives de type @p T à @p pointer. */
template <typename T, typename... V>
void store(void* pointer, const V&... values) {
    auto* p = static_cast<unsigned char*>(pointer);
    (
        [&] {
            const T value = static_cast<T>(values);
            std::memcpy(p, &value, sizeof value);
            p += sizeof value;
        }(),
        ...);
}

// ---- Registres spéciaux --------------------------------------------------------------------

/** @brief %laneid */
inline std::uint32_t sreg_laneid() { return ::simt::detail::lane_id(); }
/** @brief %warpid : le rang du warp dans le bloc (sur GPU, un identifiant physique qui peut changer). */
std::uint32_t sreg_warpid();
/** @brief %tid.x/y/z (@p axis 0, 1, 2) */
std::uint32_t sreg_tid(int axis);
/** @brief %ntid.x/y/z */
std::uint32_t sreg_ntid(int axis);
/** @brief %ctaid.x/y/z */
std::uint32_t sreg_ctaid(int axis);
/** @brief %nctaid.x/y/z */
std::uint32_t sreg_nctaid(int axis);
/** @brief %lanemask_eq, _lt, _le, _gt, _ge (@p kind 0 à 4) */
std::uint32_t sreg_lanemask(int kind);
/** @brief %clock64 (nanosecondes, comme clock64 de simt) */
std::uint64_t sreg_clock64();

// ---- Fenêtres d'adresses ---------------------------------------------------------------------

/** @brief cvta.to.shared : pointeur générique → adresse partagée. */
template <typename D, typename A>
void cvta_to_shared(D& d, const A& a, const std::source_location& where = std::source_location::current()) {
    put(d, ::simt::shared_address(reinterpret_cast<const void*>(static_cast<std::uintptr_t>(get<std::uint64_t>(a))), where));
}
/** @brief cvta.shared : adresse partagée → pointeur générique. */
template <typename D, typename A>
void cvta_shared(D& d, const A& a, const std::source_location& where = std::source_location::current()) {
    put(d, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(
               ::simt::shared_pointer(static_cast<std::uint32_t>(get<std::uint64_t>(a)), where))));
}

/** @brief Adresse partagée d'un opérande `[base+décalage]`, sur 32 bits. */
template <typename B>
std::uint32_t shared_operand(const B& base, std::int64_t offset) {
    return static_cast<std::uint32_t>(get<std::uint64_t>(base) + static_cast<std::uint64_t>(offset));
}
/** @brief Pointeur d'un opérande `[base+décalage]` générique ou global. */
template <typename B>
void* generic_operand(const B& base, std::int64_t offset) {
    return reinterpret_cast<void*>(static_cast<std::uintptr_t>(get<std::uint64_t>(base) + static_cast<std::uint64_t>(offset)));
}

// ---- Conversions (cvt) -----------------------------------------------------------------------

/** @brief Flottant de 32 bits → bits d'un demi (binary16), arrondi au plus proche pair. */
std::uint16_t f32_to_f16_rn(float value);
/** @brief Bits d'un demi → flottant de 32 bits (exact). */
float f16_to_f32(std::uint16_t bits);
/** @brief Flottant de 32 bits → bits d'un bfloat16, arrondi au plus proche pair (NaN conservé). */
std::uint16_t f32_to_bf16_rn(float value);
/** @brief Bits d'un bfloat16 → flottant de 32 bits (exact). */
inline float bf16_to_f32(std::uint16_t bits) { return std::bit_cast<float>(std::uint32_t(bits) << 16); }
/** @brief cvt.rna.tf32.f32 : arrondi au plus proche, égalités loin de zéro, sur 10 bits de mantisse. */
std::uint32_t f32_to_tf32_rna(float value);

}  // namespace simt::ptx
