// LibTorch's side of bench_index.cpp (I1-I4; the workloads are described there). Compiled only
// when CMake found LibTorch (TENET_BENCH_HAVE_TORCH). One intra-op thread, as tenet.

#ifdef TENET_BENCH_HAVE_TORCH

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>

namespace {

void one_thread() { at::set_num_threads(1); }

void BM_I1_index_select_torch(benchmark::State& state) {
    one_thread();
    const at::Tensor table = at::randn({int64_t{1} << 22, 16});
    const at::Tensor rows = at::randint(0, int64_t{1} << 22, {int64_t{1} << 20}, at::kLong);
    for (auto _ : state) benchmark::DoNotOptimize(table.index_select(0, rows).data_ptr());
    state.SetItemsProcessed(state.iterations() * (int64_t{1} << 20));
}
BENCHMARK(BM_I1_index_select_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_I2_gather_torch(benchmark::State& state) {
    one_thread();
    const at::Tensor x = at::randn({4096, 4096});
    const at::Tensor at_ = at::randint(0, 4096, {4096, 4096}, at::kLong);
    for (auto _ : state) benchmark::DoNotOptimize(x.gather(1, at_).data_ptr());
    state.SetItemsProcessed(state.iterations() * 4096 * 4096);
}
BENCHMARK(BM_I2_gather_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_I3_mask_index_torch(benchmark::State& state) {
    one_thread();
    const at::Tensor x = at::randn({int64_t{1} << 24});
    const at::Tensor mask = x > 0;
    for (auto _ : state) benchmark::DoNotOptimize(x.index({mask}).data_ptr());
    state.SetItemsProcessed(state.iterations() * (int64_t{1} << 24));
}
BENCHMARK(BM_I3_mask_index_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_I4_index_put_accumulate_torch(benchmark::State& state) {
    one_thread();
    at::Tensor slots = at::zeros({int64_t{1} << 16});
    const at::Tensor at_ = at::randint(0, int64_t{1} << 16, {int64_t{1} << 20}, at::kLong);
    const at::Tensor values = at::randn({int64_t{1} << 20});
    for (auto _ : state) benchmark::DoNotOptimize(slots.index_put_({at_}, values, /*accumulate=*/true).data_ptr());
    state.SetItemsProcessed(state.iterations() * (int64_t{1} << 20));
}
BENCHMARK(BM_I4_index_put_accumulate_torch)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

#endif  // TENET_BENCH_HAVE_TORCH
