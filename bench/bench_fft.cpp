// The host FFT engine (tenet/fft/engine.hpp), one thread: F1 complex64 fft of 2^20 points,
// F2 complex64 fft of the prime 1,000,003 (Bluestein's algorithm through kissfft; FFTW's own
// prime-length algorithms), F3 rfft along the last dim of a [1024, 4096] float32 array. kissfft
// always; FFTW where tenet is built with it (TENET_USE_FFTW=ON: TENET_HAVE_FFTW). PyTorch's side
// (pocketfft, inside LibTorch 1.13) is bench/fft_torch.py. Plans are made before the timed loop
// (both engines cache them, as PyTorch's pocketfft caches its own).
#if __has_include(<kissfft/kissfft.hh>)

#include <benchmark/benchmark.h>
#include <tenet/fft/engine.hpp>

#include <complex>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using tenet::fft::Backend;
using tenet::fft::Direction;
using tenet::fft::Layout;

std::vector<float> random_floats(size_t count) {
    std::mt19937 gen(1);
    std::normal_distribution<float> dist;
    std::vector<float> v(count);
    for (auto& x : v) x = dist(gen);
    return v;
}

void c2c_bench(benchmark::State& state, int64_t n, Backend backend) {
    const std::vector<float> x = random_floats(static_cast<size_t>(2 * n));
    std::vector<float> y(x.size());
    const Layout layout{n};
    tenet::fft::c2c(x.data(), y.data(), layout, Direction::Forward, tenet::fft::Norm::Backward, backend);
    for (auto _ : state) {
        tenet::fft::c2c(x.data(), y.data(), layout, Direction::Forward, tenet::fft::Norm::Backward, backend);
        benchmark::DoNotOptimize(y.data());
    }
    state.SetItemsProcessed(state.iterations() * n);
}

void r2c_bench(benchmark::State& state, Backend backend) {
    const int64_t rows = 1024, n = 4096, half = n / 2 + 1;
    const std::vector<float> x = random_floats(static_cast<size_t>(rows * n));
    std::vector<float> y(static_cast<size_t>(2 * rows * half));
    const Layout layout{n, 1, 1, rows, n, half};
    tenet::fft::r2c(x.data(), y.data(), layout, tenet::fft::Norm::Backward, backend);
    for (auto _ : state) {
        tenet::fft::r2c(x.data(), y.data(), layout, tenet::fft::Norm::Backward, backend);
        benchmark::DoNotOptimize(y.data());
    }
    state.SetItemsProcessed(state.iterations() * rows * n);
}

void BM_F1_fft_2p20_kissfft(benchmark::State& s) { c2c_bench(s, int64_t{1} << 20, Backend::KissFFT); }
void BM_F2_fft_prime_kissfft(benchmark::State& s) { c2c_bench(s, 1000003, Backend::KissFFT); }
void BM_F3_rfft_rows_kissfft(benchmark::State& s) { r2c_bench(s, Backend::KissFFT); }
BENCHMARK(BM_F1_fft_2p20_kissfft)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_F2_fft_prime_kissfft)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_F3_rfft_rows_kissfft)->Unit(benchmark::kMillisecond)->UseRealTime();

#if defined(TENET_HAVE_FFTW) && TENET_HAVE_FFTW
void BM_F1_fft_2p20_fftw(benchmark::State& s) { c2c_bench(s, int64_t{1} << 20, Backend::FFTW); }
void BM_F2_fft_prime_fftw(benchmark::State& s) { c2c_bench(s, 1000003, Backend::FFTW); }
void BM_F3_rfft_rows_fftw(benchmark::State& s) { r2c_bench(s, Backend::FFTW); }
BENCHMARK(BM_F1_fft_2p20_fftw)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_F2_fft_prime_fftw)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_F3_rfft_rows_fftw)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace

#endif
