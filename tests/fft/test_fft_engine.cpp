// The host FFT engine (tenet/fft/engine.hpp) against the DFT from its definition, summed in long
// double: complex-to-complex both ways, real-to-complex, complex-to-real, every norm, strided
// and batched rows, float and double, kissfft's direct lengths and Bluestein's, and FFTW's path
// where TENET_HAVE_FFTW is defined. Plus round trips, the plan cache and the refusals.
//
// Tolerances, from the error analysis of the FFT: a radix FFT's error in bin k is bounded by
// about eps * log2(n) * ||x||_2 (its rms over the bins is smaller still; Bluestein adds the three
// FFTs of length M < 6n and the chirp products, the same order). Every check here is
//     |X^_k - X_k| <= C * eps * log2(2n) * ||x||_2 * scale        (C = 4)
// with eps the type's machine epsilon and scale the norm's factor; round trips likewise with
// ||x||_2 / sqrt(n) (the error of one output of the inverse). The worst ratio seen is printed
// by the last case (about 0.3 of the bound for kissfft, 0.5 for Bluestein in float).
#include <catch2/catch.hpp>

#include <tenet/fft/engine.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../require_throws.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using fft::Backend;
using fft::Direction;
using fft::Layout;
using fft::Norm;

namespace {

using LD = long double;
using CL = std::complex<LD>;

constexpr Norm kNorms[] = {Norm::Backward, Norm::Ortho, Norm::Forward};
constexpr int64_t kLengths[] = {1, 2, 3, 8, 12, 17, 30, 97, 1024, 1009, 10007};

std::vector<Backend> backends() {
    std::vector<Backend> b{Backend::KissFFT};
    if (fft::backend_available(Backend::FFTW)) b.push_back(Backend::FFTW);
    return b;
}

double worst_ratio = 0;  // the largest error / bound seen

/// The DFT of x at the given bins: sum_j x_j exp(sign 2 pi i jk / n), in long double.
std::vector<CL> dft(const std::vector<CL>& x, int sign, const std::vector<int64_t>& bins) {
    const int64_t n = static_cast<int64_t>(x.size());
    std::vector<CL> w(static_cast<size_t>(n));
    for (int64_t t = 0; t < n; ++t) {
        const LD a = 2 * std::numbers::pi_v<LD> * static_cast<LD>(t) / static_cast<LD>(n);
        w[t] = CL(std::cos(a), sign * std::sin(a));
    }
    std::vector<CL> out;
    for (int64_t k : bins) {
        CL s = 0;
        for (int64_t j = 0; j < n; ++j) s += x[j] * w[(j * k) % n];
        out.push_back(s);
    }
    return out;
}

/// All bins up to 128 points; beyond, 48 bins spread over the spectrum (the long double sums are
/// O(n) each: all bins of every long case would take the test most of a minute at -O0).
std::vector<int64_t> bins_of(int64_t count) {
    std::vector<int64_t> b;
    if (count <= 128) {
        for (int64_t k = 0; k < count; ++k) b.push_back(k);
    } else {
        for (int64_t i = 0; i < 48; ++i) b.push_back(i * (count - 1) / 47);
    }
    return b;
}

LD norm2(const std::vector<CL>& x) {
    LD s = 0;
    for (const CL& v : x) s += std::norm(v);
    return std::sqrt(s);
}

template <class T>
double bound(int64_t n, LD norm_x, double scale) {
    return 4.0 * std::numeric_limits<T>::epsilon() * std::log2(2.0 * static_cast<double>(n)) *
           static_cast<double>(norm_x) * scale;
}

template <class T>
void check_close(const char* what, T got_re, T got_im, const CL& expected, double tol) {
    const double err = static_cast<double>(std::abs(CL(got_re, got_im) - expected));
    worst_ratio = std::max(worst_ratio, err / tol);
    INFO(what << ": got (" << got_re << ", " << got_im << "), expected " << static_cast<double>(expected.real())
              << ", " << static_cast<double>(expected.imag()) << "; error " << err << " > tolerance " << tol);
    CHECK(err <= tol);
}

/// The rows of a layout inside buffers of complex (or real) values: the offset of element 0
/// (negative strides start at the far end) and the buffer's length.
struct Span {
    int64_t base = 0, size = 0;
};
Span span_of(int64_t count, int64_t stride, int64_t batch, int64_t batch_stride) {
    int64_t lo = 0, hi = 0;
    for (int64_t corner : {(count - 1) * stride, (batch - 1) * batch_stride, (count - 1) * stride + (batch - 1) * batch_stride}) {
        lo = std::min(lo, corner);
        hi = std::max(hi, corner);
    }
    return {-lo, hi - lo + 1};
}

struct Strides {
    int64_t is, os, batch, ibs, obs;  // ibs / obs in units of the row's extent (scaled per n below)
};
// Contiguous rows; strided rows with gaps between batches; negative strides; rows interleaved.
constexpr Strides kStrides[] = {{1, 1, 1, 1, 1}, {2, 3, 3, 1, 1}, {-1, 2, 2, -1, 1}, {3, 1, 3, 0, 1}};

/// The batch strides of a case: whole rows apart (times the sign in s), or interleaved (ibs 0:
/// row b starts at element b, the rows' elements `batch` apart).
std::pair<int64_t, int64_t> batch_strides(const Strides& s, int64_t in_extent, int64_t out_extent) {
    const int64_t ibs = s.ibs == 0 ? 1 : s.ibs * (in_extent + 1);
    return {ibs, s.obs * (out_extent + 2)};
}

/// The cases run: every norm on contiguous rows, one norm (in turn) per strided layout; the
/// lengths past 1100 on contiguous rows only.
bool skip(int64_t n, const Strides& st, Norm norm) {
    const auto i = &st - kStrides;
    if (i == 0) return false;
    return n > 1100 || norm != kNorms[i % 3];
}

template <class T>
std::vector<T> random_values(size_t count, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<T> dist(-1, 1);
    std::vector<T> v(count);
    for (auto& x : v) x = dist(gen);
    return v;
}

template <class T>
void check_c2c(int64_t n, const Strides& st, Direction dir, Norm norm, Backend backend) {
    const int64_t batch = n > 1100 ? 1 : st.batch;
    const int64_t is = n > 1100 ? 1 : (st.ibs == 0 ? batch : 1) * st.is, os = n > 1100 ? 1 : st.os;
    auto [ibs, obs] = batch_strides(st, std::abs(is) * n, std::abs(os) * n);
    if (batch == 1) ibs = obs = 0;
    const Span si = span_of(n, is, batch, ibs), so = span_of(n, os, batch, obs);
    std::vector<T> in = random_values<T>(static_cast<size_t>(2 * si.size), static_cast<uint32_t>(n * 7 + batch));
    std::vector<T> out(static_cast<size_t>(2 * so.size), T(-7));
    const Layout layout{n, is, os, batch, ibs, obs};
    fft::c2c(in.data() + 2 * si.base, out.data() + 2 * so.base, layout, dir, norm, backend);
    const bool fwd = dir == Direction::Forward;
    const double scale = fft::norm_scale(norm, n, fwd);
    const auto bins = bins_of(n);
    for (int64_t b = 0; b < batch; ++b) {
        std::vector<CL> x(static_cast<size_t>(n));
        for (int64_t j = 0; j < n; ++j) {
            const int64_t at = 2 * (si.base + b * ibs + j * is);
            x[j] = CL(in[at], in[at + 1]);
        }
        const auto expected = dft(x, fwd ? -1 : 1, bins);
        const double tol = bound<T>(n, norm2(x), scale);
        for (size_t i = 0; i < bins.size(); ++i) {
            const int64_t at = 2 * (so.base + b * obs + bins[i] * os);
            check_close("c2c", out[at], out[at + 1], expected[i] * static_cast<LD>(scale), tol);
        }
    }
}

template <class T>
void check_r2c(int64_t n, const Strides& st, Norm norm, Backend backend) {
    const int64_t half = n / 2 + 1;
    const int64_t batch = n > 1100 ? 1 : st.batch;
    const int64_t is = n > 1100 ? 1 : (st.ibs == 0 ? batch : 1) * st.is, os = n > 1100 ? 1 : st.os;
    auto [ibs, obs] = batch_strides(st, std::abs(is) * n, std::abs(os) * half);
    if (batch == 1) ibs = obs = 0;
    const Span si = span_of(n, is, batch, ibs), so = span_of(half, os, batch, obs);
    std::vector<T> in = random_values<T>(static_cast<size_t>(si.size), static_cast<uint32_t>(n * 5 + batch));
    std::vector<T> out(static_cast<size_t>(2 * so.size), T(-7));
    fft::r2c(in.data() + si.base, out.data() + 2 * so.base, Layout{n, is, os, batch, ibs, obs}, norm, backend);
    const double scale = fft::norm_scale(norm, n, true);
    const auto bins = bins_of(half);
    for (int64_t b = 0; b < batch; ++b) {
        std::vector<CL> x(static_cast<size_t>(n));
        for (int64_t j = 0; j < n; ++j) x[j] = in[si.base + b * ibs + j * is];
        const auto expected = dft(x, -1, bins);
        const double tol = bound<T>(n, norm2(x), scale);
        for (size_t i = 0; i < bins.size(); ++i) {
            const int64_t at = 2 * (so.base + b * obs + bins[i] * os);
            check_close("r2c", out[at], out[at + 1], expected[i] * static_cast<LD>(scale), tol);
        }
    }
}

template <class T>
void check_c2r(int64_t n, const Strides& st, Norm norm, Backend backend) {
    const int64_t half = n / 2 + 1;
    const int64_t batch = n > 1100 ? 1 : st.batch;
    const int64_t is = n > 1100 ? 1 : (st.ibs == 0 ? batch : 1) * st.is, os = n > 1100 ? 1 : st.os;
    auto [ibs, obs] = batch_strides(st, std::abs(is) * half, std::abs(os) * n);
    if (batch == 1) ibs = obs = 0;
    const Span si = span_of(half, is, batch, ibs), so = span_of(n, os, batch, obs);
    // The imaginary parts of X_0 and X_n/2 are random too: c2r ignores them, as pocketfft does.
    std::vector<T> in = random_values<T>(static_cast<size_t>(2 * si.size), static_cast<uint32_t>(n * 3 + batch));
    std::vector<T> out(static_cast<size_t>(so.size), T(-7));
    fft::c2r(in.data() + 2 * si.base, out.data() + so.base, Layout{n, is, os, batch, ibs, obs}, norm, backend);
    const double scale = fft::norm_scale(norm, n, false);
    const auto bins = bins_of(n);
    for (int64_t b = 0; b < batch; ++b) {
        std::vector<CL> x(static_cast<size_t>(n));  // the Hermitian spectrum
        for (int64_t k = 0; k < half; ++k) {
            const int64_t at = 2 * (si.base + b * ibs + k * is);
            const bool real_bin = k == 0 || 2 * k == n;
            x[k] = CL(in[at], real_bin ? T(0) : in[at + 1]);
            if (k > 0) x[n - k] = std::conj(x[k]);
        }
        const auto expected = dft(x, 1, bins);
        const double tol = bound<T>(n, norm2(x), scale);
        for (size_t i = 0; i < bins.size(); ++i) {
            CHECK(std::abs(static_cast<double>(expected[i].imag())) < 1e-12 * static_cast<double>(norm2(x)));
            check_close("c2r", out[so.base + b * obs + bins[i] * os], T(0), CL(expected[i].real()) * static_cast<LD>(scale),
                        tol);
        }
    }
}

}  // namespace

