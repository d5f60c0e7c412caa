/**
 * @file
 * @brief Harnais de vérification des puzzles : références CPU, lancement de chaque puzzle avec un jeu
 *        de noyaux (solutions ou squelettes), comparaison au bit près.
 *
 * Les sorties sont remplies d'une sentinelle et suivies d'une zone de garde : un noyau qui
 * n'écrit rien (un squelette) ou qui écrit hors des limites est pris en défaut.
 */
#pragma once

#include "puzzles-gpu.cuh"
#include "squelettes.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"

#include <array>
#include <cstddef>
#include <sstream>
#include <span>
#include <string>
#include <vector>

namespace noyaux::puzzles {

/** @brief Les quatorze noyaux d'un jeu : mêmes types que les solutions. */
struct KernelSet {
    decltype(&solution::map_add_ten) map_add_ten;            ///< puzzle 1
    decltype(&solution::zip_add) zip_add;                    ///< puzzle 2
    decltype(&solution::guard_add_ten) guard_add_ten;        ///< puzzle 3
    decltype(&solution::map_2d_add_ten) map_2d_add_ten;      ///< puzzle 4
    decltype(&solution::broadcast_add) broadcast_add;        ///< puzzle 5
    decltype(&solution::blocks_add_ten) blocks_add_ten;      ///< puzzle 6
    decltype(&solution::shared_add_ten) shared_add_ten;      ///< puzzle 7
    decltype(&solution::pooling_sum3) pooling_sum3;          ///< puzzle 8
    decltype(&solution::dot_product) dot_product;            ///< puzzle 9
    decltype(&solution::convolution_1d) convolution_1d;      ///< puzzle 10
    decltype(&solution::block_prefix_sum) block_prefix_sum;  ///< puzzle 11
    decltype(&solution::axis_sum) axis_sum;                  ///< puzzle 12
    decltype(&solution::matrix_multiply) matrix_multiply;    ///< puzzle 13
    decltype(&solution::warp_sum) warp_sum;                  ///< puzzle 14
};

/** @brief Le jeu des solutions. */
inline KernelSet solution_kernels() {
    using namespace solution;
    return {map_add_ten,    zip_add,      guard_add_ten,    map_2d_add_ten, broadcast_add,
            blocks_add_ten, shared_add_ten, pooling_sum3,   dot_product,    convolution_1d,
            block_prefix_sum, axis_sum,   matrix_multiply,  warp_sum};
}

/** @brief Le jeu des squelettes, tels que le lecteur les a laissés. */
inline KernelSet skeleton_kernels() {
    using namespace squelette;
    return {map_add_ten,    zip_add,      guard_add_ten,    map_2d_add_ten, broadcast_add,
            blocks_add_ten, shared_add_ten, pooling_sum3,   dot_product,    convolution_1d,
            block_prefix_sum, axis_sum,   matrix_multiply,  warp_sum};
}

/** @brief Verdict d'un puzzle : résolu ou non, et la première différence trouvée. */
struct Verdict {
    bool solved = true;  ///< toutes les sorties égales à la référence, garde intacte
    std::string detail;  ///< vide si résolu ; sinon la case fautive, sa valeur et l'attendue
};

/** @brief Valeur des cases de sortie non écrites ; aucune référence ne la produit. */
constexpr float kSentinel = -7777.0f;
/** @brief Cases de garde placées après chaque sortie. */
constexpr std::size_t kGuardCount = 16;

/** @brief Entrée déterministe à valeurs entières dans [−4, 4], variée selon @p seed. */
inline std::vector<float> make_input(std::size_t n, int seed) {
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i)
        values[i] = static_cast<float>(static_cast<int>((i * 7 + std::size_t(seed) * 3) % 9) - 4);
    return values;
}

/** @brief Sortie sur le GPU : @p n cases puis la garde, toutes à la sentinelle. */
inline DeviceBuffer<float> guarded_output(std::size_t n) {
    return DeviceBuffer<float>{std::span<const float>(std::vector<float>(n + kGuardCount, kSentinel))};
}

