// LibTorch side of the pointwise suite (W1–W7, see bench_pointwise.cpp for the workloads and
// the naming). Compiled only when CMake found LibTorch (TENET_BENCH_HAVE_TORCH); otherwise
// this TU is empty. Intra-op threads: TENET_BENCH_THREADS, 1 when unset (as for tenet).
//
// LibTorch evaluates eagerly: `a * b + c` is two kernels and one temporary. Where ATen has a
// single fused kernel writing into an existing tensor (addcmul_out, add_out) the "into" rows
// use it — LibTorch's best case; the other rows are the natural expression (a fresh result,
// suffix _eager).

#ifdef TENET_BENCH_HAVE_TORCH

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>

#include "bench_plain_kernels.hpp"

namespace {

constexpr int64_t kLarge = int64_t{1} << 24;
constexpr int64_t kMedium = int64_t{1} << 16;
constexpr int64_t kSide = 4096;
constexpr int64_t kTiny = 16;

void set_threads() { at::set_num_threads(tenet_bench::bench_threads()); }

void set_counters(benchmark::State& state, int64_t elements, int64_t arrays) {
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * elements);
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * elements * arrays * 4);
}

at::Tensor frand(at::IntArrayRef sizes) { return at::rand(sizes, at::kFloat); }

void BM_W1into_torch(benchmark::State& state) {
    set_threads();
    const int64_t n = state.range(0);
    auto a = frand({n}), b = frand({n}), c = frand({n});
    auto y = at::empty({n}, at::kFloat);
    for (auto _ : state) {
        at::addcmul_out(y, c, a, b);  // y = c + a*b, one fused kernel
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 4);
}

void BM_W1fresh_torch_eager(benchmark::State& state) {
    set_threads();
    const int64_t n = state.range(0);
    auto a = frand({n}), b = frand({n}), c = frand({n});
    for (auto _ : state) {
        at::Tensor y = a * b + c;
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 4);
}

void BM_W2_torch_eager(benchmark::State& state) {
    set_threads();
    const int64_t n = state.range(0);
    auto a = frand({n}), b = frand({n}), c = frand({n}), d = frand({n});
    for (auto _ : state) {
        at::Tensor y = at::sigmoid(a * b + c) * d - 0.5 * a;
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 5);
}

void BM_W3_torch_eager(benchmark::State& state) {
    set_threads();
    auto x = frand({kSide, kSide}), bias = frand({1, kSide}), scale = frand({kSide, 1});
    for (auto _ : state) {
        at::Tensor y = (x + bias) * scale;
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kSide * kSide, 2);
}

void BM_W4_torch(benchmark::State& state) {
    set_threads();
    auto a = frand({kSide, kSide}), b = frand({kSide, kSide});
    auto y = at::empty({kSide, kSide}, at::kFloat);
    for (auto _ : state) {
        at::add_out(y, a.t(), b);
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kSide * kSide, 3);
}

void BM_W5_torch_eager(benchmark::State& state) {
    set_threads();
    const int64_t n = state.range(0);
    auto a = frand({n}), b = frand({n}), c = frand({n});
    for (auto _ : state) {
        float s = (a * b + c).sum().item<float>();
        benchmark::DoNotOptimize(s);
    }
    set_counters(state, n, 3);
}

void BM_W7into_torch(benchmark::State& state) {
    set_threads();
    auto a = frand({kTiny}), b = frand({kTiny});
    auto y = at::empty({kTiny}, at::kFloat);
    for (auto _ : state) {
        at::add_out(y, a, b);
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kTiny, 3);
}

void BM_W7fresh_torch(benchmark::State& state) {
    set_threads();
    auto a = frand({kTiny}), b = frand({kTiny});
    for (auto _ : state) {
        at::Tensor y = a + b;
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kTiny, 3);
}

// W8: forward + backward of loss = sum((sigmoid(x*w + b) - y)^2), w and b requiring grad.
void BM_W8_torch(benchmark::State& state) {
    set_threads();
    const int64_t n = state.range(0);
    auto x = at::randn({n}), y = at::rand({n});
    auto w = at::randn({n}).set_requires_grad(true), b = at::randn({n}).set_requires_grad(true);
    for (auto _ : state) {
        auto loss = (at::sigmoid(x * w + b) - y).pow(2).sum();
        loss.backward();
        benchmark::DoNotOptimize(w.grad().data_ptr());
        w.mutable_grad().reset();
        b.mutable_grad().reset();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

// sum(sigmoid(x * w + b)) backward, x [4096, 1024], w and b [1024] requiring grad
// (bench_autograd.cpp's BM_bias_sigmoid_tenet).
void BM_bias_sigmoid_torch(benchmark::State& state) {
    set_threads();
    auto x = at::randn({4096, 1024});
    auto w = at::randn({1024}).set_requires_grad(true), b = at::randn({1024}).set_requires_grad(true);
    for (auto _ : state) {
        auto loss = at::sigmoid(x * w + b).sum();
        loss.backward();
        benchmark::DoNotOptimize(w.grad().data_ptr());
        benchmark::DoNotOptimize(b.grad().data_ptr());
        w.mutable_grad().reset();
        b.mutable_grad().reset();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 4096 * 1024);
}

}  // namespace

BENCHMARK(BM_W1into_torch)->Arg(kLarge)->Arg(kMedium)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_W1fresh_torch_eager)->Arg(kLarge)->Arg(kMedium)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_W2_torch_eager)->Arg(kLarge)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_W5_torch_eager)->Arg(kLarge)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_W3_torch_eager)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_W4_torch)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_W7into_torch);
BENCHMARK(BM_W7fresh_torch);

BENCHMARK(BM_W8_torch)->Arg(1 << 20)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_bias_sigmoid_torch)->Unit(benchmark::kMillisecond);

#endif  // TENET_BENCH_HAVE_TORCH
