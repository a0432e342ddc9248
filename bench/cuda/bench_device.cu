// Device benchmarks (issue: fused pointwise at >= 85% of the copy bandwidth), built by nvcc as
// tenet_device_bench when CUDA and benchmarks are enabled. Float32, N = 2^26 (256 MiB per
// operand), timed with CUDA events around each iteration (manual time), so the numbers are
// device time, not launch or host overhead.
//
//   D_copy        cudaMemcpy device-to-device of one operand: the bandwidth ceiling
//   D_W1_plain    a hand-written grid-stride kernel for y = a*b + c (float4 loads)
//   D_W1_tenet    y.assign(a*b + c): tenet's one fused kernel, into an existing y
//   D_W1fresh     Tensor<float> y = a*b + c: a fresh result each iteration (caching allocator)
//   D_W2_tenet    y = sigmoid(a*b + c) * d - 0.5*a
//   D_W5_tenet    s = sum(a*b + c) (one reduction, nothing materialised)
//
// Bytes counted: every operand read or written once (copy: 2 N floats; W1: 4; W2: 5; W5: 3).
// Report: bench/report_device.py turns the JSON into the ratios to D_copy for RESULTS.md.

#include "device_timing.hpp"

#include <cstdint>
#include <cstdio>

namespace {

constexpr int64_t kN = int64_t{1} << 26;

using tenet::Tensor;

using tenet_bench::run_timed;

struct Operands {
    Tensor<float> a, b, c, d, y;
    Operands() {
        tenet::manual_seed(0);
        a = tenet::randn({kN}, "cuda");
        b = tenet::randn({kN}, "cuda");
        c = tenet::randn({kN}, "cuda");
        d = tenet::randn({kN}, "cuda");
        y = tenet::empty({kN}, "cuda");
    }
};
Operands& operands() {
    static Operands o;
    return o;
}

__global__ void w1_plain(const float4* a, const float4* b, const float4* c, float4* y, int64_t n4) {
    for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n4;
         i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const float4 x = a[i], w = b[i], z = c[i];
        y[i] = make_float4(x.x * w.x + z.x, x.y * w.y + z.y, x.z * w.z + z.z, x.w * w.w + z.w);
    }
}

void BM_D_copy(benchmark::State& state) {
    auto& o = operands();
    run_timed(state, 2 * kN * 4, [&] {
        cudaMemcpy(o.y.data_ptr(), o.a.data_ptr(), kN * sizeof(float), cudaMemcpyDeviceToDevice);
    });
}

void BM_D_W1_plain(benchmark::State& state) {
    auto& o = operands();
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    run_timed(state, 4 * kN * 4, [&] {
        w1_plain<<<sms * 8, 256>>>(reinterpret_cast<const float4*>(o.a.data_ptr()),
                                   reinterpret_cast<const float4*>(o.b.data_ptr()),
                                   reinterpret_cast<const float4*>(o.c.data_ptr()), reinterpret_cast<float4*>(o.y.data_ptr()),
                                   kN / 4);
    });
}

void BM_D_W1_tenet(benchmark::State& state) {
    auto& o = operands();
    run_timed(state, 4 * kN * 4, [&] { o.y.assign(o.a * o.b + o.c); });
}

void BM_D_W1fresh_tenet(benchmark::State& state) {
    auto& o = operands();
    run_timed(state, 4 * kN * 4, [&] {
        Tensor<float> y = o.a * o.b + o.c;
        benchmark::DoNotOptimize(y.data_ptr());
    });
}

void BM_D_W2_tenet(benchmark::State& state) {
    auto& o = operands();
    run_timed(state, 5 * kN * 4, [&] { o.y.assign(tenet::sigmoid(o.a * o.b + o.c) * o.d - 0.5f * o.a); });
}

void BM_D_W5_tenet(benchmark::State& state) {
    auto& o = operands();
    run_timed(state, 3 * kN * 4, [&] {
        auto s = tenet::sum(o.a * o.b + o.c);
        benchmark::DoNotOptimize(s.data_ptr());
    });
}

}  // namespace

TENET_DEVICE_ROW(BM_D_copy);
TENET_DEVICE_ROW(BM_D_W1_plain);
TENET_DEVICE_ROW(BM_D_W1_tenet);
TENET_DEVICE_ROW(BM_D_W1fresh_tenet);
TENET_DEVICE_ROW(BM_D_W2_tenet);
TENET_DEVICE_ROW(BM_D_W5_tenet);