/** @brief Copie @p host sur le GPU. */
inline DeviceBuffer<float> to_device(const std::vector<float>& host) {
    return DeviceBuffer<float>{std::span<const float>(host)};
}

/**
 * @brief Compare la sortie @p out (garde comprise) à @p expected ; @p label nomme le cas.
 * @return le premier écart, ou un verdict « résolu ».
 */
inline Verdict compare(const DeviceBuffer<float>& out, const std::vector<float>& expected,
                       const std::string& label) {
    const std::vector<float> got = out.download();
    for (std::size_t i = 0; i < got.size(); ++i) {
        const bool guard = i >= expected.size();
        const float want = guard ? kSentinel : expected[i];
        if (got[i] != want) {
            std::ostringstream detail;  // %g : les valeurs sont entières, pas de « .000000 »
            detail << label << " : out[" << i << "] = " << got[i] << ", attendu " << want;
            if (guard) detail << " (écriture hors limites)";
            if (got[i] == kSentinel) detail << " (case jamais écrite)";
            return {false, detail.str()};
        }
    }
    return {};
}

/** @brief Références CPU, écrites le plus simplement possible. */
namespace reference {

/** @brief out[i] = a[i] + 10. */
inline std::vector<float> add_ten(const std::vector<float>& a) {
    std::vector<float> out(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] + 10.0f;
    return out;
}

/** @brief out[i] = a[i] + b[i]. */
inline std::vector<float> zip_add(const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> out(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] + b[i];
    return out;
}

/** @brief out[l·cols + c] = a[l] + b[c]. */
inline std::vector<float> broadcast_add(const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> out;
    for (float x : a)
        for (float y : b) out.push_back(x + y);
    return out;
}

/** @brief out[i] = a[i−2] + a[i−1] + a[i], termes d'indice négatif omis. */
inline std::vector<float> pooling_sum3(const std::vector<float>& a) {
    std::vector<float> out(a.size(), 0.0f);
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = (i >= 2 ? i - 2 : 0); j <= i; ++j) out[i] += a[j];
    return out;
}

/** @brief Σ a[i]·b[i]. */
inline float dot(const std::vector<float>& a, const std::vector<float>& b) {
    float sum = 0.0f;
    for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
    return sum;
}

/** @brief out[i] = Σ_{j<w.size()} a[i+j]·w[j], a valant 0 au-delà de sa taille. */
inline std::vector<float> convolution_1d(const std::vector<float>& a, const std::vector<float>& w) {
    std::vector<float> out(a.size(), 0.0f);
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = 0; j < w.size() && i + j < a.size(); ++j) out[i] += a[i + j] * w[j];
    return out;
}

/** @brief Somme préfixe inclusive, recommencée à chaque segment de @p segment éléments. */
inline std::vector<float> segmented_prefix_sum(const std::vector<float>& a, std::size_t segment) {
    std::vector<float> out(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        out[i] = a[i] + (i % segment == 0 ? 0.0f : out[i - 1]);
    return out;
}

/** @brief out[l] = Σ_c a[l·cols + c]. */
inline std::vector<float> row_sums(const std::vector<float>& a, std::size_t rows, std::size_t cols) {
    std::vector<float> out(rows, 0.0f);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) out[r] += a[r * cols + c];
    return out;
}

/** @brief c = a·b, matrices carrées n × n rangées ligne par ligne. */
inline std::vector<float> matmul(const std::vector<float>& a, const std::vector<float>& b, std::size_t n) {
    std::vector<float> c(n * n, 0.0f);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < n; ++k)
            for (std::size_t j = 0; j < n; ++j) c[i * n + j] += a[i * n + k] * b[k * n + j];
    return c;
}

}  // namespace reference

/** @brief Arrondi supérieur de @p a / @p b. */
constexpr unsigned ceil_div(int a, int b) { return static_cast<unsigned>((a + b - 1) / b); }

