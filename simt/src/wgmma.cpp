/**
 * @file
 * @brief wgmma de Hopper : fence, mma_async (A et B par descripteurs de mémoire partagée, ou
 *        A en registres), commit_group, wait_group. Un mma_async lancé est mis en file ; il est
 *        calculé au wait_group qui l'attend (lecture de la mémoire partagée à ce moment,
 *        écriture des accumulateurs), ce que permet sa sémantique asynchrone. D'ici là, ses
 *        registres d'accumulateurs contiennent un NaN reconnaissable : une lecture prématurée
 *        donne un résultat faux visible, une écriture est un diagnostic.
 *
 * Sources des dispositions (PTX ISA, section « Asynchronous Warpgroup Level Matrix Multiply-
 * Accumulate Instructions ») : « Register Fragments » (fragments de A et de D de
 * m64nNk16), « Shared Memory Matrix Layout » (atomes de swizzle, LBO et SBO selon la
 * majorité), « Matrix Descriptor Format » (champs du descripteur).
 */
#include "warpgroup.hpp"

#include "simt/shared_window.hpp"
#include "simt/tensor_core.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace simt::detail {

namespace {

const char* const kFence = "wgmma.fence.sync.aligned";
const char* const kCommit = "wgmma.commit_group.sync.aligned";
const char* const kWait = "wgmma.wait_group.sync.aligned";
const char* const kMma = "wgmma.mma_async.sync.aligned";

/** @brief Champs d'un descripteur de matrice en mémoire partagée (« Matrix Descriptor Format »). */
struct Descriptor {
    std::uint32_t start;    ///< bits 0–13 : adresse de départ >> 4 (18 bits d'adresse)
    std::uint32_t leading;  ///< bits 16–29 : LBO >> 4
    std::uint32_t stride;   ///< bits 32–45 : SBO >> 4
    unsigned base_offset;   ///< bits 49–51
    unsigned swizzle;       ///< bits 62–63 traduits en octets : 0 (aucun), 32, 64 ou 128
};

Descriptor decode(std::uint64_t bits) {
    static constexpr unsigned kSwizzleBytes[4] = {0, 128, 64, 32};  // 0 aucun, 1 128B, 2 64B, 3 32B
    return {static_cast<std::uint32_t>(bits & 0x3fff) << 4, static_cast<std::uint32_t>(bits >> 16 & 0x3fff) << 4,
            static_cast<std::uint32_t>(bits >> 32 & 0x3fff) << 4, static_cast<unsigned>(bits >> 49 & 7),
            kSwizzleBytes[bits >> 62 & 3]};
}

std::string swizzle_text(unsigned bytes) { return bytes == 0 ? "sans swizzle" : "swizzle " + std::to_string(bytes) + "B"; }

std::string instruction_text(const PendingMma& op) {
    const char* type = op.type == ptx::WgmmaInput::bf16 ? "bf16" : "f16";
    return std::string(kMma) + ".m64n" + std::to_string(op.n) + "k16.f32." + type + "." + type;
}

/**
 * @brief Adresse partagée de l'élément (@p mn, @p k) d'un multiplicande de 16 bits.
 *
 * Le PTX ISA range la matrice en « core matrices » de 8 lignes de 16 octets. K-majeur : une
 * ligne de 16 octets tient 8 éléments consécutifs en K ; sans swizzle, les 8 lignes d'une core
 * matrix se suivent (16 octets), la core matrix suivante en K est à LBO, en M/N à SBO ; avec
 * un swizzle de W octets, une ligne en M/N mesure W octets (les deux moitiés de K16 y sont
 * côte à côte, LBO inutilisé) et le groupe de 8 lignes suivant est à SBO. M/N-majeur : une
 * ligne de 16 octets tient 8 éléments consécutifs en M/N ; sans swizzle, la core matrix
 * suivante en M/N est à SBO, en K à LBO ; avec un swizzle de W octets, W/2 éléments en M/N se
 * suivent sur une ligne de W octets, les lignes de K à W octets, le groupe de W/2 éléments
 * suivant en M/N à LBO et le groupe de 8 lignes de K suivant à SBO. Le swizzle échange
 * ensuite les blocs de 16 octets : les bits 4 à 4+b de l'adresse sont combinés (ou exclusif)
 * avec les bits 7 à 7+b, b = log2(W/16).
 */
std::uint32_t element_address(const Descriptor& d, std::uint32_t start, bool mn_major, unsigned mn, unsigned k) {
    const unsigned w = d.swizzle;
    std::uint32_t address;
    if (!mn_major) {
        address = w == 0 ? start + mn / 8 * d.stride + mn % 8 * 16 + k / 8 * d.leading + k % 8 * 2
                         : start + mn / 8 * d.stride + mn % 8 * w + k * 2;
    } else if (w == 0) {
        address = start + mn / 8 * d.stride + mn % 8 * 2 + k / 8 * d.leading + k % 8 * 16;
    } else {
        const unsigned row = w / 2;  // éléments de 16 bits par ligne de swizzle
        address = start + mn / row * d.leading + mn % row * 2 + k / 8 * d.stride + k % 8 * w;
    }
    if (w != 0) address ^= (address >> 7 & (w / 16 - 1)) << 4;
    return address;
}

float bf16_to_float(std::uint16_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16); }

