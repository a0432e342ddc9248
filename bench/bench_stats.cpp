// Statistics, sorting, scans, softmax and cross_entropy (issue 28's table): tenet beside the
// anchors named there, in the same run. LibTorch's side is bench_torch_stats.cpp.
//
//   S1 sort of 2^24 random float32                 anchors: vqsort (keys only), std::sort
//   S2 sort along the last dim of [4096, 1024]     anchors: vqsort per row, std::sort per row
//   S3 topk(k = 16) of 2^24                        anchors: std::partial_sort, std::nth_element
//   S4 cumsum of 2^24 float32                      anchor: a plain loop
//   S5 softmax over the rows of [4096, 4096]       anchor: a hand two-pass loop, vectorised exp
//   S6 cross_entropy forward + backward, [4096, 1000] logits   anchor: a hand fused loop
//   S7 var of 2^24 float32                         anchor: a one-pass plain loop (Welford)
//   S8 unique of 2^24 int64 drawn from 2^16 values, with inverse and counts   (LibTorch only)
//
// tenet's sort returns values and indices (stable), as torch.sort does; the vqsort and std::sort
// anchors sort the keys alone, so they are the floor, not the same work. One thread throughout.

#include <benchmark/benchmark.h>
#include <tenet/tenet.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#if TENET_HAVE_VQSORT
#include <hwy/contrib/sort/vqsort.h>
#endif

#include "bench_plain_kernels.hpp"

namespace {

using namespace tenet;
namespace F = tenet::nn::functional;

constexpr int64_t kLarge = int64_t{1} << 24;

std::vector<float> random_floats(int64_t n, uint32_t seed = 7) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> dist;
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = dist(gen);
    return v;
}

Tensor<float> tensor_of(const std::vector<float>& v, const IntArray& sizes) {
    Tensor<float> t = empty<float>(sizes);
    std::copy(v.begin(), v.end(), t.data_ptr());
    return t;
}

void one_thread() { set_num_threads(1); }

// ---- S1, S2: sort --------------------------------------------------------------------------

