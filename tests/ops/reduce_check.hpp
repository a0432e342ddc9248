#pragma once
// The checks behind the PyTorch-generated reduction cases (tests/golden/gen_reduce.py ->
// reduce_cases.inc), shared by the host tests and the device tests (tests/placement.hpp).
//
// Comparison rule for the golden cases: dtype and sizes exactly; integer and bool values
// exactly; floating values NaN-for-NaN, infinities exactly, otherwise within
// rtol * max(1, |expected|), rtol = 1e-5 for float32 and 1e-12 for float64. The
// tolerance is needed because tenet accumulates floating reductions in double while
// PyTorch accumulates float32 in float (a different rounding of the same sum), and
// pow/sqrt of the norms may round differently in the last bit.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "../placement.hpp"

using namespace tenet;

namespace reduce_case {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// A tensor of the given sizes from row-major values (exact literals from the generator).
template <class T>
Tensor<T> make(const IntArray& sizes, std::initializer_list<double> values) {
    auto t = empty<T>(sizes);
    REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
    T* p = t.data_ptr();
    for (double v : values) *p++ = convert<T>(v);
    return placement::place(t);
}

template <class X>
void discard(const X&) {}

template <class T>
void check(const char* torch_code, const Tensor<T>& r, const char* dtype, const IntArray& sizes,
           std::initializer_list<double> expected) {
    INFO(torch_code);
    placement::check_device(r);
    CHECK(std::string(r.dtype().name()) == dtype);
    CHECK(r.sizes() == sizes);
    const auto actual = r.to_vector();
    REQUIRE(actual.size() == expected.size());
    size_t i = 0;
    for (double e : expected) {
        const double a = static_cast<double>(actual[i]);
        INFO("element " << i << ": got " << a << ", PyTorch " << e);
        if constexpr (std::is_floating_point_v<T>) {
            const double rtol = sizeof(T) == 4 ? 1e-5 : 1e-12;
            if (std::isnan(e)) CHECK(std::isnan(a));
            else if (std::isinf(e)) CHECK(a == e);
            else CHECK(std::abs(a - e) <= rtol * std::max(1.0, std::abs(e)));
        } else {
            CHECK(a == e);
        }
        ++i;
    }
}

}  // namespace reduce_case