TEMPLATE_TEST_CASE("fft engine: c2c forward and inverse match the DFT", "[fft]", float, double) {
    for (Backend backend : backends())
        for (int64_t n : kLengths)
            for (const Strides& st : kStrides)
                for (Norm norm : kNorms)
                    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
                        if (skip(n, st, norm)) continue;
                        INFO(fft::backend_name(backend) << " n=" << n << " strides " << st.is << "," << st.os << " batch "
                                                        << st.batch << " norm " << fft::norm_name(norm)
                                                        << (dir == Direction::Forward ? " forward" : " inverse"));
                        check_c2c<TestType>(n, st, dir, norm, backend);
                    }
}

TEMPLATE_TEST_CASE("fft engine: r2c and c2r match the DFT", "[fft]", float, double) {
    for (Backend backend : backends())
        for (int64_t n : kLengths)
            for (const Strides& st : kStrides)
                for (Norm norm : kNorms) {
                    if (skip(n, st, norm)) continue;
                    INFO(fft::backend_name(backend) << " n=" << n << " strides " << st.is << "," << st.os << " batch "
                                                    << st.batch << " norm " << fft::norm_name(norm));
                    check_r2c<TestType>(n, st, norm, backend);
                    check_c2r<TestType>(n, st, norm, backend);
                }
}

