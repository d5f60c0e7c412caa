/**
 * @file
 * @brief PTX en ligne, petit PTX des enrobages : registres spéciaux et conversions (cvt).
 */
#include "execution.hpp"
#include "simt/builtins.hpp"
#include "simt/ptx/base.hpp"

#include <bit>
#include <chrono>
#include <cmath>

namespace simt::ptx {

namespace {

std::uint32_t component(const uint3& v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }
std::uint32_t component(const dim3& v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

}  // namespace

std::uint32_t sreg_warpid() { return ::simt::detail::current_thread->linear / ::simt::detail::kWarpSize; }
std::uint32_t sreg_tid(int axis) { return component(::simt::detail::current_thread->index, axis); }
std::uint32_t sreg_ntid(int axis) { return component(blockDim, axis); }
std::uint32_t sreg_ctaid(int axis) { return component(blockIdx, axis); }
std::uint32_t sreg_nctaid(int axis) { return component(gridDim, axis); }

std::uint32_t sreg_lanemask(int kind) {
    const std::uint32_t lane = ::simt::detail::lane_id();
    const std::uint32_t eq = 1u << lane, lt = eq - 1u;
    switch (kind) {
        case 0: return eq;
        case 1: return lt;
        case 2: return lt | eq;
        case 3: return ~(lt | eq);
        default: return ~lt;
    }
}

std::uint64_t sreg_clock64() {
    return std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now().time_since_epoch()).count());
}

std::uint16_t f32_to_f16_rn(float value) {
    // Conversion du compilateur (_Float16 : IEEE binary16, arrondi au plus proche pair).
    return std::bit_cast<std::uint16_t>(static_cast<_Float16>(value));
}

float f16_to_f32(std::uint16_t bits) { return static_cast<float>(std::bit_cast<_Float16>(bits)); }

std::uint16_t f32_to_bf16_rn(float value) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    if (std::isnan(value)) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);  // NaN calme
    const std::uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<std::uint16_t>((bits + rounding) >> 16);
}

std::uint32_t f32_to_tf32_rna(float value) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    if (!std::isfinite(value)) return bits;
    return (bits + 0x1000u) & 0xffffe000u;  // la moitié du dernier bit gardé, égalités loin de zéro
}

}  // namespace simt::ptx
