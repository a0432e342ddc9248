// Device benchmarks of the operations beyond pointwise math: FFTs, sorting, scans, indexing and
// complex pointwise math. Each tenet row has a "plain" twin that calls the library or kernel a
// CUDA programmer would write by hand (cuFFT with a plan made once, CUB, a grid-stride kernel),
// on the same inputs, so the ratio is tenet's overhead over the engine it calls. Sizes are the
// host rows' (bench_fft.cpp, bench_stats.cpp, bench_index.cpp, bench_complex.cpp), so the host
// and device tables line up; bench/cuda/ops_torch_cuda.py times PyTorch (CUDA) on the same rows.
// Device time from CUDA events (device_timing.hpp); outputs are fresh tensors on both sides
// where tenet's call returns one (the caching allocator serves them).

#include "device_timing.hpp"

#include <cub/cub.cuh>
#include <cufft.h>

#include <tenet/fft.hpp>

#include <cstdint>
#include <vector>

namespace {

using tenet::Tensor;
using tenet_bench::run_timed;

const tenet::Device& cuda() {
    static const tenet::Device d("cuda");
    return d;
}

int grid_size() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    return sms * 8;
}

/// Scratch memory for CUB's two-phase calls, kept across iterations.
struct Scratch {
    void* p = nullptr;
    size_t bytes = 0;
    void* get(size_t need) {
        if (need > bytes) {
            cudaFree(p);
            cudaMalloc(&p, need);
            bytes = need;
        }
        return p;
    }
};

// ---- DF1: complex64 FFT of 2^20 -----------------------------------------------------------------
constexpr int64_t kFftLength = int64_t{1} << 20;

const Tensor<tenet::complex<float>>& fft_input() {
    static const Tensor<tenet::complex<float>> x = [] {
        tenet::manual_seed(11);
        return tenet::randn({kFftLength}, tenet::kComplex64).to(cuda());
    }();
    return x;
}

void BM_DF1_fft_tenet(benchmark::State& state) {
    const auto& x = fft_input();
    run_timed(state, 0, [&] { benchmark::DoNotOptimize(tenet::fft::fft(x).data_ptr()); });
}

void BM_DF1_fft_cufft(benchmark::State& state) {
    const auto& x = fft_input();
    Tensor<tenet::complex<float>> y = tenet::empty({kFftLength}, tenet::kComplex64, cuda());
    cufftHandle plan;
    cufftPlan1d(&plan, static_cast<int>(kFftLength), CUFFT_C2C, 1);
    run_timed(state, 0, [&] {
        cufftExecC2C(plan, reinterpret_cast<cufftComplex*>(const_cast<tenet::complex<float>*>(x.data_ptr())),
                     reinterpret_cast<cufftComplex*>(y.data_ptr()), CUFFT_FORWARD);
    });
    cufftDestroy(plan);
}

// ---- DF3: rfft of [1024, 4096] float32 rows ------------------------------------------------------
constexpr int64_t kFftRows = 1024, kFftCols = 4096;

const Tensor<float>& rfft_input() {
    static const Tensor<float> x = [] {
        tenet::manual_seed(12);
        return tenet::randn({kFftRows, kFftCols}).to(cuda());
    }();
    return x;
}

void BM_DF3_rfft_rows_tenet(benchmark::State& state) {
    const auto& x = rfft_input();
    run_timed(state, 0, [&] { benchmark::DoNotOptimize(tenet::fft::rfft(x).data_ptr()); });
}

void BM_DF3_rfft_rows_cufft(benchmark::State& state) {
    const auto& x = rfft_input();
    Tensor<tenet::complex<float>> y = tenet::empty({kFftRows, kFftCols / 2 + 1}, tenet::kComplex64, cuda());
    cufftHandle plan;
    int n = static_cast<int>(kFftCols);
    cufftPlanMany(&plan, 1, &n, nullptr, 1, static_cast<int>(kFftCols), nullptr, 1, static_cast<int>(kFftCols / 2 + 1),
                  CUFFT_R2C, static_cast<int>(kFftRows));
    run_timed(state, 0, [&] {
        cufftExecR2C(plan, const_cast<float*>(x.data_ptr()), reinterpret_cast<cufftComplex*>(y.data_ptr()));
    });
    cufftDestroy(plan);
}

// ---- DS1: sort 2^24 float32 (values and int64 indices) ------------------------------------------
constexpr int64_t kLarge = int64_t{1} << 24;

const Tensor<float>& large_floats() {
    static const Tensor<float> x = [] {
        tenet::manual_seed(13);
        return tenet::randn({kLarge}).to(cuda());
    }();
    return x;
}

