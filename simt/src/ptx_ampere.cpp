/**
 * @file
 * @brief Instructions d'Ampere en PTX : mma.sync, ldmatrix, cp.async.
 *
 * Dispositions des fragments : PTX ISA, section 9.7.14.5 « Matrix multiply-accumulate
 * operation using mma instruction », figures « MMA .m16n8k16 fragment layout » (A, B, C/D,
 * types .f16/.bf16) et « MMA .m16n8k8 fragment layout » (.tf32), et section 9.7.14.5.15
 * « ldmatrix ». Avec groupID = lane / 4 et t = lane % 4 :
 * - m16n8k16, A (16×16, .row) : registre r, moitié h (basse = élément pair) →
 *   ligne groupID + 8·(r % 2), colonne 2t + h + 8·(r / 2) ;
 * - m16n8k16, B (16×8, .col) : registre r, moitié h → ligne 2t + h + 8r, colonne groupID ;
 * - m16n8k8 .tf32, A (16×8) : registre r → ligne groupID + 8·(r % 2), colonne t + 4·(r / 2) ;
 *   B (8×8) : registre r → ligne t + 4r, colonne groupID ;
 * - C/D (16×8) f32 : élément i → ligne groupID + 8·(i / 2), colonne 2t + i % 2 ; en f16, le
 *   registre r tient les éléments 2r (moitié basse) et 2r + 1.
 * Les tests (tests/test_ptx_mma.cu) vérifient ces correspondances contre le PTX ISA et contre
 * les dispositions de CuTe (include/cute/atom/mma_traits_sm80.hpp).
 *
 * Calcul : la règle commune des Tensor Cores émulés (simt/tensor_core.hpp) : produits exacts,
 * somme exacte de C et des k produits, un seul arrondi au plus proche en f32 (puis en f16
 * pour un D .f16). Le matériel ne spécifie ni l'ordre ni l'arrondi de ses additions : le
 * résultat est celui du GPU quand les sommes partielles sont représentables (entiers petits),
 * et peut en différer au dernier bit sinon.
 */
#include "execution.hpp"
#include "simt/ptx/ampere.hpp"
#include "simt/tensor_core.hpp"

#include <bit>
#include <string>

