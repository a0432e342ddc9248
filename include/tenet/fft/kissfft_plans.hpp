#pragma once
// The default host FFT engine's plans: kissfft (Mark Borgerding's header-only kissfft.hh, BSD-3,
// Debian libkissfft-dev) for the lengths whose prime factors are 2, 3 and 5, and Bluestein's
// chirp-z algorithm for every other length.
//
// Why only 2, 3 and 5: kissfft has butterflies for radices 2, 3, 4 and 5; any other prime
// factor p goes through its generic butterfly, which costs O(p) per output of its stage (a prime
// length is O(n^2)), and which writes a `mutable` scratch vector inside the kissfft object, so
// one object could not be shared by threads. A 5-smooth plan only reads its tables (thread-safe,
// cached once), and every other length n is a cyclic convolution of length M >= 2n - 1 (M the
// smallest 5-smooth number there) done by three 5-smooth FFTs: O(n log n) for any n.
//
// A plan transforms one row: `run(in, in_stride, out, scratch)` reads n complex values at
// in[0], in[in_stride], ... and writes the unscaled DFT to out[0..n) (contiguous, distinct from
// in and scratch); scratch holds scratch_size() complex values. engine.hpp drives the rows.

#include "tenet/config.hpp"
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <numbers>
#include <vector>

#if !__has_include(<kissfft/kissfft.hh>)
#error "tenet/fft needs kissfft's C++ header <kissfft/kissfft.hh> (Debian/Ubuntu: libkissfft-dev)"
#endif
#include <kissfft/kissfft.hh>

#include "tenet/fft/plan_cache.hpp"

namespace tenet::inline TENET_ABI::fft::detail {

/// Whether n's prime factors are all 2, 3 or 5.
constexpr bool is_5_smooth(int64_t n) noexcept {
    if (n < 1) return false;
    for (int64_t p : {2, 3, 5})
        while (n % p == 0) n /= p;
    return n == 1;
}

/// The smallest 5-smooth number >= n (1 <= n <= 2^61): each 5^a 3^b <= 2n times the smallest
/// power of two that brings it to n or more.
constexpr int64_t next_5_smooth(int64_t n) noexcept {
    int64_t best = 1;
    while (best < n) best *= 2;  // the power of two: an upper bound
    for (int64_t p5 = 1; p5 < best; p5 *= 5)
        for (int64_t p35 = p5; p35 < best; p35 *= 3) {
            int64_t v = p35;
            while (v < n) v *= 2;
            if (v < best) best = v;
        }
    return best;
}

/// exp(sign * 2 pi i * k / n), computed in double (the tables are as exact as the type allows).
template <class T>
std::complex<T> unit_root(int64_t k, int64_t n, int sign) {
    k %= n;
    if ((4 * k) % n == 0) {  // the quarter turns exactly (sin(pi) is not 0 in double)
        const int64_t q = 4 * k / n;
        return q == 0 ? std::complex<T>(1, 0) : q == 2 ? std::complex<T>(-1, 0) : std::complex<T>(0, q == 1 ? sign : -sign);
    }
    const double angle = sign * 2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n);
    return {static_cast<T>(std::cos(angle)), static_cast<T>(std::sin(angle))};
}

template <class T>
struct KissC2CPlan : PlanBase {
    using cpx = std::complex<T>;
    int64_t n = 0;
    bool inverse = false;
    // Direct (5-smooth n):
    std::unique_ptr<kissfft<T>> kiss;
    // Bluestein (any other n):
    int64_t m = 0;                                        // convolution length (5-smooth)
    std::shared_ptr<const KissC2CPlan> conv_fwd, conv_inv;  // the length-m plans
    std::vector<cpx> chirp;                               // c_k = exp(-+ i pi k^2 / n)
    std::vector<cpx> kernel_hat;                          // FFT_m(conj(c)), wrapped, divided by m

    bool direct() const noexcept { return kiss != nullptr || n == 1; }
    int64_t scratch_size() const noexcept { return direct() ? n : 2 * m; }

    void run(const cpx* in, int64_t in_stride, cpx* out, cpx* scratch) const {
        if (n == 1) {
            out[0] = in[0];
            return;
        }
        if (kiss) {
            if (in_stride > 0) {
                kiss->transform(in, out, 0, 1, static_cast<size_t>(in_stride));
            } else {  // kissfft takes an unsigned stride: gather first
                for (int64_t j = 0; j < n; ++j) scratch[j] = in[j * in_stride];
                kiss->transform(scratch, out);
            }
            return;
        }
        // Bluestein: with jk = (j^2 + k^2 - (k - j)^2) / 2, X_k = c_k sum_j (x_j c_j) conj(c_{k-j}).
        cpx* a = scratch;
        cpx* b = scratch + m;
        for (int64_t j = 0; j < n; ++j) a[j] = in[j * in_stride] * chirp[j];
        for (int64_t j = n; j < m; ++j) a[j] = cpx(0);
        conv_fwd->kiss->transform(a, b);
        for (int64_t j = 0; j < m; ++j) b[j] *= kernel_hat[j];
        conv_inv->kiss->transform(b, a);
        for (int64_t k = 0; k < n; ++k) out[k] = a[k] * chirp[k];
    }
};