void BM_DS1_sort_tenet(benchmark::State& state) {
    const auto& x = large_floats();
    run_timed(state, 0, [&] {
        auto r = tenet::sort(x);
        benchmark::DoNotOptimize(r.values.data_ptr());
    });
}

void BM_DS1_sort_cub(benchmark::State& state) {
    const auto& x = large_floats();
    const Tensor<int64_t> iota = tenet::arange(kLarge).to(cuda());
    Tensor<float> keys = tenet::empty({kLarge}, tenet::kFloat32, cuda());
    Tensor<int64_t> order = tenet::empty({kLarge}, tenet::kInt64, cuda());
    Scratch scratch;
    size_t need = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, need, x.data_ptr(), keys.data_ptr(), iota.data_ptr(), order.data_ptr(),
                                    static_cast<int>(kLarge));
    void* tmp = scratch.get(need);
    run_timed(state, 0, [&] {
        cub::DeviceRadixSort::SortPairs(tmp, need, x.data_ptr(), keys.data_ptr(), iota.data_ptr(), order.data_ptr(),
                                        static_cast<int>(kLarge));
    });
    cudaFree(scratch.p);
}

// ---- DS2: sort each row of [4096, 1024] float32 --------------------------------------------------
constexpr int64_t kSortRows = 4096, kSortCols = 1024;

const Tensor<float>& row_floats() {
    static const Tensor<float> x = [] {
        tenet::manual_seed(14);
        return tenet::randn({kSortRows, kSortCols}).to(cuda());
    }();
    return x;
}

void BM_DS2_sort_rows_tenet(benchmark::State& state) {
    const auto& x = row_floats();
    run_timed(state, 0, [&] {
        auto r = tenet::sort(x, 1);
        benchmark::DoNotOptimize(r.values.data_ptr());
    });
}

void BM_DS2_sort_rows_cub(benchmark::State& state) {
    const auto& x = row_floats();
    const Tensor<int64_t> iota = (tenet::arange(kSortRows * kSortCols) % kSortCols).to(cuda());
    const Tensor<int> offsets = (tenet::arange(kSortRows + 1) * kSortCols).to<int>().to(cuda());
    Tensor<float> keys = tenet::empty({kSortRows, kSortCols}, tenet::kFloat32, cuda());
    Tensor<int64_t> order = tenet::empty({kSortRows, kSortCols}, tenet::kInt64, cuda());
    Scratch scratch;
    size_t need = 0;
    const int n = static_cast<int>(kSortRows * kSortCols), segments = static_cast<int>(kSortRows);
    cub::DeviceSegmentedSort::StableSortPairs(nullptr, need, x.data_ptr(), keys.data_ptr(), iota.data_ptr(),
                                              order.data_ptr(), n, segments, offsets.data_ptr(), offsets.data_ptr() + 1);
    void* tmp = scratch.get(need);
    run_timed(state, 0, [&] {
        cub::DeviceSegmentedSort::StableSortPairs(tmp, need, x.data_ptr(), keys.data_ptr(), iota.data_ptr(),
                                                  order.data_ptr(), n, segments, offsets.data_ptr(),
                                                  offsets.data_ptr() + 1);
    });
    cudaFree(scratch.p);
}

// ---- DS4: cumsum of 2^24 float32 -----------------------------------------------------------------
void BM_DS4_cumsum_tenet(benchmark::State& state) {
    const auto& x = large_floats();
    run_timed(state, 2 * kLarge * 4, [&] { benchmark::DoNotOptimize(tenet::cumsum(x, 0).data_ptr()); });
}

void BM_DS4_cumsum_cub(benchmark::State& state) {
    const auto& x = large_floats();
    Tensor<float> y = tenet::empty({kLarge}, tenet::kFloat32, cuda());
    Scratch scratch;
    size_t need = 0;
    cub::DeviceScan::InclusiveSum(nullptr, need, x.data_ptr(), y.data_ptr(), static_cast<int>(kLarge));
    void* tmp = scratch.get(need);
    run_timed(state, 2 * kLarge * 4, [&] {
        cub::DeviceScan::InclusiveSum(tmp, need, x.data_ptr(), y.data_ptr(), static_cast<int>(kLarge));
    });
    cudaFree(scratch.p);
}

// ---- DI1: index_select of 2^20 rows from [2^22, 16] ----------------------------------------------
constexpr int64_t kTableRows = int64_t{1} << 22, kTableCols = 16, kPicked = int64_t{1} << 20;

