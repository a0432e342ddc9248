// Pointwise suite W1–W7: tenet against a plain C++ loop and Eigen (LibTorch in
// bench_torch.cpp, the -ffast-math hand loops in bench_plain_kernels.cpp), float32, one thread.
//
// Naming, parsed by bench/report.py: BM_<workload>_<implementation>/<args>. The plain loop
// of the same workload is the baseline; "fresh" workloads (a new result every iteration)
// are compared with the plain loop writing into an existing buffer (the floor), and their
// own plain row (plain_malloc) shows what a fresh heap block costs without a cache.
//
// Threads: tenet (and LibTorch) run with TENET_BENCH_THREADS threads, 1 when unset; the plain
// loops and Eigen (which does not thread elementwise expressions) always run on one.
//
// Every implementation works on the same memory: the inputs are tenet tensors, and the plain
// loops and Eigen Maps read their data_ptr(), so alignment and contents are identical.
//
// Workloads:
//   W1  y = a*b + c                         N = 2^24 and 2^16, into y and fresh
//   W2  y = sigmoid(a*b + c) * d - 0.5*a    N = 2^24
//   W3  Y = (X + bias[1,N]) * scale[B,1]    B = N = 4096
//   W4  Y = A.t() + B                       4096 x 4096
//   W5  s = sum(a*b + c)                    N = 2^24
//   W7  c = a + b                           16 elements (per-op overhead, ns)

#include <benchmark/benchmark.h>
#include <tenet/tenet.hpp>

#if __has_include(<tenet/expr/math.hpp>)
#include <tenet/expr/math.hpp>
#define TENET_BENCH_HAVE_SIGMOID 1
#endif
#if __has_include(<tenet/ops/reduce.hpp>)
#include <tenet/ops/reduce.hpp>
#define TENET_BENCH_HAVE_SUM 1
#endif

#if __has_include(<tenet/backend/host/parallel.hpp>)
#include <tenet/backend/host/parallel.hpp>
#define TENET_BENCH_HAVE_THREADS 1
#endif

#ifdef TENET_BENCH_HAVE_EIGEN
#include <Eigen/Core>
#include <unsupported/Eigen/CXX11/Tensor>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "bench_plain_kernels.hpp"

namespace {

constexpr int64_t kLarge = int64_t{1} << 24;  // 64 MiB per float32 operand
constexpr int64_t kMedium = int64_t{1} << 16;  // 256 KiB per operand: all of W1 fits in L2
constexpr int64_t kSide = 4096;                // W3/W4: 4096 x 4096 (64 MiB per operand)
constexpr int64_t kTiny = 16;                  // W7

using tenet::Tensor;

#ifdef TENET_BENCH_HAVE_THREADS
// tenet's evaluator splits outputs >= 2^15 elements across OpenMP threads; pin it to
// TENET_BENCH_THREADS (default 1) before any benchmark runs.
const bool kThreadsPinned = [] {
    tenet::set_num_threads(tenet_bench::bench_threads());
    return true;
}();
#endif

void set_counters(benchmark::State& state, int64_t elements, int64_t arrays) {
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * elements);
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * elements * arrays * 4);
}

