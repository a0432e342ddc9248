// Indexing with tensors (issue 29's table): tenet beside a careful plain loop, in the same run.
// LibTorch's side is bench_torch_index.cpp.
//
//   I1 index_select of 2^20 random rows from a [2^22, 16] float32 table
//   I2 gather along the last dim of [4096, 4096] float32 (random int64 positions)
//   I3 x.index({mask}) on 2^24 float32 with half the mask set
//   I4 index_put_ with accumulate: 2^20 float32 updates into 2^16 slots
// One thread throughout.

#include <benchmark/benchmark.h>
#include <tenet/tenet.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace {

using namespace tenet;

void one_thread() { set_num_threads(1); }

Tensor<float> random_table(const IntArray& sizes, uint32_t seed) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> dist;
    Tensor<float> t = empty<float>(sizes);
    for (int64_t i = 0; i < t.numel(); ++i) t.data_ptr()[i] = dist(gen);
    return t;
}

Tensor<int64_t> random_positions(const IntArray& sizes, int64_t bound, uint32_t seed) {
    std::mt19937_64 gen(seed);
    std::uniform_int_distribution<int64_t> dist(0, bound - 1);
    Tensor<int64_t> t = empty<int64_t>(sizes);
    for (int64_t i = 0; i < t.numel(); ++i) t.data_ptr()[i] = dist(gen);
    return t;
}

constexpr int64_t kRows = int64_t{1} << 22, kCols = 16, kPicked = int64_t{1} << 20;

// ---- I1: index_select --------------------------------------------------------------------------
void BM_I1_index_select_tenet(benchmark::State& state) {
    one_thread();
    const Tensor<float> table = random_table({kRows, kCols}, 1);
    const Tensor<int64_t> rows = random_positions({kPicked}, kRows, 2);
    for (auto _ : state) benchmark::DoNotOptimize(index_select(table, 0, rows).data_ptr());
    state.SetItemsProcessed(state.iterations() * kPicked);
}
BENCHMARK(BM_I1_index_select_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_I1_index_select_plain(benchmark::State& state) {
    const Tensor<float> table = random_table({kRows, kCols}, 1);
    const Tensor<int64_t> rows = random_positions({kPicked}, kRows, 2);
    std::vector<float> out(static_cast<size_t>(kPicked * kCols));
    for (auto _ : state) {
        const float* t = table.data_ptr();
        const int64_t* r = rows.data_ptr();
        for (int64_t i = 0; i < kPicked; ++i)
            for (int64_t j = 0; j < kCols; ++j) out[static_cast<size_t>(i * kCols + j)] = t[r[i] * kCols + j];
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * kPicked);
}
BENCHMARK(BM_I1_index_select_plain)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- I2: gather ----------------------------------------------------------------------------------
constexpr int64_t kSide = 4096;
void BM_I2_gather_tenet(benchmark::State& state) {
    one_thread();
    const Tensor<float> x = random_table({kSide, kSide}, 3);
    const Tensor<int64_t> at = random_positions({kSide, kSide}, kSide, 4);
    for (auto _ : state) benchmark::DoNotOptimize(gather(x, 1, at).data_ptr());
    state.SetItemsProcessed(state.iterations() * kSide * kSide);
}
BENCHMARK(BM_I2_gather_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_I2_gather_plain(benchmark::State& state) {
    const Tensor<float> x = random_table({kSide, kSide}, 3);
    const Tensor<int64_t> at = random_positions({kSide, kSide}, kSide, 4);
    std::vector<float> out(static_cast<size_t>(kSide * kSide));
    for (auto _ : state) {
        const float* xp = x.data_ptr();
        const int64_t* ap = at.data_ptr();
        for (int64_t i = 0; i < kSide; ++i)
            for (int64_t j = 0; j < kSide; ++j) out[static_cast<size_t>(i * kSide + j)] = xp[i * kSide + ap[i * kSide + j]];
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * kSide * kSide);
}
BENCHMARK(BM_I2_gather_plain)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- I3: a mask ------------------------------------------------------------------------------------
constexpr int64_t kLarge = int64_t{1} << 24;
void BM_I3_mask_index_tenet(benchmark::State& state) {
    one_thread();
    const Tensor<float> x = random_table({kLarge}, 5);
    const Tensor<bool> mask = x > 0.0f;
    for (auto _ : state) benchmark::DoNotOptimize(x.index({mask}).data_ptr());
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_I3_mask_index_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_I3_mask_index_plain(benchmark::State& state) {
    const Tensor<float> x = random_table({kLarge}, 5);
    const Tensor<bool> mask = x > 0.0f;
    std::vector<float> out(static_cast<size_t>(kLarge));
    for (auto _ : state) {
        const float* xp = x.data_ptr();
        const bool* mp = mask.data_ptr();
        int64_t n = 0;
        for (int64_t i = 0; i < kLarge; ++i) {
            out[static_cast<size_t>(n)] = xp[i];
            n += mp[i];
        }
        benchmark::DoNotOptimize(out.data());
        benchmark::DoNotOptimize(n);
    }
    state.SetItemsProcessed(state.iterations() * kLarge);
}
BENCHMARK(BM_I3_mask_index_plain)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- I4: index_put_ with accumulate ----------------------------------------------------------------
constexpr int64_t kUpdates = int64_t{1} << 20, kSlots = int64_t{1} << 16;
void BM_I4_index_put_accumulate_tenet(benchmark::State& state) {
    one_thread();
    Tensor<float> slots = zeros<float>({kSlots});
    const Tensor<int64_t> at = random_positions({kUpdates}, kSlots, 6);
    const Tensor<float> values = random_table({kUpdates}, 7);
    for (auto _ : state) {
        slots.index_put_({at}, values, /*accumulate=*/true);
        benchmark::DoNotOptimize(slots.data_ptr());
    }
    state.SetItemsProcessed(state.iterations() * kUpdates);
}
BENCHMARK(BM_I4_index_put_accumulate_tenet)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_I4_index_put_accumulate_plain(benchmark::State& state) {
    std::vector<float> slots(static_cast<size_t>(kSlots));
    const Tensor<int64_t> at = random_positions({kUpdates}, kSlots, 6);
    const Tensor<float> values = random_table({kUpdates}, 7);
    for (auto _ : state) {
        const int64_t* ap = at.data_ptr();
        const float* vp = values.data_ptr();
        for (int64_t i = 0; i < kUpdates; ++i) slots[static_cast<size_t>(ap[i])] += vp[i];
        benchmark::DoNotOptimize(slots.data());
    }
    state.SetItemsProcessed(state.iterations() * kUpdates);
}
BENCHMARK(BM_I4_index_put_accumulate_plain)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