TEMPLATE_TEST_CASE("fft engine: round trips give the input back for every norm", "[fft]", float, double) {
    using T = TestType;
    for (Backend backend : backends())
        for (int64_t n : {1, 2, 7, 16, 45, 97, 1000, 1009})
            for (Norm norm : kNorms) {
                INFO(fft::backend_name(backend) << " n=" << n << " norm " << fft::norm_name(norm));
                const int64_t batch = 3;
                const std::vector<T> x = random_values<T>(static_cast<size_t>(2 * n * batch), static_cast<uint32_t>(n));
                LD sum = 0;
                for (T v : x) sum += static_cast<LD>(v) * v;
                const double tol = 2 * bound<T>(n, std::sqrt(sum / (2 * batch)), 1.0) / std::sqrt(static_cast<double>(n));
                // ifft(fft(x)), in place the second time.
                std::vector<T> y(x.size());
                const Layout rows{n, 1, 1, batch, n, n};
                fft::c2c(x.data(), y.data(), rows, Direction::Forward, norm, backend);
                fft::c2c(y.data(), y.data(), rows, Direction::Inverse, norm, backend);
                for (size_t i = 0; i < x.size(); ++i) check_close("ifft(fft(x))", y[i], T(0), CL(x[i]), tol);
                // irfft(rfft(x)) of the real rows.
                const int64_t half = n / 2 + 1;
                std::vector<T> spectrum(static_cast<size_t>(2 * half * batch)), back(static_cast<size_t>(n * batch));
                fft::r2c(x.data(), spectrum.data(), Layout{n, 1, 1, batch, n, half}, norm, backend);
                fft::c2r(spectrum.data(), back.data(), Layout{n, 1, 1, batch, half, n}, norm, backend);
                for (size_t i = 0; i < back.size(); ++i) check_close("irfft(rfft(x))", back[i], T(0), CL(x[i]), tol);
            }
}