float f16_to_float(std::uint16_t bits) {
    const float sign = bits & 0x8000 ? -1.0f : 1.0f;
    const unsigned exponent = bits >> 10 & 0x1f;
    const unsigned mantissa = bits & 0x3ff;
    if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
    if (exponent == 31) return mantissa ? std::numeric_limits<float>::quiet_NaN() : sign * INFINITY;
    return sign * std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
}

float to_float(ptx::WgmmaInput type, std::uint16_t bits) {
    return type == ptx::WgmmaInput::bf16 ? bf16_to_float(bits) : f16_to_float(bits);
}

/**
 * @brief Adresse partagée complète du départ d'un descripteur, qui n'en garde que 18 bits
 *        (`(adresse & 0x3FFFF) >> 4`, comme le matériel, dont la mémoire partagée tient en
 *        228 Kio) : la première, parmi les adresses de mêmes 18 bits de poids faible, dont
 *        l'octet désigne la mémoire partagée du bloc (la mémoire dynamique d'abord, qui
 *        commence à l'adresse 0 ; puis les variables __shared__, de part et d'autre).
 */
bool full_shared_address(std::uint32_t low18, std::uint32_t* address) {
    for (const std::uint32_t candidate : {low18, low18 - 0x40000u, low18 + 0x40000u}) {
        void* unused = nullptr;
        if (::simt::detail::resolve_shared(candidate, 1, unused).empty()) {
            *address = candidate;
            return true;
        }
    }
    return false;
}

/** @brief Lit l'opérande décrit par @p bits (@p rows × 16 en M/N × K) en flottants, ligne M/N par ligne. */
void load_operand(Block& block, const ThreadSlot& slot, const PendingMma& op, const char* which, std::uint64_t bits,
                  bool mn_major, unsigned rows, int scale, float* out) {
    const Descriptor d = decode(bits);
    const std::string instruction = instruction_text(op) + " (" + location(op.where) + ") : le descripteur de " + which;
    if (d.swizzle != 0 && d.base_offset != 0) {
        fail(block, slot,
             instruction + " a un décalage de base (bits 49–51) de " + std::to_string(d.base_offset) +
                 " ; simt ne modélise que le décalage nul (motif de swizzle aligné), celui de CUTLASS");
        throw KernelAbort{};
    }
    std::uint32_t start = 0;
    if (!full_shared_address(d.start, &start)) {
        fail(block, slot, instruction + " désigne l'adresse " + std::to_string(d.start) +
                              " (18 bits), hors de la mémoire partagée du bloc");
        throw KernelAbort{};
    }
    for (unsigned mn = 0; mn < rows; ++mn)
        for (unsigned k = 0; k < 16; ++k) {
            const std::uint32_t address = element_address(d, start, mn_major, mn, k);
            void* element = nullptr;
            if (const std::string why = ::simt::detail::resolve_shared(address, 2, element); !why.empty()) {
                fail(block, slot,
                     instruction + " (" + swizzle_text(d.swizzle) + ", " + (mn_major ? "M/N-majeur" : "K-majeur") +
                         ", LBO " + std::to_string(d.leading) + ", SBO " + std::to_string(d.stride) +
                         ") mène l'élément (" + std::to_string(mn) + ", " + std::to_string(k) + ") hors de la "
                         "mémoire partagée : " + why);
                throw KernelAbort{};
            }
            std::uint16_t bits16;
            std::memcpy(&bits16, element, sizeof bits16);
            out[mn * 16 + k] = static_cast<float>(scale) * to_float(op.type, bits16);
        }
}

