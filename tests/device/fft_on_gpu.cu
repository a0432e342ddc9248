// A check for a machine with a GPU (CI has none): complex tensors on the device and torch.fft
// through cuFFT (fft/device_engine.hpp, kernels/tenet/cuda/fft.cuh), against the same calls on
// the host (whose values the PyTorch-generated cases of tests/fft/fft_cases.txt and
// tests/complex/complex_cases.txt pin): fft, ifft, rfft, irfft, hfft, ihfft, fft2, ifft2, fftn,
// rfftn, irfftn, irfft2 with every norm, padding and cutting, stft and istft, a prime length,
// transposed, sliced and expanded inputs, float and double; and complex pointwise expressions
// (arithmetic, conj, abs, angle, exp, log, sqrt, the trigonometric functions, pow, real/imag
// views, moves and conversions; sum, mean and prod). A result matches when every element is
// within 1e-5 (float) or 1e-12 (double) of the host's, relative to the host result's largest
// magnitude (an FFT's error spreads over the whole output). Not part of a test binary. Build and
// run from the repository root:
//   nvcc -std=c++20 -O1 -Xptxas=-O1 -arch=sm_90 --expt-relaxed-constexpr -Xcompiler=-fopenmp -Iinclude -Ikernels \
//        -I/usr/include/eigen3 tests/device/fft_on_gpu.cu -o fft_on_gpu -lcublas -lcufft
// Exit 0: every value within tolerance; 1: a mismatch; 77: no GPU.
#include <tenet/tenet.hpp>
#include <tenet/fft.hpp>
#include "gpu_check.hpp"
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>
using namespace tenet;

