// LibTorch's side of bench_stats.cpp (S1-S8; the workloads are described there). Compiled only
// when CMake found LibTorch (TENET_BENCH_HAVE_TORCH). One intra-op thread, as tenet.

#ifdef TENET_BENCH_HAVE_TORCH

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>

namespace {

constexpr int64_t kLarge = int64_t{1} << 24;

void one_thread() { at::set_num_threads(1); }

void BM_S1_sort_torch(benchmark::State& state) {
    one_thread();
    const at::Tensor x = at::randn({kLarge});
    for (auto _ : state) benchmark::DoNotOptimize(std::get<0>(x.sort()).data_ptr());
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S1_sort_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S2_sort_rows_torch(benchmark::State& state) {
    one_thread();
    const at::Tensor x = at::randn({4096, 1024});
    for (auto _ : state) benchmark::DoNotOptimize(std::get<0>(x.sort(-1)).data_ptr());
    state.SetItemsProcessed(state.iterations() * 4096 * 1024);
}
BENCHMARK(BM_S2_sort_rows_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S3_topk_torch(benchmark::State& state) {
    one_thread();
    const at::Tensor x = at::randn({kLarge});
    for (auto _ : state) benchmark::DoNotOptimize(std::get<0>(x.topk(16)).data_ptr());
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S3_topk_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S4_cumsum_torch(benchmark::State& state) {
    one_thread();
    const at::Tensor x = at::randn({kLarge});
    for (auto _ : state) benchmark::DoNotOptimize(x.cumsum(0).data_ptr());
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S4_cumsum_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S5_softmax_torch(benchmark::State& state) {
    one_thread();
    const at::Tensor x = at::randn({4096, 4096});
    for (auto _ : state) benchmark::DoNotOptimize(x.softmax(1).data_ptr());
    state.SetItemsProcessed(state.iterations() * 4096 * 4096);
}
BENCHMARK(BM_S5_softmax_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S6_cross_entropy_torch(benchmark::State& state) {
    one_thread();
    const at::Tensor logits = at::randn({4096, 1000}).set_requires_grad(true);
    const at::Tensor target = at::randint(0, 1000, {4096});
    for (auto _ : state) {
        logits.mutable_grad() = at::Tensor();
        at::Tensor loss = at::cross_entropy_loss(logits, target);
        loss.backward();
        benchmark::DoNotOptimize(logits.grad().data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * 4096 * 1000);
}
BENCHMARK(BM_S6_cross_entropy_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S7_var_torch(benchmark::State& state) {
    one_thread();
    const at::Tensor x = at::randn({kLarge});
    for (auto _ : state) benchmark::DoNotOptimize(x.var().data_ptr());
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S7_var_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S8_unique_torch(benchmark::State& state) {
    one_thread();
    const at::Tensor x = at::randint(0, int64_t{1} << 16, {kLarge}, at::kLong);
    for (auto _ : state)
        benchmark::DoNotOptimize(std::get<0>(at::_unique2(x, /*sorted=*/true, /*return_inverse=*/true,
                                                          /*return_counts=*/true)).data_ptr());
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_S8_unique_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

#endif  // TENET_BENCH_HAVE_TORCH
