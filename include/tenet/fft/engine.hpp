#pragma once
// The host FFT engine: batched 1-D discrete Fourier transforms of interleaved complex buffers
// (T* pointing at (re, im) pairs, T float or double: std::complex<T>'s layout) along one axis.
//
//   Layout{n, in_stride, out_stride, batch, in_batch_stride, out_batch_stride}
//     n points per row; row b's element j is at in[b * in_batch_stride + j * in_stride] (and
//     likewise for out). Strides count the buffer's own elements: complex values in a complex
//     buffer, reals in a real one; any sign. An n-D transform of a strided tensor is a sequence
//     of these along each dim (in place after the first: in == out with the same layout).
//
//   c2c(in, out, layout, Direction::Forward/Inverse, norm)   X_k = sum_j x_j exp(-+ 2 pi i jk / n)
//   r2c(in, out, layout, norm)   real rows of n in, the n/2 + 1 first outputs out (as rfft)
//   c2r(in, out, layout, norm)   n/2 + 1 Hermitian-half values in, real rows of n out (as irfft;
//                                the imaginary parts of X_0 and, for even n, X_{n/2} are ignored)
//
// norm scales as PyTorch's (norm.hpp). The backend is kissfft with Bluestein's algorithm
// (kissfft_plans.hpp, BSD, the default) or FFTW 3 (fftw_plans.hpp, GPL, where TENET_HAVE_FFTW
// is defined: then the default). c2c may run in place (in == out with the same strides); r2c
// and c2r must not (out must not overlap in), nor may any transform's rows overlap each other
// in out. Plans are cached (plan_cache.hpp). One call runs on the calling thread; calls from
// several threads may run at once.

#include "tenet/config.hpp"
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "tenet/core/errors.hpp"
#include "tenet/fft/kissfft_plans.hpp"
#include "tenet/fft/norm.hpp"
#include "tenet/fft/plan_cache.hpp"
#if defined(TENET_HAVE_FFTW) && TENET_HAVE_FFTW
#include "tenet/fft/fftw_plans.hpp"
#endif

namespace tenet::inline TENET_ABI::fft {

enum class Direction : int8_t { Forward, Inverse };

struct Layout {
    int64_t n = 0;
    int64_t in_stride = 1, out_stride = 1;
    int64_t batch = 1;
    int64_t in_batch_stride = 0, out_batch_stride = 0;
};

/// Whether a host backend is compiled in (KissFFT always; FFTW where TENET_HAVE_FFTW is defined;
/// CuFFT is the device engine's, never the host's).
constexpr bool backend_available(Backend backend) noexcept {
#if defined(TENET_HAVE_FFTW) && TENET_HAVE_FFTW
    return backend != Backend::CuFFT;
#else
    return backend == Backend::KissFFT;
#endif
}

/// FFTW where it is compiled in, kissfft otherwise.
constexpr Backend default_backend() noexcept {
    return backend_available(Backend::FFTW) ? Backend::FFTW : Backend::KissFFT;
}

/// The backend's name: "kissfft", "FFTW" or "cuFFT".
constexpr const char* backend_name(Backend backend) noexcept {
    return backend == Backend::FFTW ? "FFTW" : backend == Backend::CuFFT ? "cuFFT" : "kissfft";
}

namespace detail {

template <class T>
constexpr void check_real_type() {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                  "tenet::fft: the FFT engine works on float and double (complex64 and complex128)");
}

inline void check_layout(const Layout& l, Backend backend, const char* op) {
    if (l.n <= 0)
        tenet::detail::fail<value_error>(op, ": Invalid number of data points (", l.n, ") specified: the length must be positive");
    if (l.batch < 0) tenet::detail::fail<value_error>(op, ": the batch count must be non-negative, got ", l.batch);
    if (backend == Backend::CuFFT)
        tenet::detail::fail<error>(op, ": cuFFT transforms device buffers (kernels/tenet/cuda/fft.cuh), not host ones");
    if (!backend_available(backend))
        tenet::detail::fail<error>(op, ": the FFTW backend is not compiled in (define TENET_HAVE_FFTW=1 and link fftw3 and "
                        "fftw3f; CMake: -DTENET_USE_FFTW=ON)");
}

template <class T>
void scale_rows(T* out, int64_t count, int64_t stride, int64_t batch, int64_t batch_stride, double scale) {
    if (scale == 1.0) return;
    const T s = static_cast<T>(scale);
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t k = 0; k < count; ++k) out[b * batch_stride + k * stride] *= s;
}

}  // namespace detail