/** @brief Ligne et colonne de l'élément @p i du fragment d'accumulateur du thread @p t (0–127). */
void accumulator_position(unsigned t, unsigned i, unsigned* row, unsigned* column) {
    const unsigned warp = t / 32, lane = t % 32;
    *row = warp * 16 + lane / 4 + 8 * (i >> 1 & 1);
    *column = 8 * (i >> 2) + 2 * (lane % 4) + (i & 1);
}

/** @brief Ligne et colonne de l'élément @p i (0–7) du fragment de A en registres du thread @p t. */
void a_fragment_position(unsigned t, unsigned i, unsigned* row, unsigned* column) {
    const unsigned warp = t / 32, lane = t % 32;
    *row = warp * 16 + lane / 4 + 8 * (i >> 1 & 1);
    *column = 2 * (lane % 4) + (i & 1) + 8 * (i >> 2);
}

bool is_poison(const float* p) {
    std::uint32_t bits;
    std::memcpy(&bits, p, sizeof bits);
    return bits == kPoisonBits;
}

void poison(float* p) { std::memcpy(p, &kPoisonBits, sizeof kPoisonBits); }

[[noreturn]] void touched(Block& block, const ThreadSlot& slot, const PendingMma& op, unsigned i, float* p,
                          const char* when) {
    fail(block, slot,
         instruction_text(op) + " (" + location(op.where) + ") : le registre d'accumulateur d" + std::to_string(i) +
             " du thread " + coordinates(slot.index) + " a été modifié (valeur " + std::to_string(*p) + ") " + when +
             " ; entre wgmma.mma_async et le wgmma.wait_group qui l'attend, ses accumulateurs ne doivent être "
             "ni lus ni écrits (PTX ISA, wgmma.mma_async)");
    throw KernelAbort{};
}

/** @brief Calcule @p op et écrit ses accumulateurs (ceux qu'aucun wgmma en attente n'écrit plus). */
void retire(Block& block, WarpgroupThreads threads, WarpgroupState& state, const PendingMma& op) {
    const unsigned n = op.n;
    float a[64 * 16];  // a[m * 16 + k]
    if (op.a_in_registers) {
        for (unsigned t = 0; t < kWarpgroupSize; ++t)
            for (unsigned i = 0; i < 8; ++i) {
                const std::uint16_t bits = static_cast<std::uint16_t>(op.a[t * 4 + i / 2] >> (16 * (i % 2)));
                unsigned row, column;
                a_fragment_position(t, i, &row, &column);
                a[row * 16 + column] = static_cast<float>(op.scale_a) * to_float(op.type, bits);
            }
    } else {
        load_operand(block, *threads[0], op, "A", op.desc_a, op.trans_a != 0, 64, op.scale_a, a);
    }
    std::vector<float> b(static_cast<std::size_t>(n) * 16);  // b[n * 16 + k]
    load_operand(block, *threads[0], op, "B", op.desc_b, op.trans_b != 0, n, op.scale_b, b.data());

    const unsigned per_thread = n / 2;
    for (unsigned t = 0; t < kWarpgroupSize; ++t)
        for (unsigned i = 0; i < per_thread; ++i) {
            float* p = op.d[t * per_thread + i];
            if (!is_poison(p)) touched(block, *threads[t], op, i, p, "avant le wgmma.wait_group qui l'attend");
            unsigned row, column;
            accumulator_position(t, i, &row, &column);
            // La règle commune des Tensor Cores émulés (simt/tensor_core.hpp) : produits exacts,
            // somme exacte avec D (si scale-d), un seul arrondi en f32.
            double products[16];
            for (unsigned k = 0; k < 16; ++k)
                products[k] = static_cast<double>(a[row * 16 + k]) * static_cast<double>(b[column * 16 + k]);
            PendingAccumulator& accumulator = state.accumulators.at(p);
            const float input = op.scale_d ? accumulator.value : 0.0f;
            accumulator.value = ::simt::tensor_core_accumulate(input, products, 16);
            if (--accumulator.writers == 0) {
                *p = accumulator.value;
                state.accumulators.erase(p);
            }
        }
}

