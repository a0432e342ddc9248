// LibTorch side of the matmul suite W6 (see bench_matmul.cpp for the workloads and the
// naming). Compiled only when CMake found LibTorch (TENET_BENCH_HAVE_TORCH). One intra-op
// thread: at::set_num_threads(1). Fresh results, as the tenet rows: at::matmul(a, b).

#ifdef TENET_BENCH_HAVE_TORCH

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>

namespace {

void set_gemm_counters(benchmark::State& state, int64_t n, int64_t batch) {
    state.counters["GFLOPS"] = benchmark::Counter(2.0 * static_cast<double>(n * n * n * batch) / 1e9,
                                                  benchmark::Counter::kIsIterationInvariantRate);
}

void BM_W6_torch(benchmark::State& state) {
    at::set_num_threads(1);
    const int64_t n = state.range(0);
    auto a = at::rand({n, n}, at::kFloat), b = at::rand({n, n}, at::kFloat);
    for (auto _ : state) {
        auto c = at::matmul(a, b);
        benchmark::DoNotOptimize(c.data_ptr());
        benchmark::ClobberMemory();
    }
    set_gemm_counters(state, n, 1);
}

void BM_W6batch_torch(benchmark::State& state) {
    at::set_num_threads(1);
    const int64_t n = state.range(0), batch = 64;
    auto a = at::rand({batch, n, n}, at::kFloat), b = at::rand({batch, n, n}, at::kFloat);
    for (auto _ : state) {
        auto c = at::matmul(a, b);
        benchmark::DoNotOptimize(c.data_ptr());
        benchmark::ClobberMemory();
    }
    set_gemm_counters(state, n, batch);
}

}  // namespace

BENCHMARK(BM_W6_torch)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_W6batch_torch)->Arg(64)->Unit(benchmark::kMicrosecond);

#endif  // TENET_BENCH_HAVE_TORCH
