#pragma once
// Window functions, as PyTorch 1.13's torch.hann_window, hamming_window, blackman_window,
// bartlett_window and kaiser_window: float32 unless a dtype is given (kFloat64 or a template
// argument); a window of 0 points is empty, of 1 point [1]; a periodic window of n points is the
// symmetric window of n + 1 points without its last. The values are computed as PyTorch's CPU
// kernels compute them, in the element type (arange, then the scalar factors rounded to it).
// Integer element types are refused at compile time (PyTorch: "expects floating point dtypes");
// float16 and bfloat16 too (PyTorch's CPU cos has no Half kernel). A negative length throws
// value_error naming the function and the length.

#include "tenet/config.hpp"
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <type_traits>

#include "tenet/core/tensor.hpp"
#include "tenet/ops/creation.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {

/// The Chebyshev series sum of Cephes' chbevl.
template <class T>
T chbevl(T x, const double* coeffs, size_t len) {
    T b0 = static_cast<T>(coeffs[0]), b1 = 0, b2 = 0;
    for (size_t i = 1; i < len; ++i) {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + static_cast<T>(coeffs[i]);
    }
    return T(0.5) * (b0 - b2);
}

/// The modified Bessel function of the first kind of order zero, I0(x), by the Cephes Math
/// Library's Chebyshev expansions of exp(-x) I0(x) on [0, 8] and exp(-x) sqrt(x) I0(x) on
/// (8, inf) (Cephes is BSD-licensed; PyTorch's calc_i0 is the same computation, in the element type).
template <class T>
T bessel_i0(T x) {
    static constexpr double A[] = {
        -4.41534164647933937950E-18, 3.33079451882223809783E-17,  -2.43127984654795469359E-16,
        1.71539128555513303061E-15,  -1.16853328779934516808E-14, 7.67618549860493561688E-14,
        -4.85644678311192946090E-13, 2.95505266312963983461E-12,  -1.72682629144155570723E-11,
        9.67580903537323691224E-11,  -5.18979560163526290666E-10, 2.65982372468238665035E-9,
        -1.30002500998624804212E-8,  6.04699502254191894932E-8,   -2.67079385394061173391E-7,
        1.11738753912010371815E-6,   -4.41673835845875056359E-6,  1.64484480707288970893E-5,
        -5.75419501008210370398E-5,  1.88502885095841655729E-4,   -5.76375574538582365885E-4,
        1.63947561694133579842E-3,   -4.32430999505057594430E-3,  1.05464603945949983183E-2,
        -2.37374148058994688156E-2,  4.93052842396707084878E-2,   -9.49010970480476444210E-2,
        1.71620901522208775349E-1,   -3.04682672343198398683E-1,  6.76795274409476084995E-1};
    static constexpr double B[] = {
        -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
        3.46122286769746109310E-17,  -2.82762398051658348494E-16, -3.42548561967721913462E-16,
        1.77256013305652638360E-15,  3.81168066935262242075E-15,  -9.55484669882830764870E-15,
        -4.15056934728722208663E-14, 1.54008621752140982691E-14,  3.85277838274214270114E-13,
        7.18012445138366623367E-13,  -1.79417853150680611778E-12, -1.32158118404477131188E-11,
        -3.14991652796324136454E-11, 1.18891471078464383424E-11,  4.94060238822496958910E-10,
        3.39623202570838634515E-9,   2.26666899049817806459E-8,   2.04891858946906374183E-7,
        2.89137052083475648297E-6,   6.88975834691682398426E-5,   3.36911647825569408990E-3,
        8.04490411014108831608E-1};
    x = std::abs(x);
    if (x <= T(8)) return std::exp(x) * chbevl(x / T(2) - T(2), A, std::size(A));
    return std::exp(x) * chbevl(T(32) / x - T(2), B, std::size(B)) / std::sqrt(x);
}

template <class T>
constexpr void check_window_type() {
    static_assert(std::is_floating_point_v<T>,
                  "tenet: window functions expect floating point dtypes (float32 or float64), as PyTorch's");
}

/// The window of `length` points (after PyTorch's checks and its 0- and 1-point cases): `fill(p, m)`
/// writes the symmetric window of m points to p; periodic windows take m = length + 1 and drop
/// the last point.
template <class T, class Fill>
Tensor<T> make_window(const char* op, int64_t length, bool periodic, TensorOptions options, Fill&& fill) {
    if (length < 0) fail<value_error>(op, " requires non-negative window_length, got window_length=", length);
    check_device_supported(options.device(), op);
    Tensor<T> t = empty<T>({length});
    if (length == 1) t.data_ptr()[0] = T(1);
    if (length > 1) {
        if (periodic) {
            Tensor<T> full = empty<T>({length + 1});
            fill(full.data_ptr(), length + 1);
            for (int64_t i = 0; i < length; ++i) t.data_ptr()[i] = full.data_ptr()[i];
        } else {
            fill(t.data_ptr(), length);
        }
    }
    return on_device(t, options);
}

}  // namespace detail