TEST_CASE("fft engine: std::complex buffers, in place", "[fft]") {
    std::vector<std::complex<double>> x{{1, 2}, {3, -1}, {0.5, 0}, {-2, 4}, {1, 1}};
    const auto original = x;
    fft::c2c(x.data(), x.data(), Layout{5}, Direction::Forward, Norm::Ortho);
    std::vector<CL> xl(original.begin(), original.end());
    const auto expected = dft(xl, -1, bins_of(5));
    for (size_t k = 0; k < 5; ++k)
        check_close("in place", x[k].real(), x[k].imag(), expected[k] / std::sqrt(LD(5)), bound<double>(5, norm2(xl), 1.0));
    std::vector<double> re{1, 2, 3, 4};
    std::vector<std::complex<double>> half(3);
    fft::r2c(re.data(), half.data(), Layout{4});
    CHECK(half[0] == std::complex<double>(10, 0));
    CHECK(half[1] == std::complex<double>(-2, 2));
    CHECK(half[2] == std::complex<double>(-2, 0));
    std::vector<double> back(4);
    fft::c2r(half.data(), back.data(), Layout{4});
    CHECK(back == re);
}

TEST_CASE("fft engine: Bluestein runs a large prime length in O(n log n)", "[fft]") {
    // 100003 is prime: kissfft's generic butterfly would take ~1e10 operations; Bluestein's
    // three FFTs of 200006 -> 202500 = 2^2 3^4 5^4 take a few million. Checked at a few bins.
    const int64_t n = 100003;
    const std::vector<double> x = random_values<double>(static_cast<size_t>(2 * n), 1);
    std::vector<double> y(x.size());
    fft::c2c(x.data(), y.data(), Layout{n}, Direction::Forward, Norm::Backward, Backend::KissFFT);
    std::vector<CL> xl(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) xl[j] = CL(x[2 * j], x[2 * j + 1]);
    const std::vector<int64_t> bins{0, 1, 2, 50001, n - 1};
    const auto expected = dft(xl, -1, bins);
    for (size_t i = 0; i < bins.size(); ++i)
        check_close("n=100003", y[2 * bins[i]], y[2 * bins[i] + 1], expected[i], bound<double>(n, norm2(xl), 1.0));
}

TEST_CASE("fft engine: the 5-smooth lengths Bluestein pads to", "[fft]") {
    using fft::detail::next_5_smooth;
    CHECK(next_5_smooth(1) == 1);
    CHECK(next_5_smooth(7) == 8);
    CHECK(next_5_smooth(33) == 36);
    CHECK(next_5_smooth(2 * 1000003 - 1) == 2025000);
    CHECK(next_5_smooth(1025) == 1080);
    CHECK(fft::detail::is_5_smooth(2025000));
    CHECK_FALSE(fft::detail::is_5_smooth(14));
}