void BM_S1_sort_tenet(benchmark::State& state) {
    one_thread();
    const Tensor<float> x = tensor_of(random_floats(kLarge), {kLarge});
    for (auto _ : state) {
        auto r = sort(x);
        benchmark::DoNotOptimize(r.values.data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S1_sort_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S1_sort_std(benchmark::State& state) {
    const std::vector<float> x = random_floats(kLarge);
    std::vector<float> y(x.size());
    for (auto _ : state) {
        std::copy(x.begin(), x.end(), y.begin());
        std::sort(y.begin(), y.end());
        benchmark::DoNotOptimize(y.data());
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S1_sort_std)->Unit(benchmark::kMillisecond)->UseRealTime();

#if TENET_HAVE_VQSORT
void BM_S1_sort_vqsort(benchmark::State& state) {
    const std::vector<float> x = random_floats(kLarge);
    std::vector<float> y(x.size());
    const hwy::Sorter sorter;
    for (auto _ : state) {
        std::copy(x.begin(), x.end(), y.begin());
        sorter(y.data(), y.size(), hwy::SortAscending());
        benchmark::DoNotOptimize(y.data());
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S1_sort_vqsort)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

constexpr int64_t kRows = 4096, kCols = 1024;

void BM_S2_sort_rows_tenet(benchmark::State& state) {
    one_thread();
    const Tensor<float> x = tensor_of(random_floats(kRows * kCols), {kRows, kCols});
    for (auto _ : state) {
        auto r = sort(x, -1);
        benchmark::DoNotOptimize(r.values.data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * kRows * kCols);
}
BENCHMARK(BM_S2_sort_rows_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S2_sort_rows_std(benchmark::State& state) {
    const std::vector<float> x = random_floats(kRows * kCols);
    std::vector<float> y(x.size());
    for (auto _ : state) {
        std::copy(x.begin(), x.end(), y.begin());
        for (int64_t r = 0; r < kRows; ++r) std::sort(y.begin() + r * kCols, y.begin() + (r + 1) * kCols);
        benchmark::DoNotOptimize(y.data());
    }
    state.SetItemsProcessed(state.iterations() * kRows * kCols);
}
BENCHMARK(BM_S2_sort_rows_std)->Unit(benchmark::kMillisecond)->UseRealTime();

#if TENET_HAVE_VQSORT
void BM_S2_sort_rows_vqsort(benchmark::State& state) {
    const std::vector<float> x = random_floats(kRows * kCols);
    std::vector<float> y(x.size());
    const hwy::Sorter sorter;
    for (auto _ : state) {
        std::copy(x.begin(), x.end(), y.begin());
        for (int64_t r = 0; r < kRows; ++r) sorter(y.data() + r * kCols, kCols, hwy::SortAscending());
        benchmark::DoNotOptimize(y.data());
    }
    state.SetItemsProcessed(state.iterations() * kRows * kCols);
}
BENCHMARK(BM_S2_sort_rows_vqsort)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

// ---- S3: topk ---------------------------------------------------------------------------------

void BM_S3_topk_tenet(benchmark::State& state) {
    one_thread();
    const Tensor<float> x = tensor_of(random_floats(kLarge), {kLarge});
    for (auto _ : state) {
        auto r = topk(x, 16);
        benchmark::DoNotOptimize(r.values.data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S3_topk_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S3_topk_partial_sort(benchmark::State& state) {
    const std::vector<float> x = random_floats(kLarge);
    std::vector<float> y(x.size());
    for (auto _ : state) {
        std::copy(x.begin(), x.end(), y.begin());
        std::partial_sort(y.begin(), y.begin() + 16, y.end(), std::greater<float>());
        benchmark::DoNotOptimize(y.data());
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S3_topk_partial_sort)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S3_topk_nth_element(benchmark::State& state) {
    const std::vector<float> x = random_floats(kLarge);
    std::vector<float> y(x.size());
    for (auto _ : state) {
        std::copy(x.begin(), x.end(), y.begin());
        std::nth_element(y.begin(), y.begin() + 15, y.end(), std::greater<float>());
        std::sort(y.begin(), y.begin() + 16, std::greater<float>());
        benchmark::DoNotOptimize(y.data());
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S3_topk_nth_element)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- S4: cumsum -------------------------------------------------------------------------------

void BM_S4_cumsum_tenet(benchmark::State& state) {
    one_thread();
    const Tensor<float> x = tensor_of(random_floats(kLarge), {kLarge});
    for (auto _ : state) {
        Tensor<float> y = cumsum(x, 0);
        benchmark::DoNotOptimize(y.data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S4_cumsum_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S4_cumsum_plain(benchmark::State& state) {
    const std::vector<float> x = random_floats(kLarge);
    std::vector<float> y(x.size());
    for (auto _ : state) {
        float running = 0;
        for (size_t i = 0; i < x.size(); ++i) y[i] = running += x[i];
        benchmark::DoNotOptimize(y.data());
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S4_cumsum_plain)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- S5: softmax ------------------------------------------------------------------------------

constexpr int64_t kSoftmaxSide = 4096;

void BM_S5_softmax_tenet(benchmark::State& state) {
    one_thread();
    const Tensor<float> x = tensor_of(random_floats(kSoftmaxSide * kSoftmaxSide), {kSoftmaxSide, kSoftmaxSide});
    for (auto _ : state) {
        Tensor<float> y = softmax(x, 1);
        benchmark::DoNotOptimize(y.data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * kSoftmaxSide * kSoftmaxSide);
}
BENCHMARK(BM_S5_softmax_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S5_softmax_hand(benchmark::State& state) {
    const std::vector<float> x = random_floats(kSoftmaxSide * kSoftmaxSide);
    std::vector<float> y(x.size());
    for (auto _ : state) {
        tenet_bench::softmax_rows_fastmath(x.data(), y.data(), kSoftmaxSide, kSoftmaxSide);
        benchmark::DoNotOptimize(y.data());
    }
    state.SetItemsProcessed(state.iterations() * kSoftmaxSide * kSoftmaxSide);
}
BENCHMARK(BM_S5_softmax_hand)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- S6: cross_entropy forward + backward ------------------------------------------------------

constexpr int64_t kBatch = 4096, kClasses = 1000;

std::vector<int64_t> random_classes() {
    std::mt19937 gen(3);
    std::uniform_int_distribution<int64_t> dist(0, kClasses - 1);
    std::vector<int64_t> t(kBatch);
    for (int64_t& c : t) c = dist(gen);
    return t;
}

void BM_S6_cross_entropy_tenet(benchmark::State& state) {
    one_thread();
    Tensor<float> logits = tensor_of(random_floats(kBatch * kClasses), {kBatch, kClasses}).requires_grad_();
    const std::vector<int64_t> classes = random_classes();
    Tensor<int64_t> target = empty<int64_t>({kBatch});
    std::copy(classes.begin(), classes.end(), target.data_ptr());
    for (auto _ : state) {
        logits.reset_grad();
        Tensor<float> loss = F::cross_entropy(logits, target);
        loss.backward();
        benchmark::DoNotOptimize(logits.grad().data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * kBatch * kClasses);
}
BENCHMARK(BM_S6_cross_entropy_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S6_cross_entropy_hand(benchmark::State& state) {
    const std::vector<float> logits = random_floats(kBatch * kClasses);
    const std::vector<int64_t> target = random_classes();
    std::vector<float> grad(logits.size());
    for (auto _ : state) {
        const float loss = tenet_bench::cross_entropy_fastmath(logits.data(), target.data(), grad.data(), kBatch, kClasses);
        benchmark::DoNotOptimize(loss);
        benchmark::DoNotOptimize(grad.data());
    }
    state.SetItemsProcessed(state.iterations() * kBatch * kClasses);
}
BENCHMARK(BM_S6_cross_entropy_hand)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- S7: var ----------------------------------------------------------------------------------

void BM_S7_var_tenet(benchmark::State& state) {
    one_thread();
    const Tensor<float> x = tensor_of(random_floats(kLarge), {kLarge});
    for (auto _ : state) {
        Tensor<float> v = var(x);
        benchmark::DoNotOptimize(v.data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S7_var_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S7_var_welford(benchmark::State& state) {
    const std::vector<float> x = random_floats(kLarge);
    for (auto _ : state) {
        double mean = 0, m2 = 0, n = 0;
        for (float v : x) {
            n += 1;
            const double d = v - mean;
            mean += d / n;
            m2 += d * (v - mean);
        }
        benchmark::DoNotOptimize(m2 / (n - 1));
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S7_var_welford)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- S8: unique ------------------------------------------------------------------------------

void BM_S8_unique_tenet(benchmark::State& state) {
    one_thread();
    std::mt19937 gen(11);
    std::uniform_int_distribution<int64_t> dist(0, (int64_t{1} << 16) - 1);
    Tensor<int64_t> x = empty<int64_t>({kLarge});
    for (int64_t i = 0; i < kLarge; ++i) x.data_ptr()[i] = dist(gen);
    for (auto _ : state) {
        auto r = unique(x, true, true, true);
        benchmark::DoNotOptimize(r.output.data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S8_unique_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
