#pragma once
// Element conversion with PyTorch's CPU semantics (x86-64): floating -> integer
// truncates toward zero; NaN and out-of-range values give the "integer indefinite"
// value of the hardware conversion, then wrap to narrower types exactly as PyTorch
// does (int8/int16 via int32, uint8 via int64); anything -> bool is `x != 0`.
// Unlike a bare static_cast, nothing here is undefined behaviour.

#include "tenet/config.hpp"
#include "tenet/core/host_device.hpp"
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "tenet/core/dtype.hpp"

namespace tenet::inline TENET_ABI {
namespace detail {

template <class I>
TENET_HD I float_to_int_indefinite(double x) {
    // The range test is written so that NaN fails it.
    constexpr double lo = -static_cast<double>(uint64_t{1} << (8 * sizeof(I) - 1));
    if (x >= lo && x < -lo) return static_cast<I>(x);
    return std::numeric_limits<I>::min();
}

}  // namespace detail

/// Converts one element value to element type `To` (a complex value to a real type: its real part).
template <Element To, class From>
TENET_HD To convert(From v) {
    if constexpr (std::is_same_v<To, From>) {
        return v;
    } else if constexpr (is_complex_v<From>) {
        // complex -> complex: per part; -> bool: either part nonzero; -> a real type: the real
        // part (PyTorch's cast discards the imaginary part).
        if constexpr (is_complex_v<To>) return To(convert<real_t<To>>(v.real()), convert<real_t<To>>(v.imag()));
        else if constexpr (std::is_same_v<To, bool>) return v.real() != 0 || v.imag() != 0;
        else return convert<To>(v.real());
    } else if constexpr (is_complex_v<To>) {
        return To(convert<real_t<To>>(v));
    } else if constexpr (std::is_same_v<To, bool>) {
        if constexpr (is_reduced_float<From>::value) return static_cast<float>(v) != 0.0f;
        else return v != From(0);
    } else if constexpr (is_reduced_float<From>::value) {
        return convert<To>(static_cast<float>(v));
    } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
        const double x = static_cast<double>(v);
        if constexpr (std::is_same_v<To, int64_t>) return detail::float_to_int_indefinite<int64_t>(x);
        else if constexpr (std::is_same_v<To, uint8_t>)
            return static_cast<uint8_t>(detail::float_to_int_indefinite<int64_t>(x));
        else return static_cast<To>(detail::float_to_int_indefinite<int32_t>(x));
    } else if constexpr (is_reduced_float<To>::value) {
        if constexpr (std::is_same_v<From, bool>) return To(v ? 1.0f : 0.0f);
        else return To(static_cast<float>(v));
    } else {
        return static_cast<To>(v);  // integer wrap-around is defined in C++20
    }
}

}  // namespace tenet
