/**
 * @file
 * @brief L'API nvcuda::wmma de <mma.h> (Tensor Cores), émulée sur le processeur : fragments,
 *        fill_fragment, load_matrix_sync, store_matrix_sync et mma_sync, pour les formes et
 *        les types de la capacité 8.0 (entrées __half, __nv_bfloat16 et precision::tf32,
 *        accumulateur float, ou __half avec des entrées __half).
 *
 * Inclus par shim/mma.h, qui passe avant l'en-tête du toolkit : un noyau qui inclut <mma.h>
 * se compile sans changement.
 *
 * **Taille des fragments.** `num_elements` et `x[]` sont ceux du toolkit : spécialisations de
 * `fragment<…>` dans crt/mma.h (CUDA 13.0), `__frag_base<T, N>`. Un accumulateur m×n en a
 * m·n/32 par lane (8 dans les quatre formes) ; une entrée __nv_bfloat16 ou tf32, autant
 * que sa tuile en compte divisé par 32 ; une entrée __half en a toujours 16, si bien que dans
 * les formes où sa tuile n'a pas 512 éléments, chaque élément y est répété (2 ou 4 fois).
 *
 * **Correspondance élément → thread.** CUDA ne la spécifie pas (guide de programmation,
 * « Warp Matrix Functions » : « the mapping of matrix elements into fragment internal storage
 * is unspecified »). simt choisit la plus simple : l'élément x[i] de la lane l occupe la case
 * s = l·num_elements + i ; sa position dans la tuile (lignes × colonnes, A : m×k, B : k×n,
 * accumulateur : m×n) est p = s mod (lignes·colonnes), ligne p / colonnes, colonne
 * p mod colonnes, quelle que soit la disposition en mémoire (row_major ou col_major). Chaque
 * élément d'un accumulateur a donc exactement une case (une lane, un indice) ; un élément
 * répété d'une entrée __half en a plusieurs, que mma_sync exige identiques.
 *
 * **Arrondis.** mma_sync suit la règle commune des Tensor Cores émulés (simt/tensor_core.hpp,
 * la même que mma.sync et wgmma) : produits exacts, somme exacte de C et des k produits,
 * un seul arrondi au plus proche en float. Le matériel, dont l'ordre et l'arrondi des
 * additions ne sont pas spécifiés, peut différer au dernier bit, jamais sur un résultat dont
 * toutes les sommes partielles sont représentables en float (entiers petits). Une entrée tf32 n'est lue que par ses 19 bits
 * hauts (signe, exposant, 10 bits de mantisse) : les 13 bits bas d'un float non converti par
 * __float_to_tf32 sont ignorés, comme sur le matériel (CUTLASS s'en remet à lui :
 * include/cutlass/numeric_conversion.h arrondit vers tf32 sans effacer ces bits, « TF32 does
 * not define the low order bits »). Un accumulateur __half en sortie est arrondi une seule
 * fois, à la fin, depuis la somme en float (deux arrondis en tout : exact → float → half).
 */
#pragma once

#include "simt/engine.hpp"
#include "simt/ptx/base.hpp"
#include "simt/tensor_core.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <string>
#include <type_traits>

namespace nvcuda::wmma {

/** @brief Disposition d'une tuile A ou B en mémoire : lignes contiguës. */
struct row_major;
/** @brief Disposition d'une tuile A ou B en mémoire : colonnes contiguës. */
struct col_major;
/** @brief Rôle d'un fragment : premier facteur, A (m×k). */
struct matrix_a;
/** @brief Rôle d'un fragment : second facteur, B (k×n). */
struct matrix_b;
/** @brief Rôle d'un fragment : accumulateur, C ou D (m×n). */
struct accumulator;

namespace precision {
/** @brief Entrée TensorFloat-32 : rangée dans un float, lue par ses 19 bits hauts. */
struct tf32;
}  // namespace precision

/** @brief Disposition d'un accumulateur en mémoire. */
enum layout_t {
    mem_row_major,  ///< lignes contiguës
    mem_col_major   ///< colonnes contiguës
};

/**
 * @brief Arrondit @p in à la précision tf32 (10 bits de mantisse), au plus près, les
 *        égalités loin de zéro, comme cvt.rna.tf32.f32 ; les 13 bits bas du résultat sont nuls.
 */
inline float __float_to_tf32(float in) { return std::bit_cast<float>(::simt::ptx::f32_to_tf32_rna(in)); }

/**
 * @brief Base de tout fragment, comme dans le toolkit : @p size éléments de type @p T par
 *        lane, rangés dans x[].
 */
template <typename T, int size>
struct alignas(8) __frag_base;

}  // namespace nvcuda::wmma

