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
template <class F>
void run_timed(benchmark::State& state, int64_t bytes, F&& f) {
    f();
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

/// A benchmark row that needs a GPU: skipped without one, and skipped with the message when it
/// throws (an operation tenet refuses on the device), so that one row does not end the run.
template <void (*Row)(benchmark::State&)>
void on_gpu(benchmark::State& state) {
    if (!tenet::cuda_is_available()) {
        state.SkipWithError("no CUDA device");
        return;
    }
    try {
        Row(state);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

}  // namespace tenet_bench

/// Registers a device benchmark row: device time (manual), in milliseconds.
#define TENET_DEVICE_ROW(row) \
    BENCHMARK(tenet_bench::on_gpu<row>)->Name(#row)->UseManualTime()->Unit(benchmark::kMillisecond)