/** @brief Opérandes d'un thread pour wgmma.mma_async, déposés au rendez-vous. */
struct MmaOperands {
    std::span<float* const> d;
    const std::uint32_t* a;  // nul si A est en mémoire partagée
    std::uint64_t desc_a, desc_b;
    bool scale_d;
};

void issue(unsigned n, ptx::WgmmaInput type, std::span<float* const> d, const std::uint32_t* a,
           std::uint64_t desc_a, std::uint64_t desc_b, bool scale_d, int scale_a, int scale_b, int trans_a,
           int trans_b, const std::source_location& where) {
    const char* type_name = type == ptx::WgmmaInput::bf16 ? "bf16" : "f16";
    const std::string instruction = std::string(kMma) + ".m64n" + std::to_string(n) + "k16.f32." + type_name + "." +
                                    type_name + " (" + location(where) + ")";
    if (n < 8 || n > 256 || n % 8 != 0)
        fail_current(instruction + " : N = " + std::to_string(n) + " ; N doit être un multiple de 8 de 8 à 256");
    if (d.size() != n / 2)
        fail_current(instruction + " : " + std::to_string(d.size()) + " registres d'accumulateurs, " +
                     std::to_string(n / 2) + " attendus (N/2 en .f32)");
    if ((scale_a != 1 && scale_a != -1) || (scale_b != 1 && scale_b != -1))
        fail_current(instruction + " : imm-scale-a et imm-scale-b valent 1 ou -1");
    if ((trans_a != 0 && trans_a != 1) || (trans_b != 0 && trans_b != 1))
        fail_current(instruction + " : imm-trans-a et imm-trans-b valent 0 ou 1");

    MmaOperands operands{d, a, desc_a, desc_b, scale_d};
    warpgroup_rendezvous(kMma, &operands, [&](Block& block, WarpgroupThreads threads) {
        WarpgroupState& state = warpgroup_state(block, *threads[0]);
        if (!state.fenced) {
            fail(block, *threads[0],
                 instruction + " : aucun wgmma.fence ne précède le premier wgmma.mma_async du groupe de warps "
                               "(PTX ISA, wgmma.fence : obligatoire avant le premier wgmma.mma_async)");
            throw KernelAbort{};
        }
        PendingMma op;
        op.where = where;
        op.n = n;
        op.type = type;
        op.desc_a = desc_a;
        op.desc_b = desc_b;
        op.a_in_registers = a != nullptr;
        op.scale_d = scale_d;
        op.scale_a = scale_a;
        op.scale_b = scale_b;
        op.trans_a = trans_a;
        op.trans_b = trans_b;
        op.d.reserve(std::size_t{kWarpgroupSize} * d.size());
        if (a != nullptr) op.a.reserve(std::size_t{kWarpgroupSize} * 4);
        for (ThreadSlot* slot : threads) {
            const auto& other = *static_cast<const MmaOperands*>(slot->warpgroup.operands);
            const char* differs = other.desc_b != desc_b                  ? "le descripteur de B"
                                  : a == nullptr && other.desc_a != desc_a ? "le descripteur de A"
                                  : other.scale_d != scale_d               ? "scale-d"
                                                                           : nullptr;
            if (differs) {
                fail(block, *slot,
                     instruction + " : " + differs + " du thread " + coordinates(slot->index) +
                         " diffère de celui du thread " + coordinates(threads[0]->index) +
                         " ; il doit être le même pour tout le groupe de warps");
                throw KernelAbort{};
            }
            if (a != nullptr) op.a.insert(op.a.end(), other.a, other.a + 4);
            for (unsigned i = 0; i < other.d.size(); ++i) {
                float* p = other.d[i];
                auto [entry, inserted] = state.accumulators.try_emplace(p);
                if (inserted) {
                    entry->second.value = *p;
                } else if (!is_poison(p)) {
                    touched(block, *slot, op, i, p, "depuis un wgmma.mma_async précédent encore en attente");
                }
                ++entry->second.writers;
                poison(p);
                op.d.push_back(p);
            }
        }
        state.open.push_back(std::move(op));
    }, where);
}

}  // namespace

