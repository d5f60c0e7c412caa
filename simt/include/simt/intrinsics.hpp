/**
 * @file
 * @brief Intrinsèques de calcul propres à un thread (liste « Intrinsic Functions » du guide
 *        de programmation CUDA) : versions rapides des fonctions mathématiques, opérations
 *        IEEE à arrondi dirigé, conversions, opérations entières et sur les bits, min et max.
 *
 * Les opérations à arrondi dirigé (`_rd` vers −∞, `_ru` vers +∞, `_rz` vers 0, `_rn` au plus
 * proche pair) sont exactes au bit près : l'opération IEEE du processeur est faite dans le
 * mode d'arrondi demandé (fesetround), puis le mode d'origine est rétabli. Les versions
 * rapides (`__expf`, `__sinf`…) rendent le résultat exact de la bibliothèque C, et non
 * l'approximation matérielle du GPU, qui s'en écarte de quelques ulp (écart documenté par
 * NVIDIA, tableau « Intrinsic Functions » du guide). Les conversions vers un entier saturent
 * comme l'instruction cvt du GPU : au-delà des bornes, la borne ; NaN donne 0.
 */
#pragma once

#include <bit>
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace simt::detail {

/**
 * @brief Évalue @p operation (qui lit ses opérandes par des volatile) dans le mode d'arrondi
 *        @p mode, puis rétablit le mode courant. Les volatile empêchent le compilateur de
 *        plier l'opération ou de la déplacer hors de la fenêtre où le mode est actif.
 */
template <typename Operation>
auto with_rounding(int mode, Operation operation) {
    const int saved = std::fegetround();
    std::fesetround(mode);
    const volatile auto result = operation();
    std::fesetround(saved);
    return static_cast<std::remove_cv_t<decltype(result)>>(result);
}

/** @brief Conversion saturante vers l'entier I d'une valeur déjà arrondie (règle de cvt). */
template <typename I, typename F>
I saturate_to(F rounded) {
    if (std::isnan(rounded)) return 0;
    if (rounded <= static_cast<F>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (rounded >= static_cast<F>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return static_cast<I>(rounded);
}

template <typename F>
F round_rn(F x) { return std::nearbyint(x); }
template <typename F>
F round_rd(F x) { return std::floor(x); }
template <typename F>
F round_ru(F x) { return std::ceil(x); }
template <typename F>
F round_rz(F x) { return std::trunc(x); }

}  // namespace simt::detail

// ---- Versions rapides des fonctions mathématiques ---------------------------------------

inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline void __sincosf(float x, float* sine, float* cosine) {
    *sine = std::sin(x);
    *cosine = std::cos(x);
}
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
/** @brief Borne à [0, 1] ; NaN donne 0, comme le modificateur .sat du GPU. */
inline float __saturatef(float x) { return x > 0.0f ? (x > 1.0f ? 1.0f : x) : 0.0f; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __frsqrt_rn(float x) { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x))); }

// ---- Opérations IEEE à arrondi dirigé -----------------------------------------------------

#define SIMT_ROUNDED_BINARY(name, T, op)                                                          \
    inline T name##_rn(T a, T b) { return simt::detail::with_rounding(FE_TONEAREST, [&] { volatile T x = a, y = b; return T(x op y); }); } \
    inline T name##_rd(T a, T b) { return simt::detail::with_rounding(FE_DOWNWARD, [&] { volatile T x = a, y = b; return T(x op y); }); }  \
    inline T name##_ru(T a, T b) { return simt::detail::with_rounding(FE_UPWARD, [&] { volatile T x = a, y = b; return T(x op y); }); }    \
    inline T name##_rz(T a, T b) { return simt::detail::with_rounding(FE_TOWARDZERO, [&] { volatile T x = a, y = b; return T(x op y); }); }

SIMT_ROUNDED_BINARY(__fadd, float, +)
SIMT_ROUNDED_BINARY(__fsub, float, -)
SIMT_ROUNDED_BINARY(__fmul, float, *)
SIMT_ROUNDED_BINARY(__fdiv, float, /)
SIMT_ROUNDED_BINARY(__dadd, double, +)
SIMT_ROUNDED_BINARY(__dsub, double, -)
SIMT_ROUNDED_BINARY(__dmul, double, *)
SIMT_ROUNDED_BINARY(__ddiv, double, /)
#undef SIMT_ROUNDED_BINARY

