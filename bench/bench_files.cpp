// Saving and loading a 1 GiB float32 tensor (issue 30), from and to the page cache (tmpfs,
// /dev/shm, or $TENET_BENCH_FILES_DIR), beside the floor: a plain fwrite/fread of the same bytes.
// NumPy's and PyTorch's times for the same files come from bench/files_torch.py, run on the
// same machine right after (report: bench/RESULTS.md).
//
//   F1 write: fwrite of the bytes          | tenet::save_npy          | tenet::save (.pt)
//   F2 read:  malloc + fread of the bytes  | tenet::load_npy          | tenet::load (.pt)
//             | fread into a buffer allocated once (the floor without the allocation)
//             | tenet::load_npy(mmap=true) then a sum that touches every page (a mapped load
//               alone costs nothing, so the sum is what makes it comparable)
//
// Each read allocates its destination, as the loaders must; one iteration per repetition (a
// GiB per run), so run with --benchmark_repetitions and take the median.
#if TENET_HAVE_LIBZIP
#include <benchmark/benchmark.h>
#include <tenet/files.hpp>
#include <tenet/tenet.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace {

using namespace tenet;

constexpr int64_t kElements = int64_t{1} << 28;  // 1 GiB of float32

std::string bench_dir() {
    const char* dir = std::getenv("TENET_BENCH_FILES_DIR");
    return dir != nullptr ? dir : "/dev/shm";
}

const Tensor<float>& gib_tensor() {
    static const Tensor<float> t = arange<float>(kElements) * 0.5f;
    return t;
}

void set_bytes(benchmark::State& state) { state.SetBytesProcessed(state.iterations() * kElements * 4); }

void BM_F1_fwrite(benchmark::State& state) {
    const Tensor<float>& t = gib_tensor();
    const std::string path = bench_dir() + "/tenet_bench_plain.bin";
    for (auto _ : state) {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (f == nullptr || std::fwrite(t.data_ptr(), 4, kElements, f) != size_t(kElements)) state.SkipWithError("fwrite");
        if (f != nullptr) std::fclose(f);
    }
    set_bytes(state);
}

void BM_F1_save_npy(benchmark::State& state) {
    const Tensor<float>& t = gib_tensor();
    const std::string path = bench_dir() + "/tenet_bench.npy";
    for (auto _ : state) save_npy(path, t);
    set_bytes(state);
}

void BM_F1_save_pt(benchmark::State& state) {
    const Tensor<float>& t = gib_tensor();
    const std::string path = bench_dir() + "/tenet_bench.pt";
    for (auto _ : state) save(t, path);
    set_bytes(state);
}

void BM_F2_fread(benchmark::State& state) {
    const std::string path = bench_dir() + "/tenet_bench_plain.bin";
    for (auto _ : state) {
        std::unique_ptr<float[]> buffer(new float[kElements]);
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (f == nullptr || std::fread(buffer.get(), 4, kElements, f) != size_t(kElements)) state.SkipWithError("fread");
        if (f != nullptr) std::fclose(f);
        benchmark::DoNotOptimize(buffer.get());
    }
    set_bytes(state);
}

// The floor without the allocation: fread into one buffer, allocated and touched before timing.
// tenet's loaders allocate from its caching allocator, which after the first load hands back the
// same (already mapped) block: between this and the fresh-memory fread above.
void BM_F2_fread_reused(benchmark::State& state) {
    const std::string path = bench_dir() + "/tenet_bench_plain.bin";
    std::unique_ptr<float[]> buffer(new float[kElements]());
    for (auto _ : state) {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (f == nullptr || std::fread(buffer.get(), 4, kElements, f) != size_t(kElements)) state.SkipWithError("fread");
        if (f != nullptr) std::fclose(f);
        benchmark::DoNotOptimize(buffer.get());
    }
    set_bytes(state);
}

void BM_F2_load_npy(benchmark::State& state) {
    const std::string path = bench_dir() + "/tenet_bench.npy";
    for (auto _ : state) {
        Tensor<float> t = load_npy<float>(path);
        benchmark::DoNotOptimize(t.data_ptr());
    }
    set_bytes(state);
}

void BM_F2_load_npy_mmap_sum(benchmark::State& state) {
    const std::string path = bench_dir() + "/tenet_bench.npy";
    for (auto _ : state) {
        Tensor<float> t = load_npy<float>(path, /*mmap=*/true);
        benchmark::DoNotOptimize(t.sum().item());
    }
    set_bytes(state);
}

void BM_F2_load_pt(benchmark::State& state) {
    const std::string path = bench_dir() + "/tenet_bench.pt";
    for (auto _ : state) {
        Tensor<float> t = load<float>(path);
        benchmark::DoNotOptimize(t.data_ptr());
    }
    set_bytes(state);
}

// The writers run first, so that each reader finds its file.
BENCHMARK(BM_F1_fwrite)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_F1_save_npy)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_F1_save_pt)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_F2_fread)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_F2_fread_reused)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_F2_load_npy)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_F2_load_npy_mmap_sum)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_F2_load_pt)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
#endif