struct SelectInputs {
    Tensor<float> table;
    Tensor<int64_t> rows;
    SelectInputs() {
        tenet::manual_seed(15);
        table = tenet::randn({kTableRows, kTableCols}).to(cuda());
        rows = tenet::randint(0, kTableRows, {kPicked}).to(cuda());
    }
};
const SelectInputs& select_inputs() {
    static const SelectInputs in;
    return in;
}

__global__ void select_rows(const float* table, const int64_t* rows, float* out, int64_t picked, int64_t cols) {
    for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < picked * cols;
         i += static_cast<int64_t>(gridDim.x) * blockDim.x)
        out[i] = table[rows[i / cols] * cols + i % cols];
}

void BM_DI1_index_select_tenet(benchmark::State& state) {
    const auto& in = select_inputs();
    run_timed(state, 0, [&] { benchmark::DoNotOptimize(tenet::index_select(in.table, 0, in.rows).data_ptr()); });
}

void BM_DI1_index_select_plain(benchmark::State& state) {
    const auto& in = select_inputs();
    Tensor<float> out = tenet::empty({kPicked, kTableCols}, tenet::kFloat32, cuda());
    const int grid = grid_size();
    run_timed(state, 0, [&] {
        select_rows<<<grid, 256>>>(in.table.data_ptr(), in.rows.data_ptr(), out.data_ptr(), kPicked, kTableCols);
    });
}

// ---- DI2: gather along dim 1 of [4096, 4096] -----------------------------------------------------
constexpr int64_t kSide = 4096;

struct GatherInputs {
    Tensor<float> x;
    Tensor<int64_t> at;
    GatherInputs() {
        tenet::manual_seed(16);
        x = tenet::randn({kSide, kSide}).to(cuda());
        at = tenet::randint(0, kSide, {kSide, kSide}).to(cuda());
    }
};
const GatherInputs& gather_inputs() {
    static const GatherInputs in;
    return in;
}

__global__ void gather_cols(const float* x, const int64_t* at, float* out, int64_t side) {
    for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < side * side;
         i += static_cast<int64_t>(gridDim.x) * blockDim.x)
        out[i] = x[(i / side) * side + at[i]];
}

void BM_DI2_gather_tenet(benchmark::State& state) {
    const auto& in = gather_inputs();
    run_timed(state, 0, [&] { benchmark::DoNotOptimize(tenet::gather(in.x, 1, in.at).data_ptr()); });
}

void BM_DI2_gather_plain(benchmark::State& state) {
    const auto& in = gather_inputs();
    Tensor<float> out = tenet::empty({kSide, kSide}, tenet::kFloat32, cuda());
    const int grid = grid_size();
    run_timed(state, 0, [&] { gather_cols<<<grid, 256>>>(in.x.data_ptr(), in.at.data_ptr(), out.data_ptr(), kSide); });
}

// ---- DI3: x.index({x > 0}) over 2^24 -------------------------------------------------------------
void BM_DI3_mask_index_tenet(benchmark::State& state) {
    const auto& x = large_floats();
    const Tensor<bool> mask = x > 0.0f;
    run_timed(state, 0, [&] { benchmark::DoNotOptimize(x.index({mask}).data_ptr()); });
}

void BM_DI3_mask_index_cub(benchmark::State& state) {
    const auto& x = large_floats();
    const Tensor<bool> mask = x > 0.0f;
    Tensor<float> out = tenet::empty({kLarge}, tenet::kFloat32, cuda());
    Tensor<int> count = tenet::empty({1}, tenet::kInt32, cuda());
    Scratch scratch;
    size_t need = 0;
    cub::DeviceSelect::Flagged(nullptr, need, x.data_ptr(), mask.data_ptr(), out.data_ptr(), count.data_ptr(),
                               static_cast<int>(kLarge));
    void* tmp = scratch.get(need);
    run_timed(state, 0, [&] {
        cub::DeviceSelect::Flagged(tmp, need, x.data_ptr(), mask.data_ptr(), out.data_ptr(), count.data_ptr(),
                                   static_cast<int>(kLarge));
        int n = 0;  // the result's size goes to the host, as tenet's must
        cudaMemcpy(&n, count.data_ptr(), sizeof n, cudaMemcpyDeviceToHost);
        benchmark::DoNotOptimize(n);
    });
    cudaFree(scratch.p);
}

// ---- DI4: index_put_ with accumulate, 2^20 updates into 2^16 slots -------------------------------
constexpr int64_t kUpdates = int64_t{1} << 20, kSlots = int64_t{1} << 16;

