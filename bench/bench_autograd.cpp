// W8: forward + backward of loss = sum((sigmoid(x*w + b) - y)^2), x, y, w, b vectors of N
// floats, w and b requiring grad; tenet's autograd beside the hand-written loop
// (bench_plain_kernels.cpp, -ffast-math: one vectorised pass computing loss and both
// gradients) and LibTorch (bench_torch.cpp). One thread.

#include <benchmark/benchmark.h>
#include <tenet/tenet.hpp>

#include <vector>

#include "bench_plain_kernels.hpp"

namespace {

using tenet::Tensor;

struct W8Data {
    Tensor<float> x, y, w, b;
    explicit W8Data(int64_t n)
        : x(tenet::randn({n})), y(tenet::rand({n})), w(tenet::randn({n})), b(tenet::randn({n})) {}
};

void BM_W8_tenet(benchmark::State& state) {
    const int64_t n = state.range(0);
    tenet::set_num_threads(tenet_bench::bench_threads());
    W8Data d(n);
    d.w.requires_grad_();
    d.b.requires_grad_();
    for (auto _ : state) {
        auto loss = ((tenet::sigmoid(d.x * d.w + d.b) - d.y).pow(2)).sum();
        loss.backward();
        benchmark::DoNotOptimize(d.w.grad().data_ptr());
        benchmark::DoNotOptimize(d.b.grad().data_ptr());
        d.w.reset_grad();
        d.b.reset_grad();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

/// W8 with a 0-d bias (a broadcast parameter, as a scalar bias or scale usually is): b's gradient
/// is the sum of its local gradient over the N elements.
void BM_W8_tenet_scalar_bias(benchmark::State& state) {
    const int64_t n = state.range(0);
    tenet::set_num_threads(tenet_bench::bench_threads());
    W8Data d(n);
    Tensor<float> b = tenet::randn({});
    d.w.requires_grad_();
    b.requires_grad_();
    for (auto _ : state) {
        auto loss = ((tenet::sigmoid(d.x * d.w + b) - d.y).pow(2)).sum();
        loss.backward();
        benchmark::DoNotOptimize(d.w.grad().data_ptr());
        benchmark::DoNotOptimize(b.grad().data_ptr());
        d.w.reset_grad();
        b.reset_grad();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

/// A layer's weight and bias broadcast over a batch: sum(sigmoid(x * w + b)) backward with
/// x [4096, 1024], w and b [1024]. Their gradients are sums over the rows, made in the backward
/// pass itself (a periodic leaf, autograd/gradient_pass.hpp), not by a second loop.
struct BiasData {
    static constexpr int64_t kRows = 4096, kCols = 1024;
    Tensor<float> x = tenet::randn({kRows, kCols}), w = tenet::randn({kCols}), b = tenet::randn({kCols});
};

void BM_bias_sigmoid_tenet(benchmark::State& state) {
    tenet::set_num_threads(tenet_bench::bench_threads());
    BiasData d;
    d.w.requires_grad_();
    d.b.requires_grad_();
    for (auto _ : state) {
        auto loss = tenet::sigmoid(d.x * d.w + d.b).sum();
        loss.backward();
        benchmark::DoNotOptimize(d.w.grad().data_ptr());
        benchmark::DoNotOptimize(d.b.grad().data_ptr());
        d.w.reset_grad();
        d.b.reset_grad();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * BiasData::kRows * BiasData::kCols);
}

void BM_bias_sigmoid_plain_fastmath(benchmark::State& state) {
    BiasData d;
    std::vector<float> gw(BiasData::kCols), gb(BiasData::kCols);
    for (auto _ : state) {
        benchmark::DoNotOptimize(tenet_bench::bias_sigmoid_fastmath(d.x.data_ptr(), d.w.data_ptr(), d.b.data_ptr(),
                                                                     gw.data(), gb.data(), BiasData::kRows,
                                                                     BiasData::kCols));
        benchmark::DoNotOptimize(gw.data());
        benchmark::DoNotOptimize(gb.data());
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * BiasData::kRows * BiasData::kCols);
}

void BM_W8_plain_fastmath(benchmark::State& state) {
    const int64_t n = state.range(0);
    W8Data d(n);
    std::vector<float> gw(static_cast<size_t>(n)), gb(static_cast<size_t>(n));
    for (auto _ : state) {
        float loss = tenet_bench::w8_fastmath(d.x.data_ptr(), d.w.data_ptr(), d.b.data_ptr(), d.y.data_ptr(),
                                              gw.data(), gb.data(), n);
        benchmark::DoNotOptimize(loss);
        benchmark::DoNotOptimize(gw.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

}  // namespace

BENCHMARK(BM_W8_tenet)->Arg(1 << 20)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_W8_tenet_scalar_bias)->Arg(1 << 20)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_W8_plain_fastmath)->Arg(1 << 20)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_bias_sigmoid_tenet)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_bias_sigmoid_plain_fastmath)->Unit(benchmark::kMillisecond);