namespace simt::wmma {

namespace w = ::nvcuda::wmma;

/** @brief Type d'un élément de x[] : celui de l'élément, sauf tf32, rangé dans un float. */
template <typename T>
struct storage {
    using type = T;  ///< type rangé
};
/** @brief tf32 est rangé dans un float. */
template <>
struct storage<w::precision::tf32> {
    using type = float;  ///< type rangé
};

/** @brief Dimensions de la tuile d'un fragment selon son rôle. */
template <typename Use, int m, int n, int k>
struct tile;
/** @brief A : m×k. */
template <int m, int n, int k>
struct tile<w::matrix_a, m, n, k> {
    static constexpr int rows = m;  ///< lignes
    static constexpr int cols = k;  ///< colonnes
};
/** @brief B : k×n. */
template <int m, int n, int k>
struct tile<w::matrix_b, m, n, k> {
    static constexpr int rows = k;  ///< lignes
    static constexpr int cols = n;  ///< colonnes
};
/** @brief Accumulateur : m×n. */
template <int m, int n, int k>
struct tile<w::accumulator, m, n, k> {
    static constexpr int rows = m;  ///< lignes
    static constexpr int cols = n;  ///< colonnes
};

/** @brief Le fragment existe-t-il sur sm_80 parmi ceux que simt émule ? */
template <typename Use, int m, int n, int k, typename T, typename Layout>
constexpr bool supported() {
    constexpr bool sixteen_bit_shape =
        (m == 16 && n == 16 && k == 16) || (m == 32 && n == 8 && k == 16) || (m == 8 && n == 32 && k == 16);
    constexpr bool tf32_shape = m == 16 && n == 16 && k == 8;
    if constexpr (std::is_same_v<Use, w::accumulator>) {
        return std::is_void_v<Layout> &&
               ((sixteen_bit_shape && (std::is_same_v<T, float> || std::is_same_v<T, __half>)) ||
                (tf32_shape && std::is_same_v<T, float>));
    } else if constexpr (std::is_same_v<Use, w::matrix_a> || std::is_same_v<Use, w::matrix_b>) {
        return (std::is_same_v<Layout, w::row_major> || std::is_same_v<Layout, w::col_major>) &&
               ((sixteen_bit_shape && (std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>)) ||
                (tf32_shape && std::is_same_v<T, w::precision::tf32>));
    } else {
        return false;
    }
}

/** @brief num_elements d'un fragment : celui de crt/mma.h (voir l'en-tête du fichier). */
template <typename Use, int m, int n, int k, typename T, typename Layout>
constexpr int element_count() {
    static_assert(supported<Use, m, n, k, T, Layout>(),
                  "simt : fragment WMMA non émulé. simt émule les formes m16n16k16, m32n8k16 et "
                  "m8n32k16 (entrées __half ou __nv_bfloat16, accumulateur float, ou __half avec "
                  "des entrées __half) et m16n16k8 (entrées precision::tf32, accumulateur float) ; "
                  "matrix_a et matrix_b prennent row_major ou col_major, l'accumulateur aucune "
                  "disposition");
    if constexpr (std::is_same_v<Use, w::accumulator>) return m * n / 32;
    else if constexpr (std::is_same_v<T, __half>) return 16;
    else return tile<Use, m, n, k>::rows * tile<Use, m, n, k>::cols / 32;
}

}  // namespace simt::wmma