/// torch.hamming_window: alpha - beta cos(2 pi k / (N - 1)).
template <class T = float>
Tensor<T> hamming_window(int64_t window_length, bool periodic = true, double alpha = 0.54, double beta = 0.46,
                         TensorOptions options = {}) {
    detail::check_window_type<T>();
    return detail::make_window<T>("hamming_window", window_length, periodic, options, [&](T* p, int64_t n) {
        const T step = static_cast<T>(std::numbers::pi * 2.0 / static_cast<double>(n - 1));
        const T a = static_cast<T>(alpha), minus_b = static_cast<T>(-beta);
        for (int64_t k = 0; k < n; ++k) p[k] = std::cos(static_cast<T>(k) * step) * minus_b + a;
    });
}
template <class T>
Tensor<T> hamming_window(int64_t window_length, dtype_t<T>, TensorOptions options = {}) {
    return hamming_window<T>(window_length, true, 0.54, 0.46, options);
}
template <class T>
Tensor<T> hamming_window(int64_t window_length, bool periodic, dtype_t<T>, TensorOptions options = {}) {
    return hamming_window<T>(window_length, periodic, 0.54, 0.46, options);
}
template <class T>
Tensor<T> hamming_window(int64_t window_length, bool periodic, double alpha, dtype_t<T>, TensorOptions options = {}) {
    return hamming_window<T>(window_length, periodic, alpha, 0.46, options);
}
template <class T>
Tensor<T> hamming_window(int64_t window_length, bool periodic, double alpha, double beta, dtype_t<T>,
                         TensorOptions options = {}) {
    return hamming_window<T>(window_length, periodic, alpha, beta, options);
}

/// torch.hann_window: 0.5 - 0.5 cos(2 pi k / (N - 1)) (hamming_window with alpha = beta = 0.5;
/// errors name hann_window).
template <class T = float>
Tensor<T> hann_window(int64_t window_length, bool periodic = true, TensorOptions options = {}) {
    detail::check_window_type<T>();
    if (window_length < 0)
        detail::fail<value_error>("hann_window requires non-negative window_length, got window_length=", window_length);
    return hamming_window<T>(window_length, periodic, 0.5, 0.5, options);
}
template <class T>
Tensor<T> hann_window(int64_t window_length, dtype_t<T>, TensorOptions options = {}) {
    return hann_window<T>(window_length, true, options);
}
template <class T>
Tensor<T> hann_window(int64_t window_length, bool periodic, dtype_t<T>, TensorOptions options = {}) {
    return hann_window<T>(window_length, periodic, options);
}

/// torch.blackman_window: 0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1)).
template <class T = float>
Tensor<T> blackman_window(int64_t window_length, bool periodic = true, TensorOptions options = {}) {
    detail::check_window_type<T>();
    return detail::make_window<T>("blackman_window", window_length, periodic, options, [](T* p, int64_t n) {
        const T step = static_cast<T>(std::numbers::pi / static_cast<double>(n - 1));
        for (int64_t k = 0; k < n; ++k) {
            const T w = static_cast<T>(k) * step;
            p[k] = std::cos(w * T(4)) * T(0.08) - std::cos(w * T(2)) * T(0.5) + T(0.42);
        }
    });
}
template <class T>
Tensor<T> blackman_window(int64_t window_length, dtype_t<T>, TensorOptions options = {}) {
    return blackman_window<T>(window_length, true, options);
}
template <class T>
Tensor<T> blackman_window(int64_t window_length, bool periodic, dtype_t<T>, TensorOptions options = {}) {
    return blackman_window<T>(window_length, periodic, options);
}

/// torch.bartlett_window: the triangle 2k / (N - 1) up to the middle, 2 - 2k / (N - 1) after.
template <class T = float>
Tensor<T> bartlett_window(int64_t window_length, bool periodic = true, TensorOptions options = {}) {
    detail::check_window_type<T>();
    return detail::make_window<T>("bartlett_window", window_length, periodic, options, [](T* p, int64_t n) {
        const T step = static_cast<T>(2.0 / static_cast<double>(n - 1));
        const int64_t first_half = ((n - 1) >> 1) + 1;
        for (int64_t k = 0; k < n; ++k) {
            const T w = static_cast<T>(k) * step;
            p[k] = k < first_half ? w : w * T(-1) + T(2);
        }
    });
}
template <class T>
Tensor<T> bartlett_window(int64_t window_length, dtype_t<T>, TensorOptions options = {}) {
    return bartlett_window<T>(window_length, true, options);
}
template <class T>
Tensor<T> bartlett_window(int64_t window_length, bool periodic, dtype_t<T>, TensorOptions options = {}) {
    return bartlett_window<T>(window_length, periodic, options);
}

/// torch.kaiser_window: I0(beta sqrt(1 - ((k - a) / a)^2)) / I0(beta), a = (N - 1) / 2.
template <class T = float>
Tensor<T> kaiser_window(int64_t window_length, bool periodic = true, double beta = 12.0, TensorOptions options = {}) {
    detail::check_window_type<T>();
    return detail::make_window<T>("kaiser_window", window_length, periodic, options, [&](T* p, int64_t n) {
        const T a = static_cast<T>(static_cast<double>(n - 1) / 2.0), b = static_cast<T>(beta);
        const T i0_beta = detail::bessel_i0(b);
        for (int64_t k = 0; k < n; ++k) {
            const T r = (static_cast<T>(k) - a) / a;
            p[k] = detail::bessel_i0(b * std::sqrt(T(1) - std::pow(r, T(2)))) / i0_beta;
        }
    });
}
template <class T>
Tensor<T> kaiser_window(int64_t window_length, dtype_t<T>, TensorOptions options = {}) {
    return kaiser_window<T>(window_length, true, 12.0, options);
}
template <class T>
Tensor<T> kaiser_window(int64_t window_length, bool periodic, dtype_t<T>, TensorOptions options = {}) {
    return kaiser_window<T>(window_length, periodic, 12.0, options);
}
template <class T>
Tensor<T> kaiser_window(int64_t window_length, bool periodic, double beta, dtype_t<T>, TensorOptions options = {}) {
    return kaiser_window<T>(window_length, periodic, beta, options);
}

}  // namespace tenet::inline TENET_ABI