/// Complex-to-complex transforms of `layout.batch` rows of n complex values.
template <class T>
void c2c(const T* in, T* out, const Layout& layout, Direction direction, Norm norm = Norm::Backward,
         Backend backend = default_backend()) {
    detail::check_real_type<T>();
    using cpx = std::complex<T>;
    const bool forward = direction == Direction::Forward;
    detail::check_layout(layout, backend, forward ? "fft (c2c forward)" : "ifft (c2c inverse)");
    const auto [n, is, os, batch, ibs, obs] = layout;
    if (batch == 0) return;
    const double scale = norm_scale(norm, n, forward);
#if defined(TENET_HAVE_FFTW) && TENET_HAVE_FFTW
    if (backend == Backend::FFTW) {
        auto plan = detail::fftw_plan<T>(forward ? detail::PlanKind::C2CForward : detail::PlanKind::C2CInverse, n,
                                         is, os, batch, ibs, obs, const_cast<T*>(in), out);
        if (plan->plan) {
            detail::Fftw<T>::execute_c2c(plan->plan, const_cast<T*>(in), out);
            detail::scale_rows(reinterpret_cast<cpx*>(out), n, os, batch, obs, scale);
            return;
        }  // no FFTW plan for this layout: kissfft's below
    }
#endif
    const auto plan = detail::kiss_c2c_plan<T>(n, !forward);
    std::vector<cpx> work(static_cast<size_t>(n + plan->scratch_size()));
    const cpx* x = reinterpret_cast<const cpx*>(in);
    cpx* y = reinterpret_cast<cpx*>(out);
    const T s = static_cast<T>(scale);
    for (int64_t b = 0; b < batch; ++b) {
        plan->run(x + b * ibs, is, work.data(), work.data() + n);
        cpx* row = y + b * obs;
        if (scale == 1.0)
            for (int64_t k = 0; k < n; ++k) row[k * os] = work[k];
        else
            for (int64_t k = 0; k < n; ++k) row[k * os] = work[k] * s;
    }
}

/// Real-to-complex transforms: rows of n reals in, the n/2 + 1 first complex outputs out.
template <class T>
void r2c(const T* in, T* out, const Layout& layout, Norm norm = Norm::Backward, Backend backend = default_backend()) {
    detail::check_real_type<T>();
    using cpx = std::complex<T>;
    detail::check_layout(layout, backend, "rfft (r2c)");
    const auto [n, is, os, batch, ibs, obs] = layout;
    if (batch == 0) return;
    if (static_cast<const void*>(in) == static_cast<const void*>(out))
        tenet::detail::fail<value_error>("rfft (r2c): the output must not overlap the input (in == out)");
    const double scale = norm_scale(norm, n, true);
    const int64_t half = n / 2 + 1;
#if defined(TENET_HAVE_FFTW) && TENET_HAVE_FFTW
    if (backend == Backend::FFTW) {
        auto plan = detail::fftw_plan<T>(detail::PlanKind::R2C, n, is, os, batch, ibs, obs, const_cast<T*>(in), out);
        if (plan->plan) {
            detail::Fftw<T>::execute_r2c(plan->plan, const_cast<T*>(in), out);
            detail::scale_rows(reinterpret_cast<cpx*>(out), half, os, batch, obs, scale);
            return;
        }
    }
#endif
    const auto plan = detail::kiss_real_plan<T>(n, false);
    const int64_t m = plan->c2c->n;
    std::vector<cpx> work(static_cast<size_t>(plan->scratch_size()));
    cpx* z = work.data();
    cpx* zh = work.data() + m;
    cpx* scratch = work.data() + 2 * m;
    const T s = static_cast<T>(scale);
    for (int64_t b = 0; b < batch; ++b) {
        const T* x = in + b * ibs;
        cpx* row = reinterpret_cast<cpx*>(out) + b * obs;
        if (plan->packed()) {
            // z_j = x_2j + i x_2j+1; Z = DFT_m(z); X_k = E_k + w^k O_k with
            // E_k = (Z_k + conj Z_m-k) / 2 and O_k = (Z_k - conj Z_m-k) / 2i.
            for (int64_t j = 0; j < m; ++j) z[j] = cpx(x[2 * j * is], x[(2 * j + 1) * is]);
            plan->c2c->run(z, 1, zh, scratch);
            for (int64_t k = 0; k <= m; ++k) {
                const cpx zk = zh[k == m ? 0 : k], zc = std::conj(zh[k == 0 ? 0 : m - k]);
                const cpx e = (zk + zc) * T(0.5), o = (zk - zc) * cpx(0, T(-0.5));
                row[k * os] = (e + plan->twiddle[k] * o) * s;
            }
        } else {
            for (int64_t j = 0; j < n; ++j) z[j] = cpx(x[j * is], T(0));
            plan->c2c->run(z, 1, zh, scratch);
            for (int64_t k = 0; k < half; ++k) row[k * os] = zh[k] * s;
        }
    }
}