namespace nvcuda::wmma {

template <typename T, int size>
struct alignas(8) __frag_base {
    /** @brief Nombre d'éléments du fragment dans chaque lane. */
    enum { num_elements = size };
    /** @brief Nombre d'éléments rangés (aucun type émulé n'est compacté). */
    enum { num_storage_elements = size };
    /** @brief Type des éléments. */
    typedef T element_type;
    /** @brief Type des éléments rangés dans x[] (float pour tf32). */
    typedef typename ::simt::wmma::storage<T>::type storage_element_type;
    /** @brief Les éléments que tient la lane. */
    storage_element_type x[num_storage_elements];
};

/**
 * @brief Fragment : la part d'une tuile que tient chaque lane du warp. @p Use vaut matrix_a,
 *        matrix_b ou accumulator ; @p Layout, row_major ou col_major pour A et B, rien pour
 *        l'accumulateur.
 */
template <typename Use, int m, int n, int k, typename T, typename Layout = void>
class fragment : public __frag_base<T, ::simt::wmma::element_count<Use, m, n, k, T, Layout>()> {};

}  // namespace nvcuda::wmma

namespace simt::wmma {

/** @brief Ce que simt sait d'un type de fragment. */
template <typename Frag>
struct traits;
/** @brief Rôle, dimensions, types et nombre d'éléments d'un fragment. */
template <typename Use, int m, int n, int k, typename T, typename Layout>
struct traits<w::fragment<Use, m, n, k, T, Layout>> {
    using element = T;                                   ///< type de l'élément
    using stored = typename storage<T>::type;            ///< type rangé dans x[]
    static constexpr int rows = tile<Use, m, n, k>::rows;  ///< lignes de la tuile
    static constexpr int cols = tile<Use, m, n, k>::cols;  ///< colonnes de la tuile
    static constexpr int count = element_count<Use, m, n, k, T, Layout>();  ///< éléments par lane
    /** @brief true si la tuile est rangée colonne par colonne (A ou B col_major). */
    static constexpr bool column_major = std::is_same_v<Layout, w::col_major>;
};

/** @brief Position dans la tuile de l'élément x[@p i] de la lane @p lane (voir l'en-tête). */
template <typename Frag>
constexpr int position(unsigned lane, int i) {
    return static_cast<int>((lane * traits<Frag>::count + static_cast<unsigned>(i)) %
                            static_cast<unsigned>(traits<Frag>::rows * traits<Frag>::cols));
}

/** @brief Valeur qu'un Tensor Core lit d'un élément d'entrée. */
inline float input_value(__half v) { return __half2float(v); }
/** @brief Valeur qu'un Tensor Core lit d'un élément d'entrée bf16. */
inline float input_value(__nv_bfloat16 v) { return __bfloat162float(v); }
/** @brief Un accumulateur float est lu tel quel (une entrée tf32 passe par input_value_tf32). */
inline float input_value(float v) { return v; }

/** @brief Un float lu comme tf32 : les 13 bits bas de la mantisse sont ignorés. */
inline float input_value_tf32(float v) {
    if (std::isnan(v)) return v;  // effacer les bits bas pourrait en faire un infini
    return std::bit_cast<float>(std::bit_cast<std::uint32_t>(v) & 0xffffe000u);
}

/** @brief Écrit une somme float dans un élément d'accumulateur. */
inline void output_value(float& destination, float v) { destination = v; }
/** @brief Écrit une somme float dans un accumulateur __half (arrondi au plus près). */
inline void output_value(__half& destination, float v) { destination = __float2half_rn(v); }

/** @brief Noms des fonctions collectives, pour les diagnostics. */
inline constexpr const char* kLoad = "wmma::load_matrix_sync";
inline constexpr const char* kStore = "wmma::store_matrix_sync";  ///< idem
inline constexpr const char* kMma = "wmma::mma_sync";             ///< idem

/** @brief Une lane a déposé des arguments de warp différents de ceux de la lane 0. */
inline constexpr const char* kNotUniform =
    "l'adresse, ldm ou la disposition diffèrent de ceux de la lane 0, alors que le guide de "
    "programmation CUDA (« Warp Matrix Functions ») les veut identiques pour tout le warp";

/** @brief Opérandes d'une lane pour load_matrix_sync. */
template <typename Frag>
struct LoadOperands {
    Frag* fragment;                                  ///< fragment à remplir
    const typename traits<Frag>::stored* memory;     ///< premier élément de la tuile
    unsigned ldm;                                 ///< pas entre lignes (ou colonnes), en éléments
    bool column_major;                            ///< disposition en mémoire
};

/** @brief Opérandes d'une lane pour store_matrix_sync. */
template <typename Frag>
struct StoreOperands {
    const Frag* fragment;                      ///< fragment à ranger
    typename traits<Frag>::stored* memory;     ///< premier élément de la tuile
    unsigned ldm;                           ///< pas entre lignes (ou colonnes), en éléments
    bool column_major;                      ///< disposition en mémoire
};

/** @brief Décalage de l'élément (@p row, @p col) d'une tuile en mémoire. */
inline std::size_t offset(int row, int col, unsigned ldm, bool column_major) {
    return column_major ? std::size_t(col) * ldm + std::size_t(row) : std::size_t(row) * ldm + std::size_t(col);
}

/**
 * @brief Mêmes adresse, ldm et disposition dans toutes les lanes ? Sinon, le problème, et la
 *        première lane qui diffère dans @p faulty.
 */
template <typename Operands>
const char* check_uniform(void* const* operands, unsigned& faulty) {
    const auto& first = *static_cast<const Operands*>(operands[0]);
    for (unsigned lane = 1; lane < 32; ++lane) {
        const auto& own = *static_cast<const Operands*>(operands[lane]);
        if (own.memory != first.memory || own.ldm != first.ldm || own.column_major != first.column_major) {
            faulty = lane;
            return kNotUniform;
        }
    }
    return nullptr;
}

/** @brief load_matrix_sync pour tout le warp : chaque lane reçoit ses éléments. */
template <typename Frag>
std::string load_warp(void* const* operands, unsigned& faulty) {
    using Operands = LoadOperands<Frag>;
    if (const char* problem = check_uniform<Operands>(operands, faulty)) return problem;
    for (unsigned lane = 0; lane < 32; ++lane) {
        const Operands& own = *static_cast<const Operands*>(operands[lane]);
        for (int i = 0; i < traits<Frag>::count; ++i) {
            const int p = position<Frag>(lane, i);
            own.fragment->x[i] =
                own.memory[offset(p / traits<Frag>::cols, p % traits<Frag>::cols, own.ldm, own.column_major)];
        }
    }
    return {};
}

/** @brief store_matrix_sync pour tout le warp : chaque élément de la tuile est écrit une fois. */
template <typename Frag>
std::string store_warp(void* const* operands, unsigned& faulty) {
    using Operands = StoreOperands<Frag>;
    if (const char* problem = check_uniform<Operands>(operands, faulty)) return problem;
    for (unsigned lane = 0; lane < 32; ++lane) {
        const Operands& own = *static_cast<const Operands*>(operands[lane]);
        for (int i = 0; i < traits<Frag>::count; ++i) {
            const int p = position<Frag>(lane, i);
            own.memory[offset(p / traits<Frag>::cols, p % traits<Frag>::cols, own.ldm, own.column_major)] =
                own.fragment->x[i];
        }
    }
    return {};
}

/** @brief Opérandes d'une lane pour mma_sync : D = A·B + C. */
template <typename FragD, typename FragA, typename FragB, typename FragC>
struct MmaOperands {
    FragD* d;        ///< résultat
    const FragA* a;  ///< premier facteur
    const FragB* b;  ///< second facteur
    const FragC* c;  ///< accumulateur d'entrée
};

/** @brief Les éléments répétés d'une entrée __half diffèrent d'une copie à l'autre. */
inline constexpr const char* kCopiesDiffer =
    "les copies d'un même élément de la tuile diffèrent d'une case du fragment à l'autre (une "
    "entrée __half a 16 éléments par lane, si bien que chaque élément y est répété) ; le code "
    "qui modifie x[i] selon i ou la lane suppose une correspondance élément → thread que CUDA "
    "ne spécifie pas";

/**
 * @brief Rassemble la tuile de @p Frag que tiennent les 32 lanes (le fragment de la lane l est
 *        rendu par @p fragment_of(l)) et la convertit en float dans @p values. Rend le problème
 *        (copies d'un élément répété qui diffèrent, lane dans @p faulty), ou nullptr.
 */
template <typename Frag, typename FragmentOf>
const char* gather(FragmentOf fragment_of, float* values, unsigned& faulty) {
    using Tr = traits<Frag>;
    constexpr int size = Tr::rows * Tr::cols;
    typename Tr::stored raw[size];
    for (unsigned lane = 0; lane < 32; ++lane) {
        const Frag& f = fragment_of(lane);
        for (int i = 0; i < Tr::count; ++i) {
            const unsigned slot = lane * Tr::count + static_cast<unsigned>(i);
            const int p = position<Frag>(lane, i);
            if (slot < unsigned(size)) raw[p] = f.x[i];
            else if (std::memcmp(&raw[p], &f.x[i], sizeof raw[p]) != 0) {
                faulty = lane;
                return kCopiesDiffer;
            }
        }
    }
    for (int p = 0; p < size; ++p) {
        if constexpr (std::is_same_v<typename Tr::element, w::precision::tf32>) values[p] = input_value_tf32(raw[p]);
        else values[p] = input_value(raw[p]);
    }
    return nullptr;
}

/** @brief mma_sync pour tout le warp : rassemble A, B et C, calcule D, le répartit. */
template <typename FragD, typename FragA, typename FragB, typename FragC>
std::string mma_warp(void* const* operands, unsigned& faulty) {
    using Operands = MmaOperands<FragD, FragA, FragB, FragC>;
    constexpr int kRows = traits<FragC>::rows, kCols = traits<FragC>::cols, kDepth = traits<FragA>::cols;
    const auto lane_operands = [operands](unsigned lane) -> const Operands& {
        return *static_cast<const Operands*>(operands[lane]);
    };
    float a[kRows * kDepth], b[kDepth * kCols], c[kRows * kCols];
    if (const char* problem = gather<FragA>([&](unsigned l) -> const FragA& { return *lane_operands(l).a; }, a, faulty))
        return problem;
    if (const char* problem = gather<FragB>([&](unsigned l) -> const FragB& { return *lane_operands(l).b; }, b, faulty))
        return problem;
    gather<FragC>([&](unsigned l) -> const FragC& { return *lane_operands(l).c; }, c, faulty);  // aucune copie

    // Produits exacts en double, somme exacte arrondie une fois : voir « Arrondis » en tête du
    // fichier et simt/tensor_core.hpp.
    float d[kRows * kCols];
    for (int row = 0; row < kRows; ++row)
        for (int col = 0; col < kCols; ++col) {
            double products[kDepth];
            for (int kk = 0; kk < kDepth; ++kk)
                products[kk] = static_cast<double>(a[row * kDepth + kk]) * static_cast<double>(b[kk * kCols + col]);
            d[row * kCols + col] = ::simt::tensor_core_accumulate(c[row * kCols + col], products, kDepth);
        }
    for (unsigned lane = 0; lane < 32; ++lane)
        for (int i = 0; i < traits<FragD>::count; ++i)
            output_value(lane_operands(lane).d->x[i], d[position<FragD>(lane, i)]);
    return {};
}

/** @brief Combinaisons d'entrées et d'accumulateurs de mma_sync (crt/mma.h, sm_80). */
template <typename Input, typename CType, typename DType>
constexpr bool valid_mma() {
    constexpr bool half_or_float_c = std::is_same_v<CType, __half> || std::is_same_v<CType, float>;
    constexpr bool half_or_float_d = std::is_same_v<DType, __half> || std::is_same_v<DType, float>;
    if constexpr (std::is_same_v<Input, __half>) return half_or_float_c && half_or_float_d;
    else return std::is_same_v<CType, float> && std::is_same_v<DType, float>;
}

}  // namespace simt::wmma

