#pragma once
// Device time of one benchmark iteration: CUDA events around the call (manual time), so the
// numbers are what the GPU spent, not launch or host overhead. Shared by bench/cuda/*.cu.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <tenet/tenet.hpp>

#include <cstdint>
#include <exception>

namespace tenet_bench {

/// Times each call of f with CUDA events; bytes (when > 0) sets the bandwidth column. The first
/// call, untimed, warms the caching allocator and the libraries' first-call setup (plans, CUB).
/// A row whose first call throws (an operation tenet refuses on the device) is skipped with the
/// exception's message, so that one refusal does not end the whole run.
template <class F>
void run_timed(benchmark::State& state, int64_t bytes, F&& f) {
    if (!tenet::cuda_is_available()) {
        state.SkipWithError("no CUDA device");
        return;
    }
    try {
        f();
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
        return;
    }
    cudaDeviceSynchronize();
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (auto _ : state) {
        cudaEventRecord(start);
        f();
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        state.SetIterationTime(static_cast<double>(ms) / 1e3);
    }
    if (bytes > 0)
        state.SetBytesProcessed(state.iterations() * bytes);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
}

}  // namespace tenet_bench
