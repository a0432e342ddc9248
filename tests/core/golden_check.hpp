#pragma once
// The comparison behind the golden tables written by tests/golden/gen_core.py from
// real PyTorch: metadata (dtype, sizes, strides, storage offset, is_contiguous) must
// match exactly, and so must the values — integers and bools as integers, float16 and
// bfloat16 bit for bit, float32/float64 bit for bit (any NaN matches any NaN) unless
// the case gives a relative tolerance (ranges computed in a different precision).
// NaN payloads are not compared: PyTorch's own float->bfloat16 NaN pattern depends on
// which (vectorised or scalar) path converts it (0xffff or 0x7fc0), so a 16-bit NaN
// matches any 16-bit NaN; every other 16-bit pattern must match exactly.

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tenet/tenet.hpp"

namespace golden {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
inline constexpr float kInff = std::numeric_limits<float>::infinity();

template <class V>
std::string show(const std::vector<V>& v) {
    std::ostringstream os;
    os << '[';
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) os << ", ";
        if constexpr (std::is_floating_point_v<V>) os << std::hexfloat << v[i] << std::defaultfloat;
        else os << +v[i];
    }
    return os.str() + ']';
}

/// With a tolerance, the error allowed is rel_tol times `scale`, the largest magnitude in
/// the expected tensor: a range's rounding error is relative to its bounds, not to each
/// element (linspace(-1, 1, 7)'s middle element is -2^-25 in PyTorch, whose kernel is
/// compiled with FMA contraction, and 0 in tenet).
template <class F>
bool same_float(F actual, F expected, double rel_tol, double scale) {
    if (std::isnan(expected)) return std::isnan(actual);
    if (rel_tol == 0.0) return std::bit_cast<std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>>(actual) ==
                               std::bit_cast<std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>>(expected);
    if (std::isinf(expected)) return actual == expected;
    return std::abs(static_cast<double>(actual) - static_cast<double>(expected)) <=
           rel_tol * scale;
}

/// Checks one generated case. `code` is the C++ text that produced `r` (shown on failure).
template <class T, class E>
void check(std::string_view name, std::string_view code, const tenet::Tensor<T>& r, std::string_view dtype,
           const tenet::IntArray& sizes, const tenet::IntArray& strides, int64_t offset, bool contiguous,
           const std::vector<E>& expected, double rel_tol = 0.0) {
    INFO("case: " << name);
    INFO("C++:  " << code);
    CHECK(r.dtype().name() == dtype);
    CHECK(r.sizes() == sizes);
    CHECK(r.strides() == strides);
    CHECK(r.storage_offset() == offset);
    CHECK(r.is_contiguous() == contiguous);
    const std::vector<T> values = r.to_vector();
    bool ok = values.size() == expected.size();
    std::vector<E> actual;
    for (const T& v : values) {
        if constexpr (std::is_same_v<T, tenet::Half> || std::is_same_v<T, tenet::BFloat16>) {
            static_assert(std::is_same_v<E, uint16_t>);
            actual.push_back(v.bits);
        } else if constexpr (std::is_floating_point_v<T>) {
            static_assert(std::is_same_v<E, double>);
            actual.push_back(static_cast<double>(v));
        } else {
            static_assert(std::is_same_v<E, long long>);
            actual.push_back(static_cast<long long>(v));
        }
    }
    double scale = 0.0;
    if constexpr (std::is_same_v<E, double>)
        for (double e : expected)
            if (std::isfinite(e)) scale = std::max(scale, std::abs(e));
    for (size_t i = 0; ok && i < values.size(); ++i) {
        if constexpr (std::is_floating_point_v<T>)
            ok = same_float(values[i], static_cast<T>(expected[i]), rel_tol, scale);
        else if constexpr (std::is_same_v<T, tenet::Half>)
            ok = actual[i] == expected[i] || ((actual[i] & 0x7fff) > 0x7c00 && (expected[i] & 0x7fff) > 0x7c00);
        else if constexpr (std::is_same_v<T, tenet::BFloat16>)
            ok = actual[i] == expected[i] || ((actual[i] & 0x7fff) > 0x7f80 && (expected[i] & 0x7fff) > 0x7f80);
        else
            ok = actual[i] == expected[i];
    }
    INFO("expected values: " << show(expected));
    INFO("actual values:   " << show(actual));
    CHECK(ok);
}

}  // namespace golden