namespace {

template <class V>
double magnitude(const V& v) {
    if constexpr (is_complex_v<V>) return static_cast<double>(tenet::abs(v));
    else return std::abs(static_cast<double>(v));
}

/// A device result against the host's, within tolerance relative to the host's largest magnitude.
template <class V>
void compare_max(const std::string& what, const Tensor<V>& device, const Tensor<V>& host) {
    const double rtol = sizeof(real_t<V>) == 4 ? 1e-5 : 1e-12;
    int bad = 0;
    bool on_device = device.defined() && device.is_cuda();
    if (!on_device || device.sizes() != host.sizes()) {
        bad = 1;
    } else {
        const auto d = device.cpu().contiguous().to_vector(), h = host.contiguous().to_vector();
        double scale = 1e-30;
        for (const V& e : h) scale = std::max(scale, magnitude(e));
        for (size_t k = 0; k < d.size(); ++k) {
            const double err = magnitude(V(d[k] - h[k]));
            if (!(err <= rtol * scale)) ++bad;
        }
    }
    std::printf("%-52s %s: %d mismatches%s\n", what.c_str(), sizeof(real_t<V>) == 4 ? "float32" : "float64", bad,
                on_device ? "" : " (result not on the device)");
    failures += bad != 0;
}

template <class T>
Tensor<T> signal(const IntArray& sizes, double f) {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    std::vector<T> v(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) v[static_cast<size_t>(k)] = static_cast<T>(std::sin(f * k) * 2 + std::cos(0.013 * k * k));
    return tensor(v, sizes);
}

template <class T>
void check_fft(const Device& cuda) {
    using C = complex<T>;
    const Tensor<T> xr = signal<T>({5, 64}, 0.37), xi = signal<T>({5, 64}, 0.71);
    const Tensor<C> xc = make_complex(xr, xi);
    const Tensor<C> xcd = xc.to(cuda);
    const Tensor<T> xrd = xr.to(cuda);
    const Tensor<T> prime = signal<T>({3, 257}, 0.19), primed = prime.to(cuda);
    const Tensor<T> cube = signal<T>({4, 6, 10}, 0.23), cubed = cube.to(cuda);
    for (const char* norm : {"backward", "ortho", "forward"}) {
        const std::string nm = std::string(" norm=") + norm;
        compare_max("fft" + nm, fft::fft(xcd, std::nullopt, -1, norm), fft::fft(xc, std::nullopt, -1, norm));
        compare_max("ifft" + nm, fft::ifft(xcd, std::nullopt, -1, norm), fft::ifft(xc, std::nullopt, -1, norm));
        compare_max("fft n=100 (padded), dim 0" + nm, fft::fft(xcd, 100, 0, norm), fft::fft(xc, 100, 0, norm));
        compare_max("fft n=40 (cut) of real input" + nm, fft::fft(xrd, 40, -1, norm), fft::fft(xr, 40, -1, norm));
        compare_max("rfft" + nm, fft::rfft(xrd, std::nullopt, -1, norm), fft::rfft(xr, std::nullopt, -1, norm));
        compare_max("irfft" + nm, fft::irfft(xcd, std::nullopt, -1, norm), fft::irfft(xc, std::nullopt, -1, norm));
        compare_max("irfft n=63" + nm, fft::irfft(xcd, 63, -1, norm), fft::irfft(xc, 63, -1, norm));
        compare_max("hfft" + nm, fft::hfft(xcd, std::nullopt, -1, norm), fft::hfft(xc, std::nullopt, -1, norm));
        compare_max("ihfft" + nm, fft::ihfft(xrd, std::nullopt, -1, norm), fft::ihfft(xr, std::nullopt, -1, norm));
        compare_max("fft of prime length 257" + nm, fft::fft(primed, std::nullopt, -1, norm),
                    fft::fft(prime, std::nullopt, -1, norm));
        compare_max("rfft of prime length 257" + nm, fft::rfft(primed, std::nullopt, -1, norm),
                    fft::rfft(prime, std::nullopt, -1, norm));
        compare_max("irfft n=257" + nm, fft::irfft(fft::rfft(primed), 257, -1, norm),
                    fft::irfft(fft::rfft(prime), 257, -1, norm));
        compare_max("fft2" + nm, fft::fft2(cubed, std::nullopt, {-2, -1}, norm), fft::fft2(cube, std::nullopt, {-2, -1}, norm));
        compare_max("ifft2 dims (0, 2)" + nm, fft::ifft2(cubed, std::nullopt, {0, 2}, norm),
                    fft::ifft2(cube, std::nullopt, {0, 2}, norm));
        compare_max("fftn" + nm, fft::fftn(cubed, std::nullopt, std::nullopt, norm),
                    fft::fftn(cube, std::nullopt, std::nullopt, norm));
        compare_max("rfftn" + nm, fft::rfftn(cubed, std::nullopt, std::nullopt, norm),
                    fft::rfftn(cube, std::nullopt, std::nullopt, norm));
        compare_max("rfftn s=(5, 7) dims (0, 2)" + nm, fft::rfftn(cubed, IntArray{5, 7}, IntArray{0, 2}, norm),
                    fft::rfftn(cube, IntArray{5, 7}, IntArray{0, 2}, norm));
        const Tensor<C> sc = fft::rfftn(cube), scd = sc.to(cuda);
        compare_max("irfftn s=(4, 6, 10)" + nm, fft::irfftn(scd, IntArray{4, 6, 10}, std::nullopt, norm),
                    fft::irfftn(sc, IntArray{4, 6, 10}, std::nullopt, norm));
        compare_max("irfft2" + nm, fft::irfft2(scd, std::nullopt, {-2, -1}, norm),
                    fft::irfft2(sc, std::nullopt, {-2, -1}, norm));
    }
    // Strided inputs: transposed (rows interleaved), sliced, expanded.
    compare_max("fft of a transposed input, dim 1", fft::fft(xcd.t(), std::nullopt, 1), fft::fft(xc.t(), std::nullopt, 1));
    compare_max("fft of a transposed input, dim 0", fft::fft(xcd.t(), std::nullopt, 0), fft::fft(xc.t(), std::nullopt, 0));
    compare_max("rfft of a transposed input, dim 0", fft::rfft(xrd.t(), std::nullopt, 0), fft::rfft(xr.t(), std::nullopt, 0));
    compare_max("irfft of a transposed input, dim 0", fft::irfft(xcd.t(), std::nullopt, 0),
                fft::irfft(xc.t(), std::nullopt, 0));
    const auto every_other = [](const auto& t) { return t.slice(1, 1, 64, 2); };
    compare_max("fft of a sliced input (step 2)", fft::fft(every_other(xcd)), fft::fft(every_other(xc)));
    compare_max("rfft of a sliced input (step 2)", fft::rfft(every_other(xrd)), fft::rfft(every_other(xr)));
    compare_max("fft of an expanded input", fft::fft(xrd[0].expand({3, 64})), fft::fft(xr[0].expand({3, 64})));
    compare_max("fftn of a permuted cube", fft::fftn(cubed.permute({2, 0, 1})), fft::fftn(cube.permute({2, 0, 1})));
    // The input is left as it was (cuFFT's c2r overwrites its input: tenet gives it a copy).
    const Tensor<C> before = xcd.clone();
    (void)fft::irfft(xcd);
    compare_max("irfft leaves its input unchanged", xcd, before.cpu());
    // Round trips.
    compare_max("ifft(fft(x))", fft::ifft(fft::fft(xcd)), xc);
    compare_max("irfft(rfft(x), 64)", fft::irfft(fft::rfft(xrd), 64), xr);
    // stft (on the host) and istft (its irfft on the device) of a device signal.
    const Tensor<T> sig = signal<T>({2, 300}, 0.05), sigd = sig.to(cuda);
    const auto spectra = [](const Tensor<T>& x) {
        return stft(x, 64, std::nullopt, std::nullopt, std::nullopt, true, "reflect", false, std::nullopt, true);
    };
    compare_max("stft n_fft=64", spectra(sigd), spectra(sig));
    compare_max("istft(stft(x)) n_fft=64", istft(spectra(sigd), 64), istft(spectra(sig), 64));
    // Every transform above left its inputs as they were.
    compare_max("complex input unchanged", xcd, xc);
    compare_max("real input unchanged", xrd, xr);
    compare_max("cube unchanged", cubed, cube);
    // cuFFT's plans are kept in the plan cache (with the host engine's): a device transform
    // after clear() leaves its plan there.
    fft::plan_cache::clear();
    (void)fft::fft(xcd);
    std::printf("%-52s %zu plan(s) cached\n", "a device fft after plan_cache::clear()", fft::plan_cache::size());
    failures += fft::plan_cache::size() == 0;
}

template <class T>
void check_complex(const Device& cuda) {
    using C = complex<T>;
    const Tensor<T> ar = signal<T>({7, 33}, 0.31), ai = signal<T>({7, 33}, 0.53), br = signal<T>({7, 33}, 0.11);
    const Tensor<C> a = make_complex(ar, ai), b = make_complex(br + T(3), ar * T(0.5));
    const Tensor<C> ad = a.to(cuda), bd = b.to(cuda);
    compare_max("to(cuda) and back", Tensor<C>(ad.cpu()).to(cuda), a);
    compare_max("a * b + conj(a) / b", Tensor<C>(ad * bd + conj(ad) / bd), Tensor<C>(a * b + conj(a) / b));
    compare_max("a - b * 2.5 + 1", Tensor<C>(ad - bd * T(2.5) + T(1)), Tensor<C>(a - b * T(2.5) + T(1)));
    compare_max("exp(a)", Tensor<C>(exp(ad)), Tensor<C>(exp(a)));
    compare_max("log(b)", Tensor<C>(log(bd)), Tensor<C>(log(b)));
    compare_max("sqrt(a)", Tensor<C>(sqrt(ad)), Tensor<C>(sqrt(a)));
    compare_max("sin(a) * cos(b)", Tensor<C>(sin(ad) * cos(bd)), Tensor<C>(sin(a) * cos(b)));
    compare_max("tanh(a) + asinh(b)", Tensor<C>(tanh(ad) + asinh(bd)), Tensor<C>(tanh(a) + asinh(b)));
    compare_max("reciprocal(a) + sigmoid(a)", Tensor<C>(reciprocal(ad) + sigmoid(ad)), Tensor<C>(reciprocal(a) + sigmoid(a)));
    compare_max("pow(a, b)", Tensor<C>(pow(ad, bd)), Tensor<C>(pow(a, b)));
    compare_max("abs(a * b)", Tensor<T>(abs(ad * bd)), Tensor<T>(abs(a * b)));
    compare_max("angle(a)", Tensor<T>(angle(ad)), Tensor<T>(angle(a)));
    compare_max("real(a) (a view)", real(ad), real(a));
    compare_max("imag(a.t()) (a view)", imag(ad.t()), imag(a.t()));
    compare_max("view_as_real(a)", view_as_real(ad), view_as_real(a));
    compare_max("make_complex on the device", Tensor<C>(make_complex(ar.to(cuda), br.to(cuda))),
                Tensor<C>(make_complex(ar, br)));
    compare_max("a.t() * b.t() (strided)", Tensor<C>(ad.t() * bd.t()), Tensor<C>(a.t() * b.t()));
    compare_max("complex + real broadcast", Tensor<C>(ad + br.to(cuda)[0]), Tensor<C>(a + br[0]));
    compare_max("sum(a * b)", Tensor<C>((ad * bd).sum()), Tensor<C>((a * b).sum()));
    compare_max("mean(a, dim 1)", Tensor<C>(ad.mean(1)), Tensor<C>(a.mean(1)));
    compare_max("prod(a[:, :4] / 2, dim 1)", Tensor<C>((ad.slice(1, 0, 4) / T(2)).prod(1)),
                Tensor<C>((a.slice(1, 0, 4) / T(2)).prod(1)));
    const Tensor<complex<double>> widened = ad.template to<complex<double>>();
    compare_max("to(complex128) on the device", widened, a.template to<complex<double>>());
}

}  // namespace

int main() {
    return run_on_gpu([]<class T>(const Device& cuda) {
        check_complex<T>(cuda);
        check_fft<T>(cuda);
    });
}