template <class T>
std::shared_ptr<const KissC2CPlan<T>> kiss_c2c_plan(int64_t n, bool inverse);

template <class T>
std::shared_ptr<const KissC2CPlan<T>> make_kiss_c2c_plan(int64_t n, bool inverse) {
    using cpx = std::complex<T>;
    auto plan = std::make_shared<KissC2CPlan<T>>();
    plan->n = n;
    plan->inverse = inverse;
    if (n == 1) return plan;
    if (is_5_smooth(n)) {
        plan->kiss = std::make_unique<kissfft<T>>(static_cast<size_t>(n), inverse);
        return plan;
    }
    const int64_t m = next_5_smooth(2 * n - 1);
    plan->m = m;
    plan->conv_fwd = kiss_c2c_plan<T>(m, false);
    plan->conv_inv = kiss_c2c_plan<T>(m, true);
    // c_k = exp(-+ i pi k^2 / n) = exp(-+ 2 pi i (k^2 mod 2n) / (2n)); k^2 mod 2n kept exactly.
    plan->chirp.resize(static_cast<size_t>(n));
    const int sign = inverse ? 1 : -1;
    int64_t k2 = 0;  // k^2 mod 2n
    for (int64_t k = 0; k < n; ++k) {
        plan->chirp[k] = unit_root<T>(k2, 2 * n, sign);
        k2 = (k2 + 2 * k + 1) % (2 * n);
    }
    std::vector<cpx> kernel(static_cast<size_t>(m), cpx(0));
    kernel[0] = std::conj(plan->chirp[0]);
    for (int64_t k = 1; k < n; ++k) kernel[k] = kernel[m - k] = std::conj(plan->chirp[k]);
    plan->kernel_hat.resize(static_cast<size_t>(m));
    plan->conv_fwd->kiss->transform(kernel.data(), plan->kernel_hat.data());
    const T inv_m = static_cast<T>(1.0 / static_cast<double>(m));
    for (auto& v : plan->kernel_hat) v *= inv_m;
    return plan;
}

template <class T>
std::shared_ptr<const KissC2CPlan<T>> kiss_c2c_plan(int64_t n, bool inverse) {
    const PlanKey key{Backend::KissFFT, static_cast<int8_t>(sizeof(T)),
                      inverse ? PlanKind::C2CInverse : PlanKind::C2CForward, n};
    return PlanCache::instance().get<KissC2CPlan<T>>(key, [&] { return make_kiss_c2c_plan<T>(n, inverse); });
}

/// Real-to-complex (kind R2C) and complex-to-real (kind C2R) plans of length n. An even n is
/// packed into a complex transform of n/2 (the even samples as real parts, the odd ones as
/// imaginary parts) and separated with the twiddles w^k = exp(-+ 2 pi i k / n); an odd n runs
/// the complex transform of n.
template <class T>
struct KissRealPlan : PlanBase {
    using cpx = std::complex<T>;
    int64_t n = 0;
    std::shared_ptr<const KissC2CPlan<T>> c2c;  // of n/2 (even n) or n (odd n)
    std::vector<cpx> twiddle;                   // w^k, k in [0, n/2] (even n)

    bool packed() const noexcept { return n % 2 == 0; }
    /// Complex values of scratch a row needs: the packed input and the transform's output.
    int64_t scratch_size() const noexcept { return 2 * c2c->n + c2c->scratch_size(); }
};

template <class T>
std::shared_ptr<const KissRealPlan<T>> kiss_real_plan(int64_t n, bool c2r) {
    const PlanKey key{Backend::KissFFT, static_cast<int8_t>(sizeof(T)), c2r ? PlanKind::C2R : PlanKind::R2C, n};
    return PlanCache::instance().get<KissRealPlan<T>>(key, [&] {
        auto plan = std::make_shared<KissRealPlan<T>>();
        plan->n = n;
        if (n % 2 == 0) {
            plan->c2c = kiss_c2c_plan<T>(n / 2, c2r);
            plan->twiddle.resize(static_cast<size_t>(n / 2 + 1));
            for (int64_t k = 0; k <= n / 2; ++k) plan->twiddle[k] = unit_root<T>(k, n, c2r ? 1 : -1);
        } else {
            plan->c2c = kiss_c2c_plan<T>(n, c2r);
        }
        return plan;
    });
}

}  // namespace tenet::inline TENET_ABI::fft::detail