#define SIMT_ROUNDED_UNARY(name, T, expression)                                                   \
    inline T name##_rn(T a) { return simt::detail::with_rounding(FE_TONEAREST, [&] { volatile T x = a; return T(expression); }); } \
    inline T name##_rd(T a) { return simt::detail::with_rounding(FE_DOWNWARD, [&] { volatile T x = a; return T(expression); }); }  \
    inline T name##_ru(T a) { return simt::detail::with_rounding(FE_UPWARD, [&] { volatile T x = a; return T(expression); }); }    \
    inline T name##_rz(T a) { return simt::detail::with_rounding(FE_TOWARDZERO, [&] { volatile T x = a; return T(expression); }); }

SIMT_ROUNDED_UNARY(__frcp, float, 1.0f / x)
SIMT_ROUNDED_UNARY(__fsqrt, float, std::sqrt(float(x)))
SIMT_ROUNDED_UNARY(__drcp, double, 1.0 / x)
SIMT_ROUNDED_UNARY(__dsqrt, double, std::sqrt(double(x)))
#undef SIMT_ROUNDED_UNARY

#define SIMT_ROUNDED_FMA(name, T)                                                                 \
    inline T name##_rn(T a, T b, T c) { return simt::detail::with_rounding(FE_TONEAREST, [&] { volatile T x = a, y = b, z = c; return T(std::fma(T(x), T(y), T(z))); }); } \
    inline T name##_rd(T a, T b, T c) { return simt::detail::with_rounding(FE_DOWNWARD, [&] { volatile T x = a, y = b, z = c; return T(std::fma(T(x), T(y), T(z))); }); }  \
    inline T name##_ru(T a, T b, T c) { return simt::detail::with_rounding(FE_UPWARD, [&] { volatile T x = a, y = b, z = c; return T(std::fma(T(x), T(y), T(z))); }); }    \
    inline T name##_rz(T a, T b, T c) { return simt::detail::with_rounding(FE_TOWARDZERO, [&] { volatile T x = a, y = b, z = c; return T(std::fma(T(x), T(y), T(z))); }); }

SIMT_ROUNDED_FMA(__fmaf, float)
SIMT_ROUNDED_FMA(__fmaf_ieee, float)
SIMT_ROUNDED_FMA(__fma, double)
#undef SIMT_ROUNDED_FMA

// ---- Conversions ------------------------------------------------------------------------

#define SIMT_TO_INTEGER(name, F, I)                                                                 \
    inline I name##_rn(F x) { return simt::detail::saturate_to<I>(simt::detail::round_rn(x)); } \
    inline I name##_rd(F x) { return simt::detail::saturate_to<I>(simt::detail::round_rd(x)); } \
    inline I name##_ru(F x) { return simt::detail::saturate_to<I>(simt::detail::round_ru(x)); } \
    inline I name##_rz(F x) { return simt::detail::saturate_to<I>(simt::detail::round_rz(x)); }

SIMT_TO_INTEGER(__float2int, float, int)
SIMT_TO_INTEGER(__float2uint, float, unsigned)
SIMT_TO_INTEGER(__float2ll, float, long long)
SIMT_TO_INTEGER(__float2ull, float, unsigned long long)
SIMT_TO_INTEGER(__double2int, double, int)
SIMT_TO_INTEGER(__double2uint, double, unsigned)
SIMT_TO_INTEGER(__double2ll, double, long long)
SIMT_TO_INTEGER(__double2ull, double, unsigned long long)
#undef SIMT_TO_INTEGER

#define SIMT_ROUNDED_CONVERSION(name, From, To)                                                      \
    inline To name##_rn(From a) { return simt::detail::with_rounding(FE_TONEAREST, [&] { volatile From x = a; return To(x); }); } \
    inline To name##_rd(From a) { return simt::detail::with_rounding(FE_DOWNWARD, [&] { volatile From x = a; return To(x); }); }  \
    inline To name##_ru(From a) { return simt::detail::with_rounding(FE_UPWARD, [&] { volatile From x = a; return To(x); }); }    \
    inline To name##_rz(From a) { return simt::detail::with_rounding(FE_TOWARDZERO, [&] { volatile From x = a; return To(x); }); }