/// Complex-to-real transforms: rows of n/2 + 1 complex values (the Hermitian half) in, rows of
/// n reals out.
template <class T>
void c2r(const T* in, T* out, const Layout& layout, Norm norm = Norm::Backward, Backend backend = default_backend()) {
    detail::check_real_type<T>();
    using cpx = std::complex<T>;
    detail::check_layout(layout, backend, "irfft (c2r)");
    const auto [n, is, os, batch, ibs, obs] = layout;
    if (batch == 0) return;
    if (static_cast<const void*>(in) == static_cast<const void*>(out))
        tenet::detail::fail<value_error>("irfft (c2r): the output must not overlap the input (in == out)");
    const double scale = norm_scale(norm, n, false);
#if defined(TENET_HAVE_FFTW) && TENET_HAVE_FFTW
    if (backend == Backend::FFTW) {
        auto plan = detail::fftw_plan<T>(detail::PlanKind::C2R, n, is, os, batch, ibs, obs, const_cast<T*>(in), out);
        if (plan->plan) {
            detail::Fftw<T>::execute_c2r(plan->plan, const_cast<T*>(in), out);
            detail::scale_rows(out, n, os, batch, obs, scale);
            return;
        }
    }
#endif
    const auto plan = detail::kiss_real_plan<T>(n, true);
    const int64_t m = plan->c2c->n;
    std::vector<cpx> work(static_cast<size_t>(plan->scratch_size()));
    cpx* zh = work.data();
    cpx* z = work.data() + m;
    cpx* scratch = work.data() + 2 * m;
    const T s = static_cast<T>(scale);
    for (int64_t b = 0; b < batch; ++b) {
        const cpx* x = reinterpret_cast<const cpx*>(in) + b * ibs;
        T* row = out + b * obs;
        if (plan->packed()) {
            // The inverse of r2c's separation: Z_k = E_k + i O_k with E_k = X_k + conj X_m-k and
            // O_k = (X_k - conj X_m-k) conj(w^k); z = m-point inverse of Z, x_2j + i x_2j+1 = z_j.
            for (int64_t k = 0; k < m; ++k) {
                cpx xk = x[k * is], xc = std::conj(x[(m - k) * is]);
                if (k == 0) xk = cpx(xk.real(), T(0)), xc = cpx(xc.real(), T(0));
                const cpx e = xk + xc, o = (xk - xc) * plan->twiddle[k];
                zh[k] = e + cpx(-o.imag(), o.real());
            }
            plan->c2c->run(zh, 1, z, scratch);
            for (int64_t j = 0; j < m; ++j) {
                row[2 * j * os] = z[j].real() * s;
                row[(2 * j + 1) * os] = z[j].imag() * s;
            }
        } else {
            zh[0] = cpx(x[0].real(), T(0));
            for (int64_t k = 1; k <= n / 2; ++k) {
                zh[k] = x[k * is];
                zh[n - k] = std::conj(x[k * is]);
            }
            plan->c2c->run(zh, 1, z, scratch);
            for (int64_t j = 0; j < n; ++j) row[j * os] = z[j].real() * s;
        }
    }
}

// The same on std::complex<T> buffers.
template <class T>
void c2c(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, Direction direction,
         Norm norm = Norm::Backward, Backend backend = default_backend()) {
    c2c(reinterpret_cast<const T*>(in), reinterpret_cast<T*>(out), layout, direction, norm, backend);
}
template <class T>
void r2c(const T* in, std::complex<T>* out, const Layout& layout, Norm norm = Norm::Backward,
         Backend backend = default_backend()) {
    r2c(in, reinterpret_cast<T*>(out), layout, norm, backend);
}
template <class T>
void c2r(const std::complex<T>* in, T* out, const Layout& layout, Norm norm = Norm::Backward,
         Backend backend = default_backend()) {
    c2r(reinterpret_cast<const T*>(in), out, layout, norm, backend);
}

}  // namespace tenet::inline TENET_ABI::fft
