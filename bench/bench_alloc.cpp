// Allocation: a fresh result tensor per iteration (`Tensor<float> y = ...;` in a loop)
// against a preallocated output and against plain heap allocation. Fresh pages cost
// >= 1.3 us per 4 KiB here, so without tenet's caching allocator every fresh 64 MiB
// result would pay 20+ ms before any arithmetic.

#include <benchmark/benchmark.h>
#include <tenet/tenet.hpp>

#include <cstdlib>
#include <cstring>
#include <memory>

namespace {

constexpr int64_t kLarge = int64_t{1} << 24;  // 2^24 floats = 64 MiB

// Plain C++: a fresh heap block per iteration, written once (pays the page faults).
void BM_FreshMalloc(benchmark::State& state) {
    const auto n = static_cast<size_t>(state.range(0));
    for (auto _ : state) {
        auto* p = static_cast<float*>(std::aligned_alloc(64, n * sizeof(float)));
        std::memset(p, 0, n * sizeof(float));
        benchmark::DoNotOptimize(p);
        std::free(p);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0) * 4);
}

// Plain C++: one preallocated buffer, written every iteration (the floor).
void BM_Preallocated(benchmark::State& state) {
    const auto n = static_cast<size_t>(state.range(0));
    std::unique_ptr<float[]> p(new float[n]);
    for (auto _ : state) {
        std::memset(p.get(), 0, n * sizeof(float));
        benchmark::DoNotOptimize(p.get());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0) * 4);
}

// tenet: a fresh tensor per iteration, filled; storage comes back from the cache.
void BM_FreshTensor(benchmark::State& state) {
    for (auto _ : state) {
        tenet::Tensor<float> y = tenet::zeros({state.range(0)});
        benchmark::DoNotOptimize(y.data_ptr());
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0) * 4);
}

// tenet: a 16-element tensor per iteration (the per-op overhead of small results).
void BM_FreshSmallTensor(benchmark::State& state) {
    for (auto _ : state) {
        tenet::Tensor<float> y = tenet::empty({16});
        benchmark::DoNotOptimize(y.data_ptr());
    }
}

}  // namespace

BENCHMARK(BM_FreshMalloc)->Arg(kLarge)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Preallocated)->Arg(kLarge)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FreshTensor)->Arg(kLarge)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FreshSmallTensor)->Unit(benchmark::kNanosecond);
