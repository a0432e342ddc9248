#pragma once
// The complex element type `tenet::complex<T>` (T = float: complex64, T = double: complex128),
// as c10::complex: two T's, the real part then the imaginary part, aligned to their pair, so a
// buffer of them is an interleaved (re, im) array and layout-compatible with std::complex<T>.
// Arithmetic with itself and with real numbers is written here (host and device); the
// transcendental functions delegate to std::complex on the host and, in nvcc's device pass, to
// libcu++'s cuda::std::complex (the same algorithms, callable in kernels).

#include "tenet/config.hpp"
#include "tenet/core/host_device.hpp"

#include <cmath>
#include <complex>
#include <type_traits>
#if defined(__CUDACC__)
#include <cuda/std/complex>
#endif

namespace tenet::inline TENET_ABI {

template <class T>
struct alignas(2 * sizeof(T)) complex {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                  "tenet: complex<T> is defined for T = float (complex64) and T = double (complex128)");
    using value_type = T;

    T real_ = T(0);
    T imag_ = T(0);

    constexpr complex() = default;
    TENET_HD constexpr complex(T re, T im = T(0)) : real_(re), imag_(im) {}  // NOLINT: implicit from a real, as c10
    /// From another real number type (int, double into complex<float>, ...): the real part.
    template <class U>
        requires(std::is_arithmetic_v<U> && !std::is_same_v<U, T>)
    TENET_HD constexpr complex(U re) : real_(static_cast<T>(re)) {}  // NOLINT
    /// complex64 <-> complex128 (explicit when it narrows, as c10).
    template <class U>
        requires(!std::is_same_v<U, T>)
    TENET_HD explicit(sizeof(U) > sizeof(T)) constexpr complex(const complex<U>& o)
        : real_(static_cast<T>(o.real())), imag_(static_cast<T>(o.imag())) {}
    constexpr complex(const std::complex<T>& c) : real_(c.real()), imag_(c.imag()) {}  // NOLINT
    constexpr operator std::complex<T>() const { return {real_, imag_}; }                // NOLINT

    TENET_HD constexpr T real() const { return real_; }
    TENET_HD constexpr T imag() const { return imag_; }
    TENET_HD constexpr void real(T v) { real_ = v; }
    TENET_HD constexpr void imag(T v) { imag_ = v; }

    TENET_HD constexpr complex& operator+=(const complex& o) {
        real_ += o.real_;
        imag_ += o.imag_;
        return *this;
    }
    TENET_HD constexpr complex& operator-=(const complex& o) {
        real_ -= o.real_;
        imag_ -= o.imag_;
        return *this;
    }
    TENET_HD constexpr complex& operator*=(const complex& o) {
        const T re = real_ * o.real_ - imag_ * o.imag_;
        imag_ = real_ * o.imag_ + imag_ * o.real_;
        real_ = re;
        return *this;
    }
    /// Smith's scaled division (as c10::complex): no overflow for large divisors.
    TENET_HD constexpr complex& operator/=(const complex& o) {
        const T ar = std::abs(o.real_), ai = std::abs(o.imag_);
        if (ar >= ai) {
            if (ar == T(0) && ai == T(0)) {  // x / 0: IEEE's per-part division, as c10
                real_ = real_ / ar;
                imag_ = imag_ / ai;
                return *this;
            }
            const T rat = o.imag_ / o.real_, scl = T(1) / (o.real_ + o.imag_ * rat);
            const T re = (real_ + imag_ * rat) * scl;
            imag_ = (imag_ - real_ * rat) * scl;
            real_ = re;
        } else {
            const T rat = o.real_ / o.imag_, scl = T(1) / (o.imag_ + o.real_ * rat);
            const T re = (real_ * rat + imag_) * scl;
            imag_ = (imag_ * rat - real_) * scl;
            real_ = re;
        }
        return *this;
    }

    TENET_HD friend constexpr complex operator+(complex a, const complex& b) { return a += b; }
    TENET_HD friend constexpr complex operator-(complex a, const complex& b) { return a -= b; }
    TENET_HD friend constexpr complex operator*(complex a, const complex& b) { return a *= b; }
    TENET_HD friend constexpr complex operator/(complex a, const complex& b) { return a /= b; }
    TENET_HD friend constexpr complex operator+(const complex& a) { return a; }
    TENET_HD friend constexpr complex operator-(const complex& a) { return {-a.real_, -a.imag_}; }
    // With a real number of the same precision (other real types convert through the constructor).
    TENET_HD friend constexpr complex operator+(complex a, T b) { return {a.real_ + b, a.imag_}; }
    TENET_HD friend constexpr complex operator+(T a, complex b) { return {a + b.real_, b.imag_}; }
    TENET_HD friend constexpr complex operator-(complex a, T b) { return {a.real_ - b, a.imag_}; }
    TENET_HD friend constexpr complex operator-(T a, complex b) { return {a - b.real_, -b.imag_}; }
    TENET_HD friend constexpr complex operator*(complex a, T b) { return {a.real_ * b, a.imag_ * b}; }
    TENET_HD friend constexpr complex operator*(T a, complex b) { return {a * b.real_, a * b.imag_}; }
    TENET_HD friend constexpr complex operator/(complex a, T b) { return {a.real_ / b, a.imag_ / b}; }
    TENET_HD friend constexpr complex operator/(T a, complex b) { return complex(a) / b; }

