#pragma once
// Comparison helpers for the linalg golden cases (tests/golden/gen_linalg.py, from PyTorch).
//
// Rules: dtype and sizes exactly; integer values exactly (integer products are exact);
// floating values within tol * max(1, largest |expected|) with tol = 1e-4 for float32 and
// 1e-10 for float64 — BLAS/LAPACK and tenet sum the same products in different orders, and
// decompositions of a 3x3 matrix lose a few digits to conditioning. Factors that are unique
// only up to sign (eigenvectors, singular vectors, Q of QR) are compared column by column
// (or row by row) after matching the sign of each; the tests also check the reconstruction.
#include <catch2/catch.hpp>
#include <tenet/tenet.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace linalg_case {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// A tensor of the given sizes from row-major values (exact literals from the generator).
template <class T>
tenet::Tensor<T> make(const tenet::IntArray& sizes, std::initializer_list<double> values) {
    auto t = tenet::empty<T>(sizes);
    REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
    T* p = t.data_ptr();
    for (double v : values) *p++ = static_cast<T>(v);
    return t;
}

template <class X>
void discard(const X&) {}

template <class T>
double tolerance() {
    return sizeof(T) == 4 ? 1e-4 : 1e-10;
}

inline double scale_of(std::initializer_list<double> expected) {
    double s = 1.0;
    for (double e : expected)
        if (std::isfinite(e)) s = std::max(s, std::abs(e));
    return s;
}

/// Values equal within the rules above (NaN matches NaN, infinities exactly).
template <class T>
bool close(double a, double e, double scale) {
    if constexpr (!std::is_floating_point_v<T>) return a == e;
    if (std::isnan(e)) return std::isnan(a);
    if (std::isinf(e)) return a == e;
    return std::abs(a - e) <= tolerance<T>() * scale;
}

template <class T>
void check(const char* torch_code, const tenet::Tensor<T>& r, const char* dtype, const tenet::IntArray& sizes,
           std::initializer_list<double> expected) {
    INFO(torch_code);
    CHECK(std::string(r.dtype().name()) == dtype);
    REQUIRE(r.sizes() == sizes);
    const auto actual = r.to_vector();
    REQUIRE(actual.size() == expected.size());
    const double scale = scale_of(expected);
    size_t i = 0;
    for (double e : expected) {
        const double a = static_cast<double>(actual[i]);
        INFO("element " << i << ": got " << a << ", PyTorch " << e);
        CHECK(close<T>(a, e, scale));
        ++i;
    }
}

/// As check, but each column (by_rows = false) or row (true) of every matrix in the last two
/// dims may differ from PyTorch's by a sign: the sign is taken from the largest entry.
template <class T>
void check_up_to_sign(const char* torch_code, const tenet::Tensor<T>& r, const tenet::IntArray& sizes,
                      std::initializer_list<double> expected_list, bool by_rows) {
    INFO(torch_code << (by_rows ? " (rows up to sign)" : " (columns up to sign)"));
    REQUIRE(r.sizes() == sizes);
    const std::vector<double> expected(expected_list);
    const auto got = r.to_vector();
    REQUIRE(got.size() == expected.size());
    const int64_t nd = r.dim(), rows = sizes[nd - 2], cols = sizes[nd - 1];
    const int64_t count = rows * cols == 0 ? 0 : static_cast<int64_t>(expected.size()) / (rows * cols);
    const double scale = scale_of(expected_list);
    const int64_t vectors = by_rows ? rows : cols, len = by_rows ? cols : rows;
    for (int64_t b = 0; b < count; ++b)
        for (int64_t v = 0; v < vectors; ++v) {
            auto at = [&](int64_t i) {
                const int64_t row = by_rows ? v : i, col = by_rows ? i : v;
                return static_cast<size_t>(b * rows * cols + row * cols + col);
            };
            int64_t big = 0;
            for (int64_t i = 1; i < len; ++i)
                if (std::abs(expected[at(i)]) > std::abs(expected[at(big)])) big = i;
            const double sign =
                (expected[at(big)] < 0) == (static_cast<double>(got[at(big)]) < 0) ? 1.0 : -1.0;
            for (int64_t i = 0; i < len; ++i) {
                INFO("matrix " << b << ", vector " << v << ", entry " << i << ": got " << sign * got[at(i)]
                               << " (sign-matched), PyTorch " << expected[at(i)]);
                CHECK(close<T>(sign * static_cast<double>(got[at(i)]), expected[at(i)], scale));
            }
        }
}

/// |a - b| within the tolerance for every element (a reconstruction check).
template <class T>
void check_near(const char* what, const tenet::Tensor<T>& a, const tenet::Tensor<T>& b, double scale = 1.0) {
    INFO(what);
    REQUIRE(a.sizes() == b.sizes());
    const auto x = a.to_vector(), y = b.to_vector();
    double worst = 0;
    for (size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::abs(double(x[i]) - double(y[i])));
    INFO("largest difference " << worst);
    CHECK(worst <= 10 * tolerance<T>() * scale);
}

/// n x n identity matrices over the batch dims (a contiguous tensor).
template <class T>
tenet::Tensor<T> eye_batch(int64_t n, const tenet::IntArray& batch) {
    tenet::IntArray shape = batch;
    shape.push_back(n);
    shape.push_back(n);
    return tenet::Tensor<T>(tenet::eye<T>(n, tenet::dtype_t<T>{}).expand(shape)).contiguous();
}
/// The transpose of the last two dims (a view).
template <class T>
tenet::Tensor<T> mT(const tenet::Tensor<T>& t) {
    return t.transpose(-2, -1);
}

/// Reference product in long double, for checks against the GEMM paths.
inline tenet::Tensor<double> naive_matmul(const tenet::Tensor<double>& a, const tenet::Tensor<double>& b) {
    const int64_t n = a.size(0), k = a.size(1), p = b.size(1);
    tenet::Tensor<double> out = tenet::zeros<double>({n, p});
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < p; ++j) {
            long double s = 0;
            for (int64_t q = 0; q < k; ++q) s += static_cast<long double>(a(i, q)) * b(q, j);
            out(i, j) = static_cast<double>(s);
        }
    return out;
}

inline double max_abs_diff(const tenet::Tensor<double>& a, const tenet::Tensor<double>& b) {
    REQUIRE(a.sizes() == b.sizes());
    const auto x = a.to_vector(), y = b.to_vector();
    double m = 0;
    for (size_t i = 0; i < x.size(); ++i) m = std::max(m, std::abs(x[i] - y[i]));
    return m;
}

inline int64_t allocations() { return tenet::host_allocator().stats().allocations; }

}  // namespace linalg_case
