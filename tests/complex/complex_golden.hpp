#pragma once
// What the complex tests share: complex tensors from golden text (tests/golden/golden_format.py's
// ctext: the (re, im) pairs under the complex shape), dtype dispatch, and the comparison.
#include "../golden_data.hpp"

namespace complex_golden {
using namespace tenet;
using golden::Golden;
using c64 = complex<float>;
using c128 = complex<double>;

/// A tensor of T from its golden text (a complex one from its (re, im) pairs).
template <class T>
Tensor<T> from_golden(const Golden& g) {
    Tensor<T> t = empty<T>(g.sizes);
    T* p = t.data_ptr();
    if constexpr (is_complex_v<T>) {
        REQUIRE(g.values.size() == 2 * static_cast<size_t>(t.numel()));
        for (size_t i = 0; i < g.values.size(); i += 2)
            *p++ = T(static_cast<real_t<T>>(g.values[i]), static_cast<real_t<T>>(g.values[i + 1]));
    } else {
        for (double v : g.values) *p++ = convert<T>(v);
    }
    return t;
}

/// Calls f.template operator()<T>() for the element type of a dtype name.
template <class F>
void with_type(const std::string& dtype, F&& f) {
    if (dtype == "complex64") f.template operator()<c64>();
    else if (dtype == "complex128") f.template operator()<c128>();
    else if (dtype == "float32") f.template operator()<float>();
    else if (dtype == "float64") f.template operator()<double>();
    else if (dtype == "int64") f.template operator()<int64_t>();
    else FAIL("unexpected dtype " << dtype);
}

/// dtype and sizes exactly; each real number (both parts of a complex one) within rtol * max(1, |expected|)
/// (rtol 2e-5 for float32 and complex64, 1e-12 otherwise, times rtol_scale).
template <class R>
void check_close(const Golden& expected, const Tensor<R>& actual, double rtol_scale = 1.0) {
    CHECK(std::string(actual.dtype().name()) == expected.dtype);
    REQUIRE(actual.sizes() == expected.sizes);
    std::vector<double> got;
    for (const R& v : actual.contiguous().to_vector()) {
        if constexpr (is_complex_v<R>) {
            got.push_back(v.real());
            got.push_back(v.imag());
        } else {
            got.push_back(static_cast<double>(v));
        }
    }
    REQUIRE(got.size() == expected.values.size());
    const double rtol = (std::is_same_v<real_t<R>, float> ? 2e-5 : 1e-12) * rtol_scale;
    for (size_t i = 0; i < got.size(); ++i) {
        const double a = got[i], e = expected.values[i];
        INFO("number " << i << ": tenet " << a << ", PyTorch " << e);
        if (std::isnan(e)) CHECK(std::isnan(a));
        else if (std::isinf(e)) CHECK(a == e);
        else CHECK(std::abs(a - e) <= rtol * std::max(1.0, std::abs(e)));
    }
}

}  // namespace complex_golden