SIMT_ROUNDED_CONVERSION(__double2float, double, float)
SIMT_ROUNDED_CONVERSION(__int2float, int, float)
SIMT_ROUNDED_CONVERSION(__uint2float, unsigned, float)
SIMT_ROUNDED_CONVERSION(__ll2float, long long, float)
SIMT_ROUNDED_CONVERSION(__ull2float, unsigned long long, float)
SIMT_ROUNDED_CONVERSION(__ll2double, long long, double)
SIMT_ROUNDED_CONVERSION(__ull2double, unsigned long long, double)
#undef SIMT_ROUNDED_CONVERSION

// Exactes : un entier de 32 bits tient dans un double.
inline double __int2double_rn(int x) { return static_cast<double>(x); }
inline double __uint2double_rn(unsigned x) { return static_cast<double>(x); }

inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline int __double2hiint(double x) { return static_cast<int>(std::bit_cast<unsigned long long>(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(std::bit_cast<unsigned long long>(x) & 0xffffffffu); }
inline double __hiloint2double(int high, int low) {
    return std::bit_cast<double>((static_cast<unsigned long long>(static_cast<unsigned>(high)) << 32) |
                                 static_cast<unsigned>(low));
}

// ---- Entiers et bits ----------------------------------------------------------------------

inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __clz(int x) { return std::countl_zero(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1; }
inline int __ffsll(long long x) {
    return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1;
}
inline unsigned __brev(unsigned x) {
    unsigned result = 0;
    for (int bit = 0; bit < 32; ++bit) result |= ((x >> bit) & 1u) << (31 - bit);
    return result;
}
inline unsigned long long __brevll(unsigned long long x) {
    return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
           __brev(static_cast<unsigned>(x >> 32));
}
/** @brief Octet n du résultat : l'octet choisi par le quartet n de @p selector (3 bits) parmi
 *         les huit de {y, x} (x donne les octets 0 à 3, y les octets 4 à 7). */
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned selector) {
    const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
    unsigned result = 0;
    for (int n = 0; n < 4; ++n) {
        const unsigned pick = (selector >> (4 * n)) & 7u;
        result |= static_cast<unsigned>((bytes >> (8 * pick)) & 0xffu) << (8 * n);
    }
    return result;
}
/** @brief Décalage de la concaténation hi:lo ; `_l`/`_r` prennent le décalage modulo 32,
 *         `_lc`/`_rc` le bornent à 32. */
inline unsigned __funnelshift_l(unsigned low, unsigned high, unsigned shift) {
    const unsigned long long both = (static_cast<unsigned long long>(high) << 32) | low;
    return static_cast<unsigned>((both << (shift & 31u)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned low, unsigned high, unsigned shift) {
    const unsigned long long both = (static_cast<unsigned long long>(high) << 32) | low;
    return static_cast<unsigned>((both << (shift < 32u ? shift : 32u)) >> 32);
}
inline unsigned __funnelshift_r(unsigned low, unsigned high, unsigned shift) {
    const unsigned long long both = (static_cast<unsigned long long>(high) << 32) | low;
    return static_cast<unsigned>(both >> (shift & 31u));
}
inline unsigned __funnelshift_rc(unsigned low, unsigned high, unsigned shift) {
    const unsigned long long both = (static_cast<unsigned long long>(high) << 32) | low;
    return static_cast<unsigned>(both >> (shift < 32u ? shift : 32u));
}
// Moyennes sans débordement : la somme est faite sur 64 bits.
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned __urhadd(unsigned x, unsigned y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
/** @brief |x − y| + z, la différence calculée sans débordement. */
inline unsigned __sad(int x, int y, unsigned z) {
    const long long difference = static_cast<long long>(x) - y;
    return static_cast<unsigned>(difference < 0 ? -difference : difference) + z;
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
inline int __mul24(int a, int b) {
    const auto low24 = [](int v) { return static_cast<int>(static_cast<unsigned>(v) << 8) >> 8; };
    return static_cast<int>(static_cast<unsigned>(low24(a)) * static_cast<unsigned>(low24(b)));
}
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
    return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline long long __mul64hi(long long a, long long b) {
    return static_cast<long long>((static_cast<__int128>(a) * b) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
/** @brief Produit scalaire de quatre octets (signés ou non) plus c. */
inline int __dp4a(int a, int b, int c) {
    for (int n = 0; n < 4; ++n)
        c += static_cast<signed char>(a >> (8 * n)) * static_cast<signed char>(b >> (8 * n));
    return c;
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
    for (int n = 0; n < 4; ++n) c += ((a >> (8 * n)) & 0xffu) * ((b >> (8 * n)) & 0xffu);
    return c;
}
/** @brief Deux demi-mots de a par deux octets de b (les deux bas, ou les deux hauts) plus c. */
inline int __dp2a_lo(int a, int b, int c) {
    for (int n = 0; n < 2; ++n)
        c += static_cast<short>(a >> (16 * n)) * static_cast<signed char>(b >> (8 * n));
    return c;
}
inline int __dp2a_hi(int a, int b, int c) {
    for (int n = 0; n < 2; ++n)
        c += static_cast<short>(a >> (16 * n)) * static_cast<signed char>(b >> (8 * (n + 2)));
    return c;
}
inline unsigned __dp2a_lo(unsigned a, unsigned b, unsigned c) {
    for (int n = 0; n < 2; ++n) c += ((a >> (16 * n)) & 0xffffu) * ((b >> (8 * n)) & 0xffu);
    return c;
}
inline unsigned __dp2a_hi(unsigned a, unsigned b, unsigned c) {
    for (int n = 0; n < 2; ++n) c += ((a >> (16 * n)) & 0xffffu) * ((b >> (8 * (n + 2))) & 0xffu);
    return c;
}

// min et max globaux de CUDA (le C++ n'a que std::min et std::max), avec les surcharges de
// crt/math_functions.hpp : sans celles de long et unsigned long, min(n, m) sur deux size_t
// serait ambigu. Un mélange signé / non signé se compare en non signé, comme sur GPU.
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline unsigned min(int a, unsigned b) { return min(static_cast<unsigned>(a), b); }
inline unsigned max(int a, unsigned b) { return max(static_cast<unsigned>(a), b); }
inline unsigned min(unsigned a, int b) { return min(a, static_cast<unsigned>(b)); }
inline unsigned max(unsigned a, int b) { return max(a, static_cast<unsigned>(b)); }
inline long min(long a, long b) { return a < b ? a : b; }
inline long max(long a, long b) { return a > b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
inline unsigned long min(long a, unsigned long b) { return min(static_cast<unsigned long>(a), b); }
inline unsigned long max(long a, unsigned long b) { return max(static_cast<unsigned long>(a), b); }
inline unsigned long min(unsigned long a, long b) { return min(a, static_cast<unsigned long>(b)); }
inline unsigned long max(unsigned long a, long b) { return max(a, static_cast<unsigned long>(b)); }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline unsigned long long min(long long a, unsigned long long b) {
    return min(static_cast<unsigned long long>(a), b);
}
inline unsigned long long max(long long a, unsigned long long b) {
    return max(static_cast<unsigned long long>(a), b);
}
inline unsigned long long min(unsigned long long a, long long b) {
    return min(a, static_cast<unsigned long long>(b));
}
inline unsigned long long max(unsigned long long a, long long b) {
    return max(a, static_cast<unsigned long long>(b));
}
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double min(float a, double b) { return std::fmin(static_cast<double>(a), b); }
inline double max(float a, double b) { return std::fmax(static_cast<double>(a), b); }
inline double min(double a, float b) { return std::fmin(a, static_cast<double>(b)); }
inline double max(double a, float b) { return std::fmax(a, static_cast<double>(b)); }

// Les noms sans surcharge de la bibliothèque mathématique de CUDA.
inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