    TENET_HD friend constexpr bool operator==(const complex& a, const complex& b) {
        return a.real_ == b.real_ && a.imag_ == b.imag_;
    }
    TENET_HD friend constexpr bool operator==(const complex& a, T b) { return a.real_ == b && a.imag_ == T(0); }
};

using complex64_t = complex<float>;
using complex128_t = complex<double>;

/// Whether T is tenet::complex<float> or tenet::complex<double>.
namespace detail {
template <class T>
struct is_complex_type : std::false_type {};
template <class T>
struct is_complex_type<complex<T>> : std::true_type {};
}  // namespace detail
template <class T>
inline constexpr bool is_complex_v = detail::is_complex_type<T>::value;

namespace detail {
/// The real type of an element type: float for complex<float>, T itself for real T.
template <class T>
struct real_of {
    using type = T;
};
template <class T>
struct real_of<complex<T>> {
    using type = T;
};
}  // namespace detail
/// float for complex64, double for complex128, T itself for a real T.
template <class T>
using real_t = typename detail::real_of<T>::type;

// ---- Functions (ADL finds them for tenet::complex; the transcendental ones use std::complex) ----
template <class T>
TENET_HD constexpr T real(const complex<T>& z) {
    return z.real();
}
template <class T>
TENET_HD constexpr T imag(const complex<T>& z) {
    return z.imag();
}
template <class T>
TENET_HD constexpr complex<T> conj(const complex<T>& z) {
    return {z.real(), -z.imag()};
}
/// |z|, without overflow (hypot).
template <class T>
TENET_HD T abs(const complex<T>& z) {
    return std::hypot(z.real(), z.imag());
}
template <class T>
TENET_HD T arg(const complex<T>& z) {
    return std::atan2(z.imag(), z.real());
}
/// |z|^2.
template <class T>
TENET_HD constexpr T norm(const complex<T>& z) {
    return z.real() * z.real() + z.imag() * z.imag();
}
template <class T>
    requires std::is_floating_point_v<T>
TENET_HD complex<T> polar(T r, T theta) {
    return {r * std::cos(theta), r * std::sin(theta)};
}

// The standard library whose complex functions compute: std::complex's on the host (the host
// path is unchanged by device support), libcu++'s cuda::std::complex's in nvcc's device pass.
#if defined(__CUDA_ARCH__)
#define TENET_COMPLEX_STD_NS ::cuda::std
#else
#define TENET_COMPLEX_STD_NS std
#endif
namespace detail {
/// A standard complex value (either library's) as tenet's.
template <class T, class S>
TENET_HD complex<T> from_std(const S& z) {
    return complex<T>(z.real(), z.imag());
}
}  // namespace detail
#define TENET_COMPLEX_STD_FUNCTION(NAME)                                                                   \
    template <class T>                                                                                     \
    TENET_HD complex<T> NAME(const complex<T>& z) {                                                        \
        return detail::from_std<T>(TENET_COMPLEX_STD_NS::NAME(TENET_COMPLEX_STD_NS::complex<T>(z.real(), z.imag()))); \
    }
TENET_COMPLEX_STD_FUNCTION(exp)
TENET_COMPLEX_STD_FUNCTION(log)
TENET_COMPLEX_STD_FUNCTION(log10)
TENET_COMPLEX_STD_FUNCTION(sqrt)
TENET_COMPLEX_STD_FUNCTION(sin)
TENET_COMPLEX_STD_FUNCTION(cos)
TENET_COMPLEX_STD_FUNCTION(tan)
TENET_COMPLEX_STD_FUNCTION(asin)
TENET_COMPLEX_STD_FUNCTION(acos)
TENET_COMPLEX_STD_FUNCTION(atan)
TENET_COMPLEX_STD_FUNCTION(sinh)
TENET_COMPLEX_STD_FUNCTION(cosh)
TENET_COMPLEX_STD_FUNCTION(tanh)
TENET_COMPLEX_STD_FUNCTION(asinh)
TENET_COMPLEX_STD_FUNCTION(acosh)
TENET_COMPLEX_STD_FUNCTION(atanh)
#undef TENET_COMPLEX_STD_FUNCTION

template <class T>
TENET_HD complex<T> pow(const complex<T>& a, const complex<T>& b) {
    using S = TENET_COMPLEX_STD_NS::complex<T>;
    return detail::from_std<T>(TENET_COMPLEX_STD_NS::pow(S(a.real(), a.imag()), S(b.real(), b.imag())));
}
template <class T>
TENET_HD complex<T> pow(const complex<T>& a, T b) {
    using S = TENET_COMPLEX_STD_NS::complex<T>;
    return detail::from_std<T>(TENET_COMPLEX_STD_NS::pow(S(a.real(), a.imag()), b));
}
#undef TENET_COMPLEX_STD_NS

}  // namespace tenet