/** @brief Enchaîne les verdicts : garde le premier échec. */
inline Verdict& operator&=(Verdict& first, const Verdict& next) {
    if (first.solved && !next.solved) first = next;
    return first;
}

/** @brief Puzzles 1, 3 et 6 : a + 10 par @p kernel, grille @p blocks × @p threads. */
inline Verdict check_add_ten(decltype(&solution::map_add_ten) kernel, int n, unsigned blocks,
                             unsigned threads, const std::string& label) {
    const std::vector<float> a = make_input(std::size_t(n), 1);
    auto a_device = to_device(a);
    auto out = guarded_output(std::size_t(n));
    kernel<<<blocks, threads>>>(out.data(), a_device.data(), n);
    NOYAUX_CHECK_LAUNCH();
    return compare(out, reference::add_ten(a), label);
}

/** @brief Puzzle 1 : un thread par élément. */
inline Verdict check_map(const KernelSet& k) {
    return check_add_ten(k.map_add_ten, 32, 1, 32, "n = 32, 32 threads");
}

/** @brief Puzzle 2 : deux entrées. */
inline Verdict check_zip(const KernelSet& k) {
    constexpr int n = 32;
    const std::vector<float> a = make_input(n, 1), b = make_input(n, 2);
    auto a_device = to_device(a);
    auto b_device = to_device(b);
    auto out = guarded_output(n);
    auto kernel = k.zip_add;
    kernel<<<1, n>>>(out.data(), a_device.data(), b_device.data(), n);
    NOYAUX_CHECK_LAUNCH();
    return compare(out, reference::zip_add(a, b), "n = 32");
}

/** @brief Puzzle 3 : plus de threads que d'éléments. */
inline Verdict check_guards(const KernelSet& k) {
    Verdict verdict = check_add_ten(k.guard_add_ten, 20, 1, 32, "n = 20, 32 threads");
    verdict &= check_add_ten(k.guard_add_ten, 1, 1, 64, "n = 1, 64 threads");
    return verdict;
}

/** @brief Puzzle 4 : matrice size × size, bloc (size + 3) × (size + 3). */
inline Verdict check_map_2d(const KernelSet& k) {
    constexpr int size = 5;
    const std::vector<float> a = make_input(size * size, 3);
    auto a_device = to_device(a);
    auto out = guarded_output(size * size);
    auto kernel = k.map_2d_add_ten;
    kernel<<<1, dim3(size + 3, size + 3)>>>(out.data(), a_device.data(), size);
    NOYAUX_CHECK_LAUNCH();
    return compare(out, reference::add_ten(a), "5 × 5, bloc 8 × 8");
}

/** @brief Puzzle 5 : colonne de 3 + ligne de 6, bloc 8 × 4. */
inline Verdict check_broadcast(const KernelSet& k) {
    constexpr int rows = 3, cols = 6;
    const std::vector<float> a = make_input(rows, 4), b = make_input(cols, 5);
    auto a_device = to_device(a);
    auto b_device = to_device(b);
    auto out = guarded_output(rows * cols);
    auto kernel = k.broadcast_add;
    kernel<<<1, dim3(8, 4)>>>(out.data(), a_device.data(), b_device.data(), rows, cols);
    NOYAUX_CHECK_LAUNCH();
    return compare(out, reference::broadcast_add(a, b), "3 lignes × 6 colonnes, bloc 8 × 4");
}

/** @brief Puzzle 6 : plusieurs blocs, dernier bloc incomplet. */
inline Verdict check_blocks(const KernelSet& k) {
    return check_add_ten(k.blocks_add_ten, 29, ceil_div(29, kBlockThreads), kBlockThreads,
                         "n = 29, 4 blocs de 8 threads");
}