struct AccumulateInputs {
    Tensor<int64_t> at;
    Tensor<float> values;
    AccumulateInputs() {
        tenet::manual_seed(17);
        at = tenet::randint(0, kSlots, {kUpdates}).to(cuda());
        values = tenet::randn({kUpdates}).to(cuda());
    }
};
const AccumulateInputs& accumulate_inputs() {
    static const AccumulateInputs in;
    return in;
}

__global__ void add_at(float* slots, const int64_t* at, const float* values, int64_t n) {
    for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<int64_t>(gridDim.x) * blockDim.x)
        atomicAdd(slots + at[i], values[i]);
}

void BM_DI4_index_put_accumulate_tenet(benchmark::State& state) {
    const auto& in = accumulate_inputs();
    Tensor<float> slots = tenet::zeros({kSlots}, tenet::kFloat32, cuda());
    run_timed(state, 0, [&] { slots.index_put_({in.at}, in.values, /*accumulate=*/true); });
}

void BM_DI4_index_put_accumulate_plain(benchmark::State& state) {
    const auto& in = accumulate_inputs();
    Tensor<float> slots = tenet::zeros({kSlots}, tenet::kFloat32, cuda());
    const int grid = grid_size();
    run_timed(state, 0, [&] { add_at<<<grid, 256>>>(slots.data_ptr(), in.at.data_ptr(), in.values.data_ptr(), kUpdates); });
}

// ---- DC1: y = x * exp(1j * phase) over 2^24 complex64 --------------------------------------------
struct RotateInputs {
    Tensor<tenet::complex<float>> x;
    Tensor<float> phase;
    RotateInputs() {
        tenet::manual_seed(18);
        x = tenet::randn({kLarge}, tenet::kComplex64).to(cuda());
        phase = (tenet::rand({kLarge}) * 6.283185307f).to(cuda());
    }
};
const RotateInputs& rotate_inputs() {
    static const RotateInputs in;
    return in;
}

__global__ void rotate(const float2* x, const float* phase, float2* y, int64_t n) {
    for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        float s, c;
        sincosf(phase[i], &s, &c);
        const float2 v = x[i];
        y[i] = make_float2(v.x * c - v.y * s, v.x * s + v.y * c);
    }
}

void BM_DC1_rotate_tenet(benchmark::State& state) {
    const auto& in = rotate_inputs();
    Tensor<tenet::complex<float>> y = tenet::empty({kLarge}, tenet::kComplex64, cuda());
    const tenet::complex<float> i(0.0f, 1.0f);
    run_timed(state, kLarge * 20, [&] { y.assign(in.x * exp(i * in.phase)); });
}

void BM_DC1_rotate_plain(benchmark::State& state) {
    const auto& in = rotate_inputs();
    Tensor<tenet::complex<float>> y = tenet::empty({kLarge}, tenet::kComplex64, cuda());
    const int grid = grid_size();
    run_timed(state, kLarge * 20, [&] {
        rotate<<<grid, 256>>>(reinterpret_cast<const float2*>(in.x.data_ptr()), in.phase.data_ptr(),
                              reinterpret_cast<float2*>(y.data_ptr()), kLarge);
    });
}

}  // namespace

TENET_DEVICE_ROW(BM_DF1_fft_tenet);
TENET_DEVICE_ROW(BM_DF1_fft_cufft);
TENET_DEVICE_ROW(BM_DF3_rfft_rows_tenet);
TENET_DEVICE_ROW(BM_DF3_rfft_rows_cufft);
TENET_DEVICE_ROW(BM_DS1_sort_tenet);
TENET_DEVICE_ROW(BM_DS1_sort_cub);
TENET_DEVICE_ROW(BM_DS2_sort_rows_tenet);
TENET_DEVICE_ROW(BM_DS2_sort_rows_cub);
TENET_DEVICE_ROW(BM_DS4_cumsum_tenet);
TENET_DEVICE_ROW(BM_DS4_cumsum_cub);
TENET_DEVICE_ROW(BM_DI1_index_select_tenet);
TENET_DEVICE_ROW(BM_DI1_index_select_plain);
TENET_DEVICE_ROW(BM_DI2_gather_tenet);
TENET_DEVICE_ROW(BM_DI2_gather_plain);
TENET_DEVICE_ROW(BM_DI3_mask_index_tenet);
TENET_DEVICE_ROW(BM_DI3_mask_index_cub);
TENET_DEVICE_ROW(BM_DI4_index_put_accumulate_tenet);
TENET_DEVICE_ROW(BM_DI4_index_put_accumulate_plain);
TENET_DEVICE_ROW(BM_DC1_rotate_tenet);
TENET_DEVICE_ROW(BM_DC1_rotate_plain);