struct FreeDeleter {
    void operator()(float* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<float[], FreeDeleter>;
Buffer alloc_floats(int64_t n) {
    const auto bytes = (static_cast<size_t>(n) * sizeof(float) + 63) / 64 * 64;
    return Buffer(static_cast<float*>(std::aligned_alloc(64, bytes)));
}

// =========================================================================================
// W1: y = a*b + c
// =========================================================================================
void w1_plain(const float* __restrict a, const float* __restrict b, const float* __restrict c, float* __restrict y,
              int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = a[i] * b[i] + c[i];
}

void BM_W1into_tenet(benchmark::State& state) {
    const int64_t n = state.range(0);
    auto a = tenet::rand({n}), b = tenet::rand({n}), c = tenet::rand({n});
    Tensor<float> y = tenet::empty({n});
    for (auto _ : state) {
        y.assign(a * b + c);
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 4);
}

void BM_W1into_plain(benchmark::State& state) {
    const int64_t n = state.range(0);
    auto a = tenet::rand({n}), b = tenet::rand({n}), c = tenet::rand({n});
    Tensor<float> y = tenet::empty({n});
    for (auto _ : state) {
        w1_plain(a.data_ptr(), b.data_ptr(), c.data_ptr(), y.data_ptr(), n);
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 4);
}

void BM_W1fresh_tenet(benchmark::State& state) {
    const int64_t n = state.range(0);
    auto a = tenet::rand({n}), b = tenet::rand({n}), c = tenet::rand({n});
    for (auto _ : state) {
        Tensor<float> y = a * b + c;
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 4);
}

// Plain C++ with a fresh heap block per iteration (no cache: large blocks are mmap'd, so
// every iteration pays the page faults).
void BM_W1fresh_plain_malloc(benchmark::State& state) {
    const int64_t n = state.range(0);
    auto a = tenet::rand({n}), b = tenet::rand({n}), c = tenet::rand({n});
    for (auto _ : state) {
        Buffer y = alloc_floats(n);
        w1_plain(a.data_ptr(), b.data_ptr(), c.data_ptr(), y.get(), n);
        benchmark::DoNotOptimize(y.get());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 4);
}

#ifdef TENET_BENCH_HAVE_EIGEN
using EArr = Eigen::Map<Eigen::ArrayXf, Eigen::Aligned64>;
using ECArr = Eigen::Map<const Eigen::ArrayXf, Eigen::Aligned64>;

void BM_W1into_eigen(benchmark::State& state) {
    const int64_t n = state.range(0);
    auto a = tenet::rand({n}), b = tenet::rand({n}), c = tenet::rand({n});
    Tensor<float> y = tenet::empty({n});
    ECArr ea(a.data_ptr(), n), eb(b.data_ptr(), n), ec(c.data_ptr(), n);
    EArr ey(y.data_ptr(), n);
    for (auto _ : state) {
        ey = ea * eb + ec;
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 4);
}

void BM_W1fresh_eigen(benchmark::State& state) {
    const int64_t n = state.range(0);
    auto a = tenet::rand({n}), b = tenet::rand({n}), c = tenet::rand({n});
    ECArr ea(a.data_ptr(), n), eb(b.data_ptr(), n), ec(c.data_ptr(), n);
    for (auto _ : state) {
        Eigen::ArrayXf ey = ea * eb + ec;
        benchmark::DoNotOptimize(ey.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 4);
}
#endif

// =========================================================================================
// W2: y = sigmoid(a*b + c) * d - 0.5*a
// =========================================================================================
void w2_plain(const float* __restrict a, const float* __restrict b, const float* __restrict c,
              const float* __restrict d, float* __restrict y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
        const float t = a[i] * b[i] + c[i];
        y[i] = 1.0f / (1.0f + std::exp(-t)) * d[i] - 0.5f * a[i];
    }
}

struct W2Data {
    Tensor<float> a, b, c, d, y;
    explicit W2Data(int64_t n)
        : a(tenet::rand({n})), b(tenet::rand({n})), c(tenet::rand({n})), d(tenet::rand({n})), y(tenet::empty({n})) {}
};

void BM_W2_plain(benchmark::State& state) {
    const int64_t n = state.range(0);
    W2Data w(n);
    for (auto _ : state) {
        w2_plain(w.a.data_ptr(), w.b.data_ptr(), w.c.data_ptr(), w.d.data_ptr(), w.y.data_ptr(), n);
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 5);
}

// The same loop compiled with -ffast-math (GCC calls glibc's vector expf): a reference for
// what a vectorised exp buys, not a baseline (it changes the program's FP semantics).
void BM_W2_plain_fastmath(benchmark::State& state) {
    const int64_t n = state.range(0);
    W2Data w(n);
    for (auto _ : state) {
        tenet_bench::w2_fastmath(w.a.data_ptr(), w.b.data_ptr(), w.c.data_ptr(), w.d.data_ptr(), w.y.data_ptr(), n);
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 5);
}

#ifdef TENET_BENCH_HAVE_SIGMOID
void BM_W2_tenet(benchmark::State& state) {
    const int64_t n = state.range(0);
    W2Data w(n);
    const auto& a = w.a;
    const auto& b = w.b;
    const auto& c = w.c;
    const auto& d = w.d;
    for (auto _ : state) {
        w.y.assign(tenet::sigmoid(a * b + c) * d - 0.5 * a);
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 5);
}
#endif

#ifdef TENET_BENCH_HAVE_EIGEN
// Eigen's reference: its own vectorised exp (pexp), written as the formula.
void BM_W2_eigen(benchmark::State& state) {
    const int64_t n = state.range(0);
    W2Data w(n);
    ECArr ea(w.a.data_ptr(), n), eb(w.b.data_ptr(), n), ec(w.c.data_ptr(), n), ed(w.d.data_ptr(), n);
    EArr ey(w.y.data_ptr(), n);
    for (auto _ : state) {
        ey = (1.0f / (1.0f + (-(ea * eb + ec)).exp())) * ed - 0.5f * ea;
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 5);
}

// Eigen 3.4's logistic() (a dedicated vectorised sigmoid).
void BM_W2_eigen_logistic(benchmark::State& state) {
    const int64_t n = state.range(0);
    W2Data w(n);
    ECArr ea(w.a.data_ptr(), n), eb(w.b.data_ptr(), n), ec(w.c.data_ptr(), n), ed(w.d.data_ptr(), n);
    EArr ey(w.y.data_ptr(), n);
    for (auto _ : state) {
        ey = (ea * eb + ec).logistic() * ed - 0.5f * ea;
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 5);
}
#endif

// =========================================================================================
// W3: Y = (X + bias[1, N]) * scale[B, 1]
// =========================================================================================
struct W3Data {
    Tensor<float> x, bias, scale, y;
    W3Data()
        : x(tenet::rand({kSide, kSide})),
          bias(tenet::rand({1, kSide})),
          scale(tenet::rand({kSide, 1})),
          y(tenet::empty({kSide, kSide})) {}
};

void w3_plain(const float* __restrict x, const float* __restrict bias, const float* __restrict scale,
              float* __restrict y, int64_t rows, int64_t cols) {
    for (int64_t i = 0; i < rows; ++i) {
        const float s = scale[i];
        const float* xr = x + i * cols;
        float* yr = y + i * cols;
        for (int64_t j = 0; j < cols; ++j) yr[j] = (xr[j] + bias[j]) * s;
    }
}

void BM_W3_tenet(benchmark::State& state) {
    W3Data w;
    for (auto _ : state) {
        w.y.assign((w.x + w.bias) * w.scale);
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kSide * kSide, 2);
}

void BM_W3_plain(benchmark::State& state) {
    W3Data w;
    for (auto _ : state) {
        w3_plain(w.x.data_ptr(), w.bias.data_ptr(), w.scale.data_ptr(), w.y.data_ptr(), kSide, kSide);
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kSide * kSide, 2);
}

#ifdef TENET_BENCH_HAVE_EIGEN
using ERowArr = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Eigen::Array: rowwise()/colwise() broadcasting.
void BM_W3_eigen(benchmark::State& state) {
    W3Data w;
    Eigen::Map<const ERowArr> x(w.x.data_ptr(), kSide, kSide);
    Eigen::Map<const Eigen::Array<float, 1, Eigen::Dynamic>> bias(w.bias.data_ptr(), kSide);
    Eigen::Map<const Eigen::Array<float, Eigen::Dynamic, 1>> scale(w.scale.data_ptr(), kSide);
    Eigen::Map<ERowArr> y(w.y.data_ptr(), kSide, kSide);
    for (auto _ : state) {
        y = (x.rowwise() + bias).colwise() * scale;
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kSide * kSide, 2);
}

// Eigen's Tensor module: broadcast().
void BM_W3_eigen_tensor(benchmark::State& state) {
    W3Data w;
    using TM = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;
    using CTM = Eigen::TensorMap<const Eigen::Tensor<const float, 2, Eigen::RowMajor>>;
    CTM x(w.x.data_ptr(), kSide, kSide), bias(w.bias.data_ptr(), 1, kSide), scale(w.scale.data_ptr(), kSide, 1);
    TM y(w.y.data_ptr(), kSide, kSide);
    const Eigen::array<Eigen::Index, 2> rows_b{kSide, 1}, cols_b{1, kSide};
    for (auto _ : state) {
        y = (x + bias.broadcast(rows_b)) * scale.broadcast(cols_b);
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kSide * kSide, 2);
}
#endif

// =========================================================================================
// W4: Y = A.t() + B
// =========================================================================================
struct W4Data {
    Tensor<float> a, b, y;
    W4Data() : a(tenet::rand({kSide, kSide})), b(tenet::rand({kSide, kSide})), y(tenet::empty({kSide, kSide})) {}
};

// Naive: Y row-major, A read down a column (stride n): one cache line per element of A.
void w4_naive(const float* __restrict a, const float* __restrict b, float* __restrict y, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) y[i * n + j] = a[j * n + i] + b[i * n + j];
}

// Cache-blocked: 32 x 32 tiles (a tile of A is 32 lines, 4 KiB; it stays in L1 while read
// down its columns).
void w4_tiled(const float* __restrict a, const float* __restrict b, float* __restrict y, int64_t n) {
    constexpr int64_t T = 32;
    for (int64_t i0 = 0; i0 < n; i0 += T) {
        const int64_t i1 = std::min(i0 + T, n);
        for (int64_t j0 = 0; j0 < n; j0 += T) {
            const int64_t j1 = std::min(j0 + T, n);
            for (int64_t i = i0; i < i1; ++i)
                for (int64_t j = j0; j < j1; ++j) y[i * n + j] = a[j * n + i] + b[i * n + j];
        }
    }
}

void BM_W4_tenet(benchmark::State& state) {
    W4Data w;
    for (auto _ : state) {
        w.y.assign(w.a.t() + w.b);
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kSide * kSide, 3);
}

void BM_W4_plain(benchmark::State& state) {
    W4Data w;
    for (auto _ : state) {
        w4_tiled(w.a.data_ptr(), w.b.data_ptr(), w.y.data_ptr(), kSide);
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kSide * kSide, 3);
}

void BM_W4_plain_naive(benchmark::State& state) {
    W4Data w;
    for (auto _ : state) {
        w4_naive(w.a.data_ptr(), w.b.data_ptr(), w.y.data_ptr(), kSide);
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kSide * kSide, 3);
}

#ifdef TENET_BENCH_HAVE_EIGEN
void BM_W4_eigen(benchmark::State& state) {
    W4Data w;
    Eigen::Map<const ERowArr> a(w.a.data_ptr(), kSide, kSide), b(w.b.data_ptr(), kSide, kSide);
    Eigen::Map<ERowArr> y(w.y.data_ptr(), kSide, kSide);
    for (auto _ : state) {
        y = a.transpose() + b;
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kSide * kSide, 3);
}

void BM_W4_eigen_tensor(benchmark::State& state) {
    W4Data w;
    using TM = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;
    using CTM = Eigen::TensorMap<const Eigen::Tensor<const float, 2, Eigen::RowMajor>>;
    CTM a(w.a.data_ptr(), kSide, kSide), b(w.b.data_ptr(), kSide, kSide);
    TM y(w.y.data_ptr(), kSide, kSide);
    const Eigen::array<int, 2> swap{1, 0};
    for (auto _ : state) {
        y = a.shuffle(swap) + b;
        benchmark::DoNotOptimize(w.y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kSide * kSide, 3);
}
#endif

// =========================================================================================
// W5: s = sum(a*b + c)
// =========================================================================================
// 16 independent accumulators (two AVX registers' worth) so the adds pipeline and GCC can
// vectorise without -ffast-math; the partial sums are combined at the end.
float w5_plain(const float* __restrict a, const float* __restrict b, const float* __restrict c, int64_t n) {
    constexpr int64_t K = 16;
    float acc[K] = {};
    int64_t i = 0;
    for (; i + K <= n; i += K)
        for (int64_t k = 0; k < K; ++k) acc[k] += a[i + k] * b[i + k] + c[i + k];
    float s = 0.0f;
    for (; i < n; ++i) s += a[i] * b[i] + c[i];
    for (int64_t k = 0; k < K; ++k) s += acc[k];
    return s;
}

struct W5Data {
    Tensor<float> a, b, c;
    explicit W5Data(int64_t n) : a(tenet::rand({n})), b(tenet::rand({n})), c(tenet::rand({n})) {}
};

void BM_W5_plain(benchmark::State& state) {
    const int64_t n = state.range(0);
    W5Data w(n);
    for (auto _ : state) {
        float s = w5_plain(w.a.data_ptr(), w.b.data_ptr(), w.c.data_ptr(), n);
        benchmark::DoNotOptimize(s);
    }
    set_counters(state, n, 3);
}

#ifdef TENET_BENCH_HAVE_SUM
void BM_W5_tenet(benchmark::State& state) {
    const int64_t n = state.range(0);
    W5Data w(n);
    const auto& a = w.a;
    const auto& b = w.b;
    const auto& c = w.c;
    for (auto _ : state) {
        Tensor<float> s = tenet::sum(a * b + c);
        benchmark::DoNotOptimize(s.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, n, 3);
}
#endif

#ifdef TENET_BENCH_HAVE_EIGEN
void BM_W5_eigen(benchmark::State& state) {
    const int64_t n = state.range(0);
    W5Data w(n);
    ECArr ea(w.a.data_ptr(), n), eb(w.b.data_ptr(), n), ec(w.c.data_ptr(), n);
    for (auto _ : state) {
        float s = (ea * eb + ec).sum();
        benchmark::DoNotOptimize(s);
    }
    set_counters(state, n, 3);
}
#endif

// =========================================================================================
// W7: c = a + b on 16 elements (per-op overhead)
// =========================================================================================
void BM_W7into_tenet(benchmark::State& state) {
    auto a = tenet::rand({kTiny}), b = tenet::rand({kTiny});
    Tensor<float> y = tenet::empty({kTiny});
    for (auto _ : state) {
        y.assign(a + b);
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kTiny, 3);
}

void BM_W7fresh_tenet(benchmark::State& state) {
    auto a = tenet::rand({kTiny}), b = tenet::rand({kTiny});
    for (auto _ : state) {
        Tensor<float> y = a + b;
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kTiny, 3);
}

// The plain loop with a runtime length (as a library call would see it), not a constant 16.
void w7_plain(const float* __restrict a, const float* __restrict b, float* __restrict y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = a[i] + b[i];
}

void BM_W7into_plain(benchmark::State& state) {
    auto a = tenet::rand({kTiny}), b = tenet::rand({kTiny});
    Tensor<float> y = tenet::empty({kTiny});
    int64_t n = kTiny;
    for (auto _ : state) {
        benchmark::DoNotOptimize(n);
        w7_plain(a.data_ptr(), b.data_ptr(), y.data_ptr(), n);
        benchmark::DoNotOptimize(y.data_ptr());
        benchmark::ClobberMemory();
    }
    set_counters(state, kTiny, 3);
}

// Plain loop into a fresh std::unique_ptr<float[]> every iteration (malloc's small bins).
void BM_W7fresh_plain_malloc(benchmark::State& state) {
    auto a = tenet::rand({kTiny}), b = tenet::rand({kTiny});
    int64_t n = kTiny;
    for (auto _ : state) {
        benchmark::DoNotOptimize(n);
        std::unique_ptr<float[]> y(new float[static_cast<size_t>(n)]);
        w7_plain(a.data_ptr(), b.data_ptr(), y.get(), n);
        benchmark::DoNotOptimize(y.get());
        benchmark::ClobberMemory();
    }
    set_counters(state, kTiny, 3);
}

#ifdef TENET_BENCH_HAVE_EIGEN
void BM_W7into_eigen(benchmark::State& state) {
    Eigen::ArrayXf a = Eigen::ArrayXf::Random(kTiny), b = Eigen::ArrayXf::Random(kTiny), y(kTiny);
    benchmark::DoNotOptimize(a.data());  // the inputs escape, so a + b cannot be hoisted
    benchmark::DoNotOptimize(b.data());
    for (auto _ : state) {
        y = a + b;
        benchmark::DoNotOptimize(y.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, kTiny, 3);
}

void BM_W7fresh_eigen(benchmark::State& state) {
    Eigen::ArrayXf a = Eigen::ArrayXf::Random(kTiny), b = Eigen::ArrayXf::Random(kTiny);
    benchmark::DoNotOptimize(a.data());
    benchmark::DoNotOptimize(b.data());
    for (auto _ : state) {
        Eigen::ArrayXf y = a + b;
        benchmark::DoNotOptimize(y.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, kTiny, 3);
}
#endif

}  // namespace

// ---- Registration (order = report order) -------------------------------------------------
#define TENET_BENCH_BIG(fn) BENCHMARK(fn)->Arg(kLarge)->Arg(kMedium)->Unit(benchmark::kMicrosecond)
TENET_BENCH_BIG(BM_W1into_tenet);
TENET_BENCH_BIG(BM_W1into_plain);
TENET_BENCH_BIG(BM_W1fresh_tenet);
TENET_BENCH_BIG(BM_W1fresh_plain_malloc);
#ifdef TENET_BENCH_HAVE_EIGEN
TENET_BENCH_BIG(BM_W1into_eigen);
TENET_BENCH_BIG(BM_W1fresh_eigen);
#endif
#undef TENET_BENCH_BIG
// The build matrix (issue 26, bench/build_matrix.sh): W1 and W2 at 2^20 as well.
constexpr int64_t kMatrix = int64_t{1} << 20;
BENCHMARK(BM_W1into_tenet)->Arg(kMatrix)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_W1into_plain)->Arg(kMatrix)->Unit(benchmark::kMicrosecond);
#ifdef TENET_BENCH_HAVE_SIGMOID
BENCHMARK(BM_W2_tenet)->Arg(kMatrix)->Unit(benchmark::kMicrosecond);
#endif
BENCHMARK(BM_W2_plain)->Arg(kMatrix)->Unit(benchmark::kMicrosecond);

#define TENET_BENCH_LARGE(fn) BENCHMARK(fn)->Arg(kLarge)->Unit(benchmark::kMillisecond)
#ifdef TENET_BENCH_HAVE_SIGMOID
TENET_BENCH_LARGE(BM_W2_tenet);
#endif
TENET_BENCH_LARGE(BM_W2_plain);
TENET_BENCH_LARGE(BM_W2_plain_fastmath);
#ifdef TENET_BENCH_HAVE_EIGEN
TENET_BENCH_LARGE(BM_W2_eigen);
TENET_BENCH_LARGE(BM_W2_eigen_logistic);
#endif
#ifdef TENET_BENCH_HAVE_SUM
TENET_BENCH_LARGE(BM_W5_tenet);
#endif
TENET_BENCH_LARGE(BM_W5_plain);
#ifdef TENET_BENCH_HAVE_EIGEN
TENET_BENCH_LARGE(BM_W5_eigen);
#endif
#undef TENET_BENCH_LARGE

BENCHMARK(BM_W3_tenet)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_W3_plain)->Unit(benchmark::kMillisecond);
#ifdef TENET_BENCH_HAVE_EIGEN
BENCHMARK(BM_W3_eigen)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_W3_eigen_tensor)->Unit(benchmark::kMillisecond);
#endif
BENCHMARK(BM_W4_tenet)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_W4_plain)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_W4_plain_naive)->Unit(benchmark::kMillisecond);
#ifdef TENET_BENCH_HAVE_EIGEN
BENCHMARK(BM_W4_eigen)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_W4_eigen_tensor)->Unit(benchmark::kMillisecond);
#endif

BENCHMARK(BM_W7into_tenet);
BENCHMARK(BM_W7into_plain);
BENCHMARK(BM_W7fresh_tenet);
BENCHMARK(BM_W7fresh_plain_malloc);
#ifdef TENET_BENCH_HAVE_EIGEN
BENCHMARK(BM_W7into_eigen);
BENCHMARK(BM_W7fresh_eigen);
#endif