/** @brief Puzzle 7 : comme le puzzle 6, à travers la mémoire partagée. */
inline Verdict check_shared(const KernelSet& k) {
    return check_add_ten(k.shared_add_ten, 29, ceil_div(29, kBlockThreads), kBlockThreads,
                         "n = 29, 4 blocs de 8 threads");
}

/** @brief Puzzle 8 : fenêtre de trois éléments, un bloc. */
inline Verdict check_pooling(const KernelSet& k) {
    Verdict verdict;
    for (int n : {kPoolThreads, 11}) {
        const std::vector<float> a = make_input(std::size_t(n), 6);
        auto a_device = to_device(a);
        auto out = guarded_output(std::size_t(n));
        auto kernel = k.pooling_sum3;
        kernel<<<1, kPoolThreads>>>(out.data(), a_device.data(), n);
        NOYAUX_CHECK_LAUNCH();
        verdict &= compare(out, reference::pooling_sum3(a), "n = " + std::to_string(n));
    }
    return verdict;
}

/** @brief Puzzle 9 : produit scalaire, bloc plein puis partiel. */
inline Verdict check_dot(const KernelSet& k) {
    Verdict verdict;
    for (int n : {kDotThreads, 45}) {
        const std::vector<float> a = make_input(std::size_t(n), 7), b = make_input(std::size_t(n), 8);
        auto a_device = to_device(a);
        auto b_device = to_device(b);
        auto out = guarded_output(1);
        auto kernel = k.dot_product;
        kernel<<<1, kDotThreads>>>(out.data(), a_device.data(), b_device.data(), n);
        NOYAUX_CHECK_LAUNCH();
        verdict &= compare(out, {reference::dot(a, b)}, "n = " + std::to_string(n));
    }
    return verdict;
}

/** @brief Puzzle 10 : convolution, filtres de largeur 1, 3 et kConvMaxWidth. */
inline Verdict check_convolution(const KernelSet& k) {
    Verdict verdict;
    constexpr int n = 100;
    for (int width : {3, 1, kConvMaxWidth}) {
        const std::vector<float> a = make_input(n, 9), w = make_input(std::size_t(width), 10);
        auto a_device = to_device(a);
        auto w_device = to_device(w);
        auto out = guarded_output(n);
        auto kernel = k.convolution_1d;
        kernel<<<ceil_div(n, kConvThreads), kConvThreads>>>(out.data(), a_device.data(),
                                                            w_device.data(), n, width);
        NOYAUX_CHECK_LAUNCH();
        verdict &= compare(out, reference::convolution_1d(a, w),
                           "n = 100, largeur " + std::to_string(width));
    }
    return verdict;
}

/** @brief Puzzle 11 : somme préfixe par segments, dernier segment incomplet. */
inline Verdict check_prefix_sum(const KernelSet& k) {
    constexpr int n = 75;
    const std::vector<float> a = make_input(n, 11);
    auto a_device = to_device(a);
    auto out = guarded_output(n);
    auto kernel = k.block_prefix_sum;
    kernel<<<ceil_div(n, kScanThreads), kScanThreads>>>(out.data(), a_device.data(), n);
    NOYAUX_CHECK_LAUNCH();
    return compare(out, reference::segmented_prefix_sum(a, kScanThreads),
                   "n = 75, segments de 32");
}

/** @brief Puzzle 12 : sommes par ligne, lignes plus courtes puis plus longues que le bloc. */
inline Verdict check_axis_sum(const KernelSet& k) {
    Verdict verdict;
    constexpr int rows = 5;
    for (int cols : {7, 100}) {
        const std::vector<float> a = make_input(std::size_t(rows * cols), 12);
        auto a_device = to_device(a);
        auto out = guarded_output(rows);
        auto kernel = k.axis_sum;
        kernel<<<rows, kAxisThreads>>>(out.data(), a_device.data(), rows, cols);
        NOYAUX_CHECK_LAUNCH();
        verdict &= compare(out, reference::row_sums(a, rows, std::size_t(cols)),
                           "5 lignes × " + std::to_string(cols) + " colonnes");
    }
    return verdict;
}

