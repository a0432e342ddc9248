#pragma once
// The checks behind the PyTorch-generated unary math cases (tests/golden/gen_math.py ->
// math_cases.inc), shared by the host tests and the device tests (tests/placement.hpp).
//
// Tolerance: the golden cases give 0 ulps (exact, bit for bit including the sign of
// zero) for ops PyTorch computes exactly (abs, sign, ceil, floor, round, trunc, sqrt,
// square, reciprocal, relu, clamp, nan_to_num, predicates) and 4 ulps for the
// transcendental functions (float32 and float64 alike): PyTorch's vectorised kernels use
// SLEEF (1.0-ulp functions) or their own polynomials while tenet calls the C library
// (CUDA's libdevice on a GPU); all are within a couple of ulps of the exact result. A nan
// matches any nan; an infinity only the same infinity. Integers and bools are compared exactly.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <type_traits>
#include <vector>

#include "../placement.hpp"

namespace math_case {

using namespace tenet;

constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
constexpr float kInff = std::numeric_limits<float>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Position of a finite float on the number line in ulps (monotonic, -0 and +0 coincide).
template <class F>
int64_t ordinal(F v) {
    using I = std::conditional_t<sizeof(F) == 4, int32_t, int64_t>;
    const I bits = std::bit_cast<I>(v);
    return bits < 0 ? -static_cast<int64_t>(bits & std::numeric_limits<I>::max()) : static_cast<int64_t>(bits);
}

/// Within `ulps` of the expected value, or within `input_ulps` ulps of the input's
/// magnitude (for ops whose rounding error scales with the input, like gelu).
template <class T, class In>
bool matches(T got, T want, int ulps, int input_ulps, In input) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(want)) return std::isnan(got);
        if (std::isnan(got) || std::isinf(want) || std::isinf(got)) return got == want;
        if (ulps == 0) return got == want && std::signbit(got) == std::signbit(want);
        const int64_t d = ordinal(got) - ordinal(want);
        if ((d < 0 ? -d : d) <= ulps) return true;
        if constexpr (std::is_floating_point_v<In>) {
            const T m = std::abs(static_cast<T>(input));
            return input_ulps > 0 && std::abs(got - want) <= input_ulps * (std::nextafter(m, T(INFINITY)) - m);
        }
        return false;
    } else {
        return got == want;
    }
}

template <class T>
std::string show(T v) {
    std::ostringstream os;
    if constexpr (std::is_floating_point_v<T>) os << std::hexfloat << v << " (" << std::defaultfloat
                                                  << std::setprecision(17) << v << ")";
    else os << +v;
    return os.str();
}

/// Compares a result tensor with PyTorch's values, reporting each mismatch with its input.
template <class In, class Out>
void compare(const char* form, const std::vector<In>& x, const Tensor<Out>& got, const std::vector<Out>& want,
             int ulps, int input_ulps = 0) {
    placement::check_device(got);
    REQUIRE(got.numel() == static_cast<int64_t>(want.size()));
    const std::vector<Out> values = got.to_vector();
    for (size_t i = 0; i < want.size(); ++i) {
        if (matches<Out>(values[i], want[i], ulps, input_ulps, x[i])) continue;
        INFO(form << ": input " << show<In>(x[i]) << ": got " << show<Out>(values[i]) << ", PyTorch gives "
                  << show<Out>(want[i]) << " (tolerance " << ulps << " ulps)");
        CHECK(false);
    }
}

/// Checks every form of one op on one input dtype. `inplace` and `free_inplace` are
/// nullptr where the result type can't be cast back to In (PyTorch's canCast).
template <class In, class Out, class F, class M, class E, class I, class J>
void check_golden(const std::vector<In>& x, const std::vector<Out>& y, int ulps, int input_ulps, F fn, M method,
                  E expr_method, I inplace, J free_inplace) {
    const Tensor<In> t = placement::place(tensor(x));
    // The result dtype is PyTorch's (the golden output's element type).
    STATIC_REQUIRE(std::is_same_v<decltype(fn(t).eval()), Tensor<Out>>);
    STATIC_REQUIRE(std::is_same_v<decltype(method(t).eval()), Tensor<Out>>);
    STATIC_REQUIRE(std::is_same_v<decltype(expr_method(t).eval()), Tensor<Out>>);
    compare("function", x, Tensor<Out>(fn(t)), y, ulps, input_ulps);
    compare("method", x, Tensor<Out>(method(t)), y, ulps, input_ulps);
    compare("expression method", x, Tensor<Out>(expr_method(t)), y, ulps, input_ulps);
    // A strided (transposed) input goes through the chunked path of the evaluator.
    const int64_t n = static_cast<int64_t>(x.size());
    if (n % 2 == 0) {
        Tensor<In> strided = t.view({2, n / 2}).t();
        Tensor<Out> r = fn(strided);
        compare("strided function", x, Tensor<Out>(r.t().contiguous().view({n})), y, ulps, input_ulps);
    }
    if constexpr (!std::is_null_pointer_v<I>) {
        std::vector<In> want_in;  // PyTorch's in-place result: the output cast to In
        std::vector<Out> want_out;
        for (const Out v : y) want_in.push_back(convert<In>(v));
        Tensor<In> a = t.clone();
        const auto* data = a.data_ptr();
        Tensor<In>& ra = inplace(a);
        CHECK(&ra == &a);
        CHECK(a.data_ptr() == data);
        compare("in-place method", x, a, want_in, ulps, input_ulps);
        Tensor<In> b = t.clone();
        Tensor<In>& rb = free_inplace(b);
        CHECK(&rb == &b);
        compare("free in-place function", x, b, want_in, ulps, input_ulps);
    }
}

}  // namespace math_case