namespace nvcuda::wmma {

/** @brief Donne la valeur @p v à tous les éléments du fragment @p f (sans synchronisation). */
template <typename T, int size>
inline void fill_fragment(__frag_base<T, size>& f, const typename __frag_base<T, size>::storage_element_type& v) {
    for (auto& element : f.x) element = v;
}

/**
 * @brief Charge une tuile A ou B depuis @p mptr (disposition du fragment, pas @p ldm en
 *        éléments). Collective : tout le warp, avec les mêmes arguments.
 */
template <typename Use, int m, int n, int k, typename T, typename Layout>
    requires(!std::is_void_v<Layout>)
inline void load_matrix_sync(fragment<Use, m, n, k, T, Layout>& a,
                             const typename ::simt::wmma::storage<T>::type* mptr, unsigned ldm,
                             const std::source_location& where = std::source_location::current()) {
    using Frag = fragment<Use, m, n, k, T, Layout>;
    namespace d = ::simt::detail;
    d::check_matrix_memory(::simt::wmma::kLoad, mptr, ldm, sizeof *mptr, where);
    ::simt::wmma::LoadOperands<Frag> operands{&a, mptr, ldm, ::simt::wmma::traits<Frag>::column_major};
    d::warp_exchange(::simt::wmma::kLoad, &::simt::wmma::load_warp<Frag>, &operands, where);
}

/** @brief Charge un accumulateur depuis @p mptr, disposé selon @p layout. Collective. */
template <int m, int n, int k, typename T>
inline void load_matrix_sync(fragment<accumulator, m, n, k, T>& a, const std::type_identity_t<T>* mptr,
                             unsigned ldm, layout_t layout,
                             const std::source_location& where = std::source_location::current()) {
    using Frag = fragment<accumulator, m, n, k, T>;
    namespace d = ::simt::detail;
    d::check_matrix_memory(::simt::wmma::kLoad, mptr, ldm, sizeof *mptr, where);
    ::simt::wmma::LoadOperands<Frag> operands{&a, mptr, ldm, layout == mem_col_major};
    d::warp_exchange(::simt::wmma::kLoad, &::simt::wmma::load_warp<Frag>, &operands, where);
}

/** @brief Range un accumulateur à @p mptr, disposé selon @p layout. Collective. */
template <int m, int n, int k, typename T>
inline void store_matrix_sync(std::type_identity_t<T>* mptr, const fragment<accumulator, m, n, k, T>& a,
                              unsigned ldm, layout_t layout,
                              const std::source_location& where = std::source_location::current()) {
    using Frag = fragment<accumulator, m, n, k, T>;
    namespace d = ::simt::detail;
    d::check_matrix_memory(::simt::wmma::kStore, mptr, ldm, sizeof *mptr, where);
    ::simt::wmma::StoreOperands<Frag> operands{&a, mptr, ldm, layout == mem_col_major};
    d::warp_exchange(::simt::wmma::kStore, &::simt::wmma::store_warp<Frag>, &operands, where);
}

/** @brief D = A·B + C pour tout le warp (voir « Arrondis » en tête du fichier). Collective. */
template <int m, int n, int k, typename Input, typename LayoutA, typename LayoutB, typename CType, typename DType>
    requires(::simt::wmma::valid_mma<Input, CType, DType>())
inline void mma_sync(fragment<accumulator, m, n, k, DType>& d, const fragment<matrix_a, m, n, k, Input, LayoutA>& a,
                     const fragment<matrix_b, m, n, k, Input, LayoutB>& b,
                     const fragment<accumulator, m, n, k, CType>& c,
                     const std::source_location& where = std::source_location::current()) {
    using FragD = fragment<accumulator, m, n, k, DType>;
    using FragA = fragment<matrix_a, m, n, k, Input, LayoutA>;
    using FragB = fragment<matrix_b, m, n, k, Input, LayoutB>;
    using FragC = fragment<accumulator, m, n, k, CType>;
    ::simt::wmma::MmaOperands<FragD, FragA, FragB, FragC> operands{&d, &a, &b, &c};
    ::simt::detail::warp_exchange(::simt::wmma::kMma, &::simt::wmma::mma_warp<FragD, FragA, FragB, FragC>,
                                &operands, where);
}

}  // namespace nvcuda::wmma