/** @brief Puzzle 13 : produit de matrices, taille multiple de la tuile puis quelconque. */
inline Verdict check_matmul(const KernelSet& k) {
    Verdict verdict;
    for (int n : {2 * kTile, 37}) {
        const auto count = std::size_t(n) * std::size_t(n);
        const std::vector<float> a = make_input(count, 13), b = make_input(count, 14);
        auto a_device = to_device(a);
        auto b_device = to_device(b);
        auto out = guarded_output(count);
        auto kernel = k.matrix_multiply;
        const unsigned tiles = ceil_div(n, kTile);
        kernel<<<dim3(tiles, tiles), dim3(kTile, kTile)>>>(out.data(), a_device.data(),
                                                            b_device.data(), n);
        NOYAUX_CHECK_LAUNCH();
        verdict &= compare(out, reference::matmul(a, b, std::size_t(n)),
                           std::to_string(n) + " × " + std::to_string(n));
    }
    return verdict;
}

/** @brief Puzzle 14 : somme par warps, grille plus petite que les données. */
inline Verdict check_warp_sum(const KernelSet& k) {
    constexpr int n = 5000;
    const std::vector<float> a = make_input(n, 15);
    auto a_device = to_device(a);
    std::vector<float> zero_then_guard(1 + kGuardCount, kSentinel);
    zero_then_guard[0] = 0.0f;  // l'atomique ajoute à out[0]
    auto out = to_device(zero_then_guard);
    auto kernel = k.warp_sum;
    kernel<<<3, 64>>>(out.data(), a_device.data(), n);
    NOYAUX_CHECK_LAUNCH();
    float sum = 0.0f;
    for (float x : a) sum += x;
    Verdict verdict = compare(out, {sum}, "n = 5000, 3 blocs de 64 threads");
    if (!verdict.solved && out.download()[0] == 0.0f) verdict.detail += " (rien n'a été ajouté)";
    return verdict;
}

/** @brief Un puzzle : numéro, identifiant, titre français et vérification. */
struct Puzzle {
    int number;                          ///< de 1 à 14, l'ordre de lecture
    const char* slug;                    ///< nom de sa section dans les sources
    const char* title;                   ///< titre affiché
    Verdict (*check)(const KernelSet&);  ///< lance le noyau du jeu et compare à la référence
};

/** @brief Nombre de puzzles. */
constexpr int kPuzzleCount = 14;

/** @brief Les puzzles, dans l'ordre. */
inline const std::array<Puzzle, kPuzzleCount>& all_puzzles() {
    static const std::array<Puzzle, kPuzzleCount> puzzles{{
        {1, "puzzle-01-map", "un thread par élément", check_map},
        {2, "puzzle-02-zip", "deux entrées", check_zip},
        {3, "puzzle-03-gardes", "plus de threads que d'éléments", check_guards},
        {4, "puzzle-04-map-2d", "bloc à deux dimensions", check_map_2d},
        {5, "puzzle-05-diffusion", "diffusion d'une ligne et d'une colonne", check_broadcast},
        {6, "puzzle-06-blocs", "plusieurs blocs", check_blocks},
        {7, "puzzle-07-memoire-partagee", "mémoire partagée", check_shared},
        {8, "puzzle-08-fenetre", "somme sur une fenêtre glissante", check_pooling},
        {9, "puzzle-09-produit-scalaire", "produit scalaire", check_dot},
        {10, "puzzle-10-convolution-1d", "convolution 1D", check_convolution},
        {11, "puzzle-11-somme-prefixe", "somme préfixe", check_prefix_sum},
        {12, "puzzle-12-somme-par-ligne", "somme par ligne", check_axis_sum},
        {13, "puzzle-13-produit-matrices", "produit de matrices", check_matmul},
        {14, "puzzle-14-reduction-warp", "réduction par warp", check_warp_sum},
    }};
    return puzzles;
}

}  // namespace noyaux::puzzles
