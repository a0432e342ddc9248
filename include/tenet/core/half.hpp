#pragma once
// 16-bit floating-point element types: IEEE binary16 (`Half`, PyTorch's float16)
// and bfloat16 (`BFloat16`). Storage is 16 bits; arithmetic goes through float,
// as PyTorch does on the CPU. Conversions round to nearest, ties to even.

#include "tenet/config.hpp"
#include "tenet/core/host_device.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>

namespace tenet::inline TENET_ABI {

namespace detail {

inline TENET_HD uint16_t float_to_half_bits(float f) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t abs = x & 0x7fffffffu;
    if (abs >= 0x7f800000u)  // inf or nan: keep nan-ness with a quiet payload bit
        return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
    if (abs >= 0x477ff000u)  // rounds to a value beyond the largest half (65504)
        return static_cast<uint16_t>(sign | 0x7c00u);
    if (abs < 0x38800000u) {  // below the smallest normal half: produce a subnormal
        // Adding 0.5 shifts the significand so the hardware's float rounding
        // (nearest, ties to even) rounds at the half-subnormal quantum 2^-24.
        const float shifted = std::bit_cast<float>(abs) + 0.5f;
        return static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(shifted) - 0x3f000000u));
    }
    // Normal range: rebias the exponent and round the 13 dropped mantissa bits.
    const uint32_t odd = (abs >> 13) & 1u;
    const uint32_t rounded = abs + 0xc8000fffu + odd;  // -(112 << 23) + 0xfff + odd
    return static_cast<uint16_t>(sign | (rounded >> 13));
}

inline TENET_HD float half_bits_to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    const uint32_t mant = h & 0x3ffu;
    if (exp == 0) {  // zero or subnormal: exact as mant * 2^-24
        const float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
    return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (mant << 13));
}

inline TENET_HD uint16_t float_to_bfloat16_bits(float f) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet nan
    const uint32_t rounding_bias = 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>((x + rounding_bias) >> 16);
}

inline TENET_HD float bfloat16_bits_to_float(uint16_t b) {
    return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

}  // namespace detail

/// IEEE 754 binary16 (PyTorch's float16 / half).
struct Half {
    uint16_t bits = 0;

    Half() = default;
    TENET_HD Half(float f) : bits(detail::float_to_half_bits(f)) {}
    TENET_HD Half(double d) : Half(static_cast<float>(d)) {}
    template <class I>
        requires std::is_integral_v<I>
    TENET_HD Half(I i) : Half(static_cast<float>(i)) {}
    TENET_HD operator float() const { return detail::half_bits_to_float(bits); }

    static TENET_HD Half from_bits(uint16_t b) {
        Half h;
        h.bits = b;
        return h;
    }
};

/// bfloat16: float32's exponent range with an 8-bit significand.
struct BFloat16 {
    uint16_t bits = 0;

    BFloat16() = default;
    TENET_HD BFloat16(float f) : bits(detail::float_to_bfloat16_bits(f)) {}
    TENET_HD BFloat16(double d) : BFloat16(static_cast<float>(d)) {}
    template <class I>
        requires std::is_integral_v<I>
    TENET_HD BFloat16(I i) : BFloat16(static_cast<float>(i)) {}
    TENET_HD operator float() const { return detail::bfloat16_bits_to_float(bits); }

    static TENET_HD BFloat16 from_bits(uint16_t b) {
        BFloat16 h;
        h.bits = b;
        return h;
    }
};

}  // namespace tenet

template <>
struct std::numeric_limits<tenet::Half> {
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr int digits = 11;
    static TENET_HD tenet::Half lowest() { return tenet::Half::from_bits(0xfbffu); }
    static TENET_HD tenet::Half max() { return tenet::Half::from_bits(0x7bffu); }
    static TENET_HD tenet::Half min() { return tenet::Half::from_bits(0x0400u); }
    static TENET_HD tenet::Half epsilon() { return tenet::Half::from_bits(0x1400u); }
    static TENET_HD tenet::Half infinity() { return tenet::Half::from_bits(0x7c00u); }
    static TENET_HD tenet::Half quiet_NaN() { return tenet::Half::from_bits(0x7e00u); }
};

template <>
struct std::numeric_limits<tenet::BFloat16> {
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr int digits = 8;
    static TENET_HD tenet::BFloat16 lowest() { return tenet::BFloat16::from_bits(0xff7fu); }
    static TENET_HD tenet::BFloat16 max() { return tenet::BFloat16::from_bits(0x7f7fu); }
    static TENET_HD tenet::BFloat16 min() { return tenet::BFloat16::from_bits(0x0080u); }
    static TENET_HD tenet::BFloat16 epsilon() { return tenet::BFloat16::from_bits(0x3c00u); }
    static TENET_HD tenet::BFloat16 infinity() { return tenet::BFloat16::from_bits(0x7f80u); }
    static TENET_HD tenet::BFloat16 quiet_NaN() { return tenet::BFloat16::from_bits(0x7fc0u); }
};