namespace simt::ptx {

namespace {

/** @brief Ce qu'une lane dépose pour mma.sync. */
struct MmaLane {
    std::array<std::uint32_t, 4> a;
    std::array<std::uint32_t, 2> b;
    std::array<std::uint32_t, 4> c;
    std::array<std::uint32_t, 4> d;
};

std::uint16_t half(std::uint32_t reg, int h) { return static_cast<std::uint16_t>(h == 0 ? reg : reg >> 16); }

double element(Mma kind, std::uint16_t bits) {
    return kind == Mma::m16n8k16_f32_bf16 ? bf16_to_f32(bits) : f16_to_f32(bits);
}

/** @brief Une valeur tf32 : simt ne lit pas les 13 bits bas de la mantisse (valeurs attendues arrondies par cvt.rna.tf32.f32). */
double tf32(std::uint32_t bits) { return std::bit_cast<float>(bits & 0xffffe000u); }

template <Mma Kind>
std::string complete_mma(void* const lanes[32], unsigned&) {
    constexpr bool tf = Kind == Mma::m16n8k8_f32_tf32;
    constexpr int K = tf ? 8 : 16;
    double a[16][16] = {}, b[16][8] = {}, c[16][8] = {};
    for (int lane = 0; lane < 32; ++lane) {
        const auto& in = *static_cast<const MmaLane*>(lanes[lane]);
        const int group = lane / 4, t = lane % 4;
        if constexpr (tf) {
            for (int r = 0; r < 4; ++r) a[group + 8 * (r % 2)][t + 4 * (r / 2)] = tf32(in.a[r]);
            for (int r = 0; r < 2; ++r) b[t + 4 * r][group] = tf32(in.b[r]);
        } else {
            for (int r = 0; r < 4; ++r)
                for (int h = 0; h < 2; ++h) a[group + 8 * (r % 2)][2 * t + h + 8 * (r / 2)] = element(Kind, half(in.a[r], h));
            for (int r = 0; r < 2; ++r)
                for (int h = 0; h < 2; ++h) b[2 * t + h + 8 * r][group] = element(Kind, half(in.b[r], h));
        }
        for (int i = 0; i < 4; ++i) {
            const int row = group + 8 * (i / 2), col = 2 * t + i % 2;
            if constexpr (Kind == Mma::m16n8k16_f16_f16) c[row][col] = f16_to_f32(half(in.c[i / 2], i % 2));
            else c[row][col] = std::bit_cast<float>(in.c[i]);
        }
    }
    for (int lane = 0; lane < 32; ++lane) {
        auto& out = *static_cast<MmaLane*>(lanes[lane]);
        const int group = lane / 4, t = lane % 4;
        out.d = {};
        for (int i = 0; i < 4; ++i) {
            const int row = group + 8 * (i / 2), col = 2 * t + i % 2;
            double products[K];
            for (int k = 0; k < K; ++k) products[k] = a[row][k] * b[k][col];  // exacts en double
            const float sum = ::simt::tensor_core_accumulate(static_cast<float>(c[row][col]), products, K);
            if constexpr (Kind == Mma::m16n8k16_f16_f16)
                out.d[i / 2] |= std::uint32_t(f32_to_f16_rn(sum)) << (16 * (i % 2));
            else
                out.d[i] = std::bit_cast<std::uint32_t>(sum);
        }
    }
    return {};
}

const char* mma_name(Mma kind) {
    switch (kind) {
        case Mma::m16n8k16_f32_bf16: return "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
        case Mma::m16n8k16_f32_f16: return "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
        case Mma::m16n8k16_f16_f16: return "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16";
        case Mma::m16n8k8_f32_tf32: return "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32";
    }
    return "mma.sync";
}

::simt::detail::WarpExchange mma_exchange(Mma kind) {
    switch (kind) {
        case Mma::m16n8k16_f32_bf16: return complete_mma<Mma::m16n8k16_f32_bf16>;
        case Mma::m16n8k16_f32_f16: return complete_mma<Mma::m16n8k16_f32_f16>;
        case Mma::m16n8k16_f16_f16: return complete_mma<Mma::m16n8k16_f16_f16>;
        case Mma::m16n8k8_f32_tf32: return complete_mma<Mma::m16n8k8_f32_tf32>;
    }
    return nullptr;
}

/** @brief Ce qu'une lane dépose pour ldmatrix. */
struct LdmatrixLane {
    std::uint32_t address;
    std::array<std::uint32_t, 4> d;
};

template <int Count, bool Transpose>
std::string complete_ldmatrix(void* const lanes[32], unsigned& faulty_lane) {
    // Les lanes 8j à 8j + 7 donnent les lignes de la matrice j ; les autres adresses sont ignorées.
    const std::uint16_t* rows[32] = {};
    for (int lane = 0; lane < 8 * Count; ++lane) {
        const std::uint32_t address = static_cast<const LdmatrixLane*>(lanes[lane])->address;
        if (address % 16 != 0) {
            faulty_lane = unsigned(lane);
            return "la lane " + std::to_string(lane) + " donne l'adresse de ligne " + std::to_string(address) +
                   ", qui n'est pas alignée sur 16 octets";
        }
        void* pointer = nullptr;
        if (std::string why = ::simt::detail::resolve_shared(address, 16, pointer); !why.empty()) {
            faulty_lane = unsigned(lane);
            return "lane " + std::to_string(lane) + " : " + why;
        }
        rows[lane] = static_cast<const std::uint16_t*>(pointer);
    }
    for (int lane = 0; lane < 32; ++lane) {
        auto& out = *static_cast<LdmatrixLane*>(lanes[lane]);
        const int group = lane / 4, t = lane % 4;
        out.d = {};
        for (int j = 0; j < Count; ++j) {
            std::uint16_t low, high;
            if constexpr (Transpose) {  // élément (2t, groupID) et (2t + 1, groupID)
                low = rows[8 * j + 2 * t][group];
                high = rows[8 * j + 2 * t + 1][group];
            } else {  // élément (groupID, 2t) et (groupID, 2t + 1)
                low = rows[8 * j + group][2 * t];
                high = rows[8 * j + group][2 * t + 1];
            }
            out.d[j] = std::uint32_t(low) | std::uint32_t(high) << 16;
        }
    }
    return {};
}

template <int Count>
::simt::detail::WarpExchange ldmatrix_exchange(bool transpose) {
    return transpose ? complete_ldmatrix<Count, true> : complete_ldmatrix<Count, false>;
}

}  // namespace

void mma_sync(Mma kind, std::array<std::uint32_t*, 4> d, std::array<std::uint32_t, 4> a,
              std::array<std::uint32_t, 2> b, std::array<std::uint32_t, 4> c, const std::source_location& where) {
    MmaLane lane{a, b, c, {}};
    ::simt::detail::warp_exchange(mma_name(kind), mma_exchange(kind), &lane, where);
    const int registers = kind == Mma::m16n8k16_f16_f16 ? 2 : 4;
    for (int r = 0; r < registers; ++r) *d[r] = lane.d[r];
}

void ldmatrix(int count, bool transpose, std::array<std::uint32_t*, 4> d, std::uint32_t row_address,
              const std::source_location& where) {
    static const char* const names[2][3] = {
        {"ldmatrix.sync.aligned.m8n8.x1.shared.b16", "ldmatrix.sync.aligned.m8n8.x2.shared.b16",
         "ldmatrix.sync.aligned.m8n8.x4.shared.b16"},
        {"ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16", "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16",
         "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"}};
    LdmatrixLane lane{row_address, {}};
    const int slot = count == 1 ? 0 : count == 2 ? 1 : 2;
    const ::simt::detail::WarpExchange complete =
        count == 1 ? ldmatrix_exchange<1>(transpose) : count == 2 ? ldmatrix_exchange<2>(transpose) : ldmatrix_exchange<4>(transpose);
    ::simt::detail::warp_exchange(names[transpose][slot], complete, &lane, where);
    for (int j = 0; j < count; ++j) *d[j] = lane.d[j];
}

void cp_async(std::uint32_t destination, const void* source, std::uint64_t copy_size, std::uint64_t source_size,
              const std::source_location& where) {
    if (source_size > copy_size)
        ::simt::detail::fail_current("cp.async (" + ::simt::detail::location(where) + ") : src-size " +
                                     std::to_string(source_size) + " dépasse cp-size " + std::to_string(copy_size));
    void* target = ::simt::shared_pointer(destination, copy_size, where);
    ::simt::detail::async_copy(target, source, copy_size, copy_size - source_size, where);
}

}  // namespace simt::ptx