void check_warpgroups_at_exit(Block& block) {
    for (std::size_t group = 0; group < block.warpgroups.size(); ++group) {
        const WarpgroupState* state = block.warpgroups[group].get();
        if (state == nullptr || (state->open.empty() && state->committed.empty())) continue;
        const PendingMma& op = state->committed.empty() ? state->open.front() : state->committed.front().front();
        fail(block, block.threads[group * kWarpgroupSize],
             instruction_text(op) + " (" + location(op.where) + ") : le groupe de warps " + std::to_string(group) +
                 " a terminé sans l'attendre (" +
                 (state->committed.empty() ? "wgmma.commit_group puis wgmma.wait_group manquent"
                                           : "wgmma.wait_group manque") +
                 ") ; ses accumulateurs ne sont jamais écrits");
        return;
    }
}

}  // namespace simt::detail

namespace simt::ptx {

using namespace simt::detail;

void wgmma_fence(const std::source_location& where) {
    warpgroup_rendezvous(kFence, nullptr, [](Block& block, WarpgroupThreads threads) {
        warpgroup_state(block, *threads[0]).fenced = true;
    }, where);
}

void wgmma_commit_group(const std::source_location& where) {
    warpgroup_rendezvous(kCommit, nullptr, [](Block& block, WarpgroupThreads threads) {
        WarpgroupState& state = warpgroup_state(block, *threads[0]);
        state.committed.push_back(std::move(state.open));
        state.open.clear();
    }, where);
}

void wgmma_wait_group(unsigned pending, const std::source_location& where) {
    warpgroup_rendezvous(kWait, &pending, [&](Block& block, WarpgroupThreads threads) {
        for (ThreadSlot* slot : threads)
            if (*static_cast<const unsigned*>(slot->warpgroup.operands) != pending) {
                fail(block, *slot,
                     std::string(kWait) + " (" + location(where) + ") : le thread " + coordinates(slot->index) +
                         " attend " + std::to_string(*static_cast<const unsigned*>(slot->warpgroup.operands)) +
                         " groupes, le thread " + coordinates(threads[0]->index) + " " + std::to_string(pending) +
                         " ; N doit être le même pour tout le groupe de warps");
                throw KernelAbort{};
            }
        WarpgroupState& state = warpgroup_state(block, *threads[0]);
        while (state.committed.size() > pending) {
            for (const PendingMma& op : state.committed.front()) retire(block, threads, state, op);
            state.committed.pop_front();
        }
    }, where);
}

void wgmma_mma_async(unsigned n, WgmmaInput type, std::span<float* const> d, std::uint64_t desc_a,
                     std::uint64_t desc_b, bool scale_d, int scale_a, int scale_b, int trans_a, int trans_b,
                     const std::source_location& where) {
    issue(n, type, d, nullptr, desc_a, desc_b, scale_d, scale_a, scale_b, trans_a, trans_b, where);
}

void wgmma_mma_async_rs(unsigned n, WgmmaInput type, std::span<float* const> d, const std::uint32_t (&a)[4],
                        std::uint64_t desc_b, bool scale_d, int scale_a, int scale_b, int trans_b,
                        const std::source_location& where) {
    issue(n, type, d, a, 0, desc_b, scale_d, scale_a, scale_b, 0, trans_b, where);
}

}  // namespace simt::ptx
