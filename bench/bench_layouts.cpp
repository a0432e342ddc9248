// Quantized and sparse tensors (issue 33) beside plain loops:
//   quantize then dequantize of 2^24 floats (quint8, per tensor), tenet against a plain loop
//   with the same arithmetic into preallocated buffers;
//   sparse COO [2^16, 2^16] with 2^20 nonzeros times a dense [2^16, 64], tenet's mm against a
//   plain CSR loop (PyTorch's time comes from bench/layouts_torch.py).
// Both on one thread (set_num_threads(1)), so the comparison is of the loops.
#include <benchmark/benchmark.h>

#include <tenet/quantized.hpp>
#include <tenet/sparse.hpp>
#include <tenet/tenet.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using namespace tenet;
constexpr int64_t kQuantN = int64_t{1} << 24;

Tensor<float> quant_input() {
    static const Tensor<float> x = [] {
        set_num_threads(1);
        manual_seed(7);
        return (randn({kQuantN}) * 3.0f).eval();
    }();
    return x;
}

void BM_quantize_dequantize_tenet(benchmark::State& state) {
    const Tensor<float> x = quant_input();
    set_num_threads(1);
    for (auto _ : state) {
        Tensor<float> y = quantize_per_tensor(x, 0.05, 128, kQUInt8).dequantize();
        benchmark::DoNotOptimize(y.data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * kQuantN);
}
BENCHMARK(BM_quantize_dequantize_tenet)->Unit(benchmark::kMillisecond);

void BM_quantize_dequantize_loop(benchmark::State& state) {
    const Tensor<float> x = quant_input();
    const float* in = x.data_ptr();
    std::vector<uint8_t> q(static_cast<size_t>(kQuantN));
    std::vector<float> y(static_cast<size_t>(kQuantN));
    const float inv = 1.0f / 0.05f, s = 0.05f, zp = 128.0f;
    for (auto _ : state) {
        for (int64_t i = 0; i < kQuantN; ++i) {
            const float v = zp + std::nearbyint(in[i] * inv);
            q[static_cast<size_t>(i)] = static_cast<uint8_t>(std::min(std::max(v, 0.0f), 255.0f));
        }
        for (int64_t i = 0; i < kQuantN; ++i)
            y[static_cast<size_t>(i)] = s * static_cast<float>(static_cast<int32_t>(q[static_cast<size_t>(i)]) - 128);
        benchmark::DoNotOptimize(y.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * kQuantN);
}
BENCHMARK(BM_quantize_dequantize_loop)->Unit(benchmark::kMillisecond);

constexpr int64_t kRows = int64_t{1} << 16, kNnz = int64_t{1} << 20, kCols = 64;

struct SpmmInputs {
    SparseTensor<float> s;
    Tensor<float> d;
    std::vector<int64_t> start, col;  // CSR of s, for the plain loop
    std::vector<float> val;
};
const SpmmInputs& spmm_inputs() {
    static const SpmmInputs in = [] {
        SpmmInputs r;
        std::mt19937_64 rng(11);
        std::uniform_int_distribution<int64_t> pick(0, kRows - 1);
        std::normal_distribution<float> nd;
        Tensor<int64_t> idx = empty<int64_t>({2, kNnz});
        Tensor<float> v = empty<float>({kNnz});
        for (int64_t k = 0; k < 2 * kNnz; ++k) idx.data_ptr()[k] = pick(rng);
        for (int64_t k = 0; k < kNnz; ++k) v.data_ptr()[k] = nd(rng);
        r.s = sparse_coo_tensor(idx, v, {kRows, kRows}).coalesce();
        r.d = empty<float>({kRows, kCols});
        for (int64_t k = 0; k < kRows * kCols; ++k) r.d.data_ptr()[k] = nd(rng);
        const int64_t n = r.s._nnz();
        const int64_t* ix = r.s._indices().data_ptr();
        r.start.assign(static_cast<size_t>(kRows + 1), 0);
        for (int64_t e = 0; e < n; ++e) ++r.start[static_cast<size_t>(ix[e] + 1)];
        for (int64_t i = 0; i < kRows; ++i) r.start[static_cast<size_t>(i + 1)] += r.start[static_cast<size_t>(i)];
        r.col.assign(ix + n, ix + 2 * n);
        r.val.assign(r.s._values().data_ptr(), r.s._values().data_ptr() + n);
        return r;
    }();
    return in;
}

void BM_spmm_tenet(benchmark::State& state) {
    const SpmmInputs& in = spmm_inputs();
    set_num_threads(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        Tensor<float> y = mm(in.s, in.d);
        benchmark::DoNotOptimize(y.data_ptr());
    }
    set_num_threads(1);
}
BENCHMARK(BM_spmm_tenet)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_spmm_csr_loop(benchmark::State& state) {
    const SpmmInputs& in = spmm_inputs();
    const float* d = in.d.data_ptr();
    for (auto _ : state) {
        std::vector<float> y(static_cast<size_t>(kRows * kCols), 0.0f);
        for (int64_t r = 0; r < kRows; ++r) {
            float* o = y.data() + r * kCols;
            for (int64_t e = in.start[static_cast<size_t>(r)]; e < in.start[static_cast<size_t>(r + 1)]; ++e) {
                const float a = in.val[static_cast<size_t>(e)];
                const float* src = d + in.col[static_cast<size_t>(e)] * kCols;
                for (int64_t j = 0; j < kCols; ++j) o[j] += a * src[j];
            }
        }
        benchmark::DoNotOptimize(y.data());
    }
}
BENCHMARK(BM_spmm_csr_loop)->Unit(benchmark::kMillisecond);

}  // namespace
