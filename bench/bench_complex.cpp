// Complex pointwise math, one thread: C1 is issue 31's `x * exp(1j * phase)` over 2^24
// complex64 values, as one fused tenet expression and as the plain std::complex loop a C++ user
// writes (both into a preallocated output).
#include <benchmark/benchmark.h>
#include <tenet/tenet.hpp>

#include <complex>
#include <cstdint>

namespace {

constexpr int64_t kCount = int64_t{1} << 24;

struct ComplexInputs {
    tenet::Tensor<tenet::complex<float>> x;
    tenet::Tensor<float> phase;
    ComplexInputs() {
        tenet::manual_seed(1);
        x = tenet::randn({kCount}, tenet::kComplex64);
        phase = tenet::rand({kCount}) * 6.283185307f;
    }
};

const ComplexInputs& inputs() {
    static const ComplexInputs in;
    return in;
}

void BM_C1_rotate_tenet(benchmark::State& state) {
    tenet::set_num_threads(1);
    const auto& in = inputs();
    tenet::Tensor<tenet::complex<float>> y = tenet::empty({kCount}, tenet::kComplex64);
    const tenet::complex<float> i(0.0f, 1.0f);
    for (auto _ : state) {
        y = in.x * exp(i * in.phase);
        benchmark::DoNotOptimize(y.data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * kCount);
}

void BM_C1_rotate_plain_loop(benchmark::State& state) {
    const auto& in = inputs();
    const auto* x = reinterpret_cast<const std::complex<float>*>(in.x.data_ptr());
    const float* phase = in.phase.data_ptr();
    tenet::Tensor<tenet::complex<float>> y = tenet::empty({kCount}, tenet::kComplex64);
    auto* out = reinterpret_cast<std::complex<float>*>(y.data_ptr());
    const std::complex<float> i(0.0f, 1.0f);
    for (auto _ : state) {
        for (int64_t k = 0; k < kCount; ++k) out[k] = x[k] * std::exp(i * phase[k]);
        benchmark::DoNotOptimize(out);
    }
    state.SetItemsProcessed(state.iterations() * kCount);
}

BENCHMARK(BM_C1_rotate_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_C1_rotate_plain_loop)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
