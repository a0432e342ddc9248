#pragma once
// The checks behind the PyTorch-generated binary/ternary cases (tests/golden/gen_binary.py ->
// binary_cases.inc), shared by the host tests and the device tests (tests/placement.hpp). The
// .inc declares inputs with BIN_INPUT and cases with BIN_CASE (defined here).
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "../placement.hpp"

namespace binary_case {

using namespace tenet;


template <class T>
T golden_nan() {
    return std::numeric_limits<T>::quiet_NaN();
}
template <class T>
T golden_inf() {
    return std::numeric_limits<T>::infinity();
}

template <class T>
Tensor<T> make_input(const IntArray& shape, const std::vector<T>& values) {
    auto t = empty(shape, dtype_t<T>{});
    T* p = t.data_ptr();
    for (size_t i = 0; i < values.size(); ++i) p[i] = values[i];
    return placement::place(t);
}

/// Distance in units in the last place (same-sign ordering of the bit patterns).
template <class F>
int64_t ulp_distance(F a, F b) {
    using I = std::conditional_t<sizeof(F) == 4, int32_t, int64_t>;
    auto key = [](F x) {
        I i;
        std::memcpy(&i, &x, sizeof(F));
        return i < 0 ? static_cast<int64_t>(std::numeric_limits<I>::min()) - static_cast<int64_t>(i)
                     : static_cast<int64_t>(i);
    };
    const int64_t d = key(a) - key(b);
    return d < 0 ? -d : d;
}

/// Ops whose float results are not exactly PyTorch's (libm, FMA in PyTorch's kernels).
inline bool approximate(const std::string& label) {
    for (const char* p : {"pow", "atan2", "hypot", "lerp", "add alpha", "sub alpha", "where"})
        if (label.rfind(p, 0) == 0) return true;
    return false;
}
inline bool zero_sign_free(const std::string& label) {  // PyTorch's own vector/scalar paths disagree on +-0
    return label.rfind("maximum", 0) == 0 || label.rfind("minimum", 0) == 0;
}

template <class T>
void check_values(const Tensor<T>& r, const IntArray& shape, const std::vector<T>& expected, const std::string& label) {
    INFO(label);
    placement::check_device(r);
    REQUIRE(r.sizes() == shape);
    const auto got = r.to_vector();
    REQUIRE(got.size() == expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i << " got " << +got[i] << " expected " << +expected[i]);
        if constexpr (std::is_floating_point_v<T>) {
            if (std::isnan(expected[i])) {
                CHECK(std::isnan(got[i]));
            } else if (label.rfind("lerp", 0) == 0 && std::isfinite(expected[i])) {
                // PyTorch's vector path uses an FMA, its scalar tail does not: when end - start
                // cancels, the two differ by more than 2 ulps of the result; bound by the inputs (<= 100).
                CHECK(std::abs(got[i] - expected[i]) <= 2 * std::numeric_limits<T>::epsilon() * 128);
            } else if (approximate(label)) {
                CHECK(ulp_distance(got[i], expected[i]) <= 2);
            } else if (zero_sign_free(label)) {
                CHECK(got[i] == expected[i]);
            } else {
                CHECK(std::bit_cast<std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>(got[i]) ==
                      std::bit_cast<std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>(expected[i]));
            }
        } else {
            CHECK(got[i] == expected[i]);
        }
    }
}

}  // namespace binary_case

#define BIN_INPUT(NAME, CT, SHAPE, ...) const Tensor<CT> NAME = binary_case::make_input<CT>(SHAPE, std::vector<CT>{__VA_ARGS__});
#define BIN_CASE(LABEL, CT, EXPR, SHAPE, ...)                                            \
    {                                                                                    \
        auto e = EXPR;                                                                   \
        STATIC_REQUIRE(std::is_same_v<typename decltype(e)::value_type, CT>);            \
        Tensor<CT> r = e;                                                                \
        binary_case::check_values<CT>(r, SHAPE, std::vector<CT>{__VA_ARGS__}, LABEL);                 \
    }

