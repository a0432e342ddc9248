// Matmul suite W6: float32 C = A B, square n = 64, 256, 1024, and a batch of 64 products of
// 64 x 64 matrices; tenet beside Eigen called directly and OpenBLAS's cblas_sgemm (LibTorch
// in bench_torch_matmul.cpp). One thread everywhere: tenet::set_num_threads (which tenet's
// GEMM passes on to OpenBLAS or Eigen), Eigen::setNbThreads(1), openblas_set_num_threads(1).
//
// Naming, parsed by bench/report.py: BM_W6_<implementation>/<n> and BM_W6batch_<impl>/64.
// Counter GFLOPS = 2 n^3 (times the batch) per iteration / time. tenet returns a fresh
// result each iteration (its allocator recycles the block); Eigen and OpenBLAS write into an
// existing one (their best case). All read the same tenet tensors' memory.
//
// OpenBLAS: the environment of our machines exports OPENBLAS_CORETYPE=Haswell, which pins
// OpenBLAS to AVX2 kernels; run with `env -u OPENBLAS_CORETYPE` to measure what a user's
// machine would pick (bench/RESULTS.md says which was used).

#include <benchmark/benchmark.h>
#include <tenet/tenet.hpp>

#ifdef TENET_BENCH_HAVE_EIGEN
#include <Eigen/Core>
#endif
#ifdef TENET_HAVE_CBLAS
#include <cblas.h>
#endif

#include <cstdint>

namespace {

using tenet::Tensor;

void set_gemm_counters(benchmark::State& state, int64_t n, int64_t batch) {
    state.counters["GFLOPS"] = benchmark::Counter(2.0 * static_cast<double>(n * n * n * batch) / 1e9,
                                                  benchmark::Counter::kIsIterationInvariantRate);
}

void single_thread() {
    tenet::set_num_threads(1);
#ifdef TENET_BENCH_HAVE_EIGEN
    Eigen::setNbThreads(1);
#endif
#ifdef TENET_HAVE_OPENBLAS
    openblas_set_num_threads(1);
#endif
}

void BM_W6_tenet(benchmark::State& state) {
    single_thread();
    const int64_t n = state.range(0);
    auto a = tenet::rand({n, n}), b = tenet::rand({n, n});
    for (auto _ : state) {
        Tensor<float> c = tenet::matmul(a, b);
        benchmark::DoNotOptimize(c.data_ptr());
        benchmark::ClobberMemory();
    }
    set_gemm_counters(state, n, 1);
}

void BM_W6batch_tenet(benchmark::State& state) {
    single_thread();
    const int64_t n = state.range(0), batch = 64;
    auto a = tenet::rand({batch, n, n}), b = tenet::rand({batch, n, n});
    for (auto _ : state) {
        Tensor<float> c = tenet::matmul(a, b);
        benchmark::DoNotOptimize(c.data_ptr());
        benchmark::ClobberMemory();
    }
    set_gemm_counters(state, n, batch);
}

#ifdef TENET_BENCH_HAVE_EIGEN
using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

void BM_W6_eigen(benchmark::State& state) {
    single_thread();
    const int64_t n = state.range(0);
    auto a = tenet::rand({n, n}), b = tenet::rand({n, n});
    Tensor<float> c = tenet::empty({n, n});
    Eigen::Map<const RowMat> A(a.data_ptr(), n, n), B(b.data_ptr(), n, n);
    Eigen::Map<RowMat> C(c.data_ptr(), n, n);
    for (auto _ : state) {
        C.noalias() = A * B;
        benchmark::DoNotOptimize(c.data_ptr());
        benchmark::ClobberMemory();
    }
    set_gemm_counters(state, n, 1);
}

void BM_W6batch_eigen(benchmark::State& state) {
    single_thread();
    const int64_t n = state.range(0), batch = 64;
    auto a = tenet::rand({batch, n, n}), b = tenet::rand({batch, n, n});
    Tensor<float> c = tenet::empty({batch, n, n});
    for (auto _ : state) {
        for (int64_t i = 0; i < batch; ++i) {
            Eigen::Map<const RowMat> A(a.data_ptr() + i * n * n, n, n), B(b.data_ptr() + i * n * n, n, n);
            Eigen::Map<RowMat> C(c.data_ptr() + i * n * n, n, n);
            C.noalias() = A * B;
        }
        benchmark::DoNotOptimize(c.data_ptr());
        benchmark::ClobberMemory();
    }
    set_gemm_counters(state, n, batch);
}
#endif

#ifdef TENET_HAVE_CBLAS
void BM_W6_openblas(benchmark::State& state) {
    single_thread();
    const int64_t n = state.range(0);
    auto a = tenet::rand({n, n}), b = tenet::rand({n, n});
    Tensor<float> c = tenet::empty({n, n});
    const int N = static_cast<int>(n);
    for (auto _ : state) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, a.data_ptr(), N, b.data_ptr(), N, 0.0f,
                    c.data_ptr(), N);
        benchmark::DoNotOptimize(c.data_ptr());
        benchmark::ClobberMemory();
    }
    set_gemm_counters(state, n, 1);
}

void BM_W6batch_openblas(benchmark::State& state) {
    single_thread();
    const int64_t n = state.range(0), batch = 64;
    auto a = tenet::rand({batch, n, n}), b = tenet::rand({batch, n, n});
    Tensor<float> c = tenet::empty({batch, n, n});
    const int N = static_cast<int>(n);
    for (auto _ : state) {
        for (int64_t i = 0; i < batch; ++i)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, a.data_ptr() + i * n * n, N,
                        b.data_ptr() + i * n * n, N, 0.0f, c.data_ptr() + i * n * n, N);
        benchmark::DoNotOptimize(c.data_ptr());
        benchmark::ClobberMemory();
    }
    set_gemm_counters(state, n, batch);
}
#endif

}  // namespace

#define TENET_BENCH_W6(fn) BENCHMARK(fn)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMicrosecond)
#define TENET_BENCH_W6BATCH(fn) BENCHMARK(fn)->Arg(64)->Unit(benchmark::kMicrosecond)

TENET_BENCH_W6(BM_W6_tenet);
TENET_BENCH_W6BATCH(BM_W6batch_tenet);
#ifdef TENET_BENCH_HAVE_EIGEN
TENET_BENCH_W6(BM_W6_eigen);
TENET_BENCH_W6BATCH(BM_W6batch_eigen);
#endif
#ifdef TENET_HAVE_CBLAS
TENET_BENCH_W6(BM_W6_openblas);
TENET_BENCH_W6BATCH(BM_W6batch_openblas);
#endif