TEST_CASE("fft engine: the plan cache reuses, bounds and clears its plans; threads share it", "[fft]") {
    fft::plan_cache::clear();
    CHECK(fft::plan_cache::size() == 0);
    std::vector<float> x(2 * 17, 1.0f), y(2 * 17);
    fft::c2c(x.data(), y.data(), Layout{17}, Direction::Forward, Norm::Backward, Backend::KissFFT);
    const size_t after_one = fft::plan_cache::size();  // Bluestein's plan and its two of length 36
    CHECK(after_one == 3);
    fft::c2c(x.data(), y.data(), Layout{17}, Direction::Forward, Norm::Backward, Backend::KissFFT);
    CHECK(fft::plan_cache::size() == after_one);
    fft::c2c(x.data(), y.data(), Layout{17}, Direction::Inverse, Norm::Backward, Backend::KissFFT);
    CHECK(fft::plan_cache::size() == after_one + 1);  // the inverse chirp; the length-36 plans are shared
    const size_t max = fft::plan_cache::max_size();
    fft::plan_cache::set_max_size(2);
    CHECK(fft::plan_cache::size() == 2);
    fft::c2c(x.data(), y.data(), Layout{17}, Direction::Forward, Norm::Backward, Backend::KissFFT);
    CHECK(fft::plan_cache::size() == 2);
    CHECK(y[0] == Approx(17.0f).epsilon(1e-5));
    fft::plan_cache::set_max_size(max);

    // Threads transform the same lengths at once (direct and Bluestein), each against the result
    // of one thread alone.
    fft::plan_cache::clear();
    const std::vector<double> in = random_values<double>(2 * 4 * 1009, 9);
    std::vector<double> alone(in.size());
    const Layout rows{1009, 1, 1, 4, 1009, 1009};
    fft::c2c(in.data(), alone.data(), rows, Direction::Forward, Norm::Ortho, Backend::KissFFT);
    fft::plan_cache::clear();
    std::atomic<int> mismatches{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int rep = 0; rep < 5; ++rep) {
                std::vector<double> out(in.size());
                fft::c2c(in.data(), out.data(), rows, Direction::Forward, Norm::Ortho, Backend::KissFFT);
                if (out != alone) ++mismatches;
                if (rep == 2) fft::plan_cache::clear();
            }
        });
    for (auto& th : threads) th.join();
    CHECK(mismatches == 0);
}

TEST_CASE("fft engine: bad input is refused with the op and the value", "[fft]") {
    using Catch::Matchers::Contains;
    std::vector<double> x(16), y(16);
    TENET_REQUIRE_THROWS(fft::c2c(x.data(), y.data(), Layout{0}, Direction::Forward), value_error,
                         Contains("fft (c2c forward)") && Contains("Invalid number of data points (0)"));
    TENET_REQUIRE_THROWS(fft::c2c(x.data(), y.data(), Layout{-3}, Direction::Inverse), value_error,
                         Contains("ifft (c2c inverse)") && Contains("(-3)"));
    TENET_REQUIRE_THROWS(fft::r2c(x.data(), y.data(), Layout{0}), value_error, Contains("rfft (r2c)") && Contains("(0)"));
    TENET_REQUIRE_THROWS(fft::c2r(x.data(), y.data(), Layout{-1}), value_error, Contains("irfft (c2r)") && Contains("(-1)"));
    TENET_REQUIRE_THROWS(fft::c2c(x.data(), y.data(), Layout{4, 1, 1, -2}, Direction::Forward), value_error,
                         Contains("batch count must be non-negative, got -2"));
    TENET_REQUIRE_THROWS(fft::r2c(x.data(), x.data(), Layout{4}), value_error, Contains("must not overlap"));
    TENET_REQUIRE_THROWS(fft::parse_norm("orth", "fft.rfft"), value_error,
                         Contains("fft.rfft") && Contains("Invalid normalization mode: \"orth\""));
    CHECK(fft::parse_norm(std::nullopt) == Norm::Backward);
    CHECK(fft::parse_norm("backward") == Norm::Backward);
    CHECK(fft::parse_norm("ortho") == Norm::Ortho);
    CHECK(fft::parse_norm("forward") == Norm::Forward);
    if (!fft::backend_available(Backend::FFTW))
        TENET_REQUIRE_THROWS(fft::c2c(x.data(), y.data(), Layout{4}, Direction::Forward, Norm::Backward, Backend::FFTW),
                             error, Contains("FFTW backend is not compiled in"));
    // batch 0: nothing to do, nothing written.
    fft::c2c(x.data(), y.data(), Layout{4, 1, 1, 0}, Direction::Forward);
}

TEST_CASE("fft engine: the worst error seen against its bound", "[fft]") {
    std::printf("fft engine: worst error / bound = %.3f\n", worst_ratio);
    CHECK(worst_ratio <= 1.0);
}

}}  // namespace TENET_TEST_FILE
