// tenet::distributed's speed, run under the MPI launcher (bench/distributed/run.sh):
//   BM_mpi_allreduce / BM_tenet_all_reduce: the same float32 buffer summed across the ranks by
//     Open MPI's own MPI_Allreduce (called here, on the main thread) and by distributed::all_reduce
//     (tenet's MPI thread, nonblocking call, the signature check, polling);
//   BM_ddp_logistic_step: one data-parallel step of W8's logistic regression (forward, backward
//     with DDP's bucketed all-reduce, SGD update) on a per-rank batch; run on 1 and on 2 processes,
//     throughput = world size x batch / step time.
// Every rank runs the same fixed iteration counts (collectives must meet); rank 0 reports.
// TENET_BENCH_TIMELINE=file.csv also records one backward pass's bucket timeline (write_timeline).
#include <benchmark/benchmark.h>

#include <mpi.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include <tenet/distributed.hpp>

using namespace tenet;
namespace dist = tenet::distributed;

namespace {

void BM_mpi_allreduce(benchmark::State& state) {
    std::vector<float> buffer(static_cast<size_t>(state.range(0)) / sizeof(float), 1.0f);
    MPI_Barrier(MPI_COMM_WORLD);
    for (auto _ : state) {
        MPI_Allreduce(MPI_IN_PLACE, buffer.data(), static_cast<int>(buffer.size()), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        benchmark::DoNotOptimize(buffer.data());
    }
    state.SetBytesProcessed(state.iterations() * state.range(0));
}

void BM_tenet_all_reduce(benchmark::State& state) {
    Tensor<float> t = ones<float>({state.range(0) / static_cast<int64_t>(sizeof(float))});
    dist::barrier();
    for (auto _ : state) {
        dist::all_reduce(t);
        benchmark::DoNotOptimize(t.data_ptr());
    }
    state.SetBytesProcessed(state.iterations() * state.range(0));
}

// W8: logistic regression, 512 features, a per-rank batch of state.range(0) samples.
void BM_ddp_logistic_step(benchmark::State& state) {
    const int64_t batch = state.range(0), features = 512;
    manual_seed(static_cast<uint64_t>(dist::get_rank()));
    const Tensor<float> x = randn({batch, features});
    const Tensor<float> y = (rand({batch, 1}) > 0.5f).eval().to<float>();
    Tensor<float> w = zeros({features, 1}).requires_grad_();
    Tensor<float> b = zeros({1}).requires_grad_();
    dist::DistributedDataParallel ddp({w, b});
    dist::barrier();
    for (auto _ : state) {
        const Tensor<float> p = sigmoid(matmul(x, w) + b);
        const Tensor<float> loss = (-(y * log(p) + (1.0f - y) * log(1.0f - p))).mean();
        loss.backward();
        NoGradGuard no_grad;
        w.detach().sub_(w.grad() * 0.1f);
        b.detach().sub_(b.grad() * 0.1f);
        w.reset_grad();
        b.reset_grad();
    }
    state.SetItemsProcessed(state.iterations() * batch * dist::get_world_size());
    state.counters["world"] = dist::get_world_size();
}

/// One data-parallel backward pass of a 6-layer MLP (1024 wide, 8 MiB buckets), its buckets'
/// all-reduce times written to `path` as CSV, in ms since backward started: the overlap plot
/// (bench/distributed/plot_timeline.py).
void write_timeline(const char* path) {
    manual_seed(0);
    const int64_t width = 1024, layers = 6;
    const Tensor<float> x = randn({512, width});
    std::vector<Tensor<float>> weights, biases;
    std::vector<TensorBase> parameters;
    for (int64_t l = 0; l < layers; ++l) {
        weights.push_back((randn({width, width}) * 0.03f).eval().requires_grad_());
        biases.push_back(zeros({width}).requires_grad_());
        parameters.push_back(weights.back());
        parameters.push_back(biases.back());
    }
    dist::DistributedDataParallel ddp(parameters, {.bucket_cap_mb = 8});
    for (int step = 0; step < 3; ++step) {  // the last step is recorded
        Tensor<float> h = x;
        for (int64_t l = 0; l < layers; ++l) h = tanh(matmul(h, weights[l]) + biases[l]);
        const Tensor<float> loss = h.pow(2).mean();
        dist::barrier();
        const auto start = std::chrono::steady_clock::now();
        loss.backward();
        const auto end = std::chrono::steady_clock::now();
        for (auto& p : parameters) p.as<float>().reset_grad();
        if (step < 2 || dist::get_rank() != 0) continue;
        auto ms = [&](std::chrono::steady_clock::time_point t) {
            return std::chrono::duration<double, std::milli>(t - start).count();
        };
        std::FILE* f = std::fopen(path, "w");
        std::fprintf(f, "bucket,bytes,ready_ms,finished_ms,backward_end_ms,world\n");
        for (const dist::BucketTiming& t : ddp.last_timings())
            std::fprintf(f, "%zu,%lld,%.3f,%.3f,%.3f,%d\n", t.bucket, static_cast<long long>(t.bytes), ms(t.ready),
                         ms(t.finished), ms(end), dist::get_world_size());
        std::fclose(f);
    }
}

}  // namespace

BENCHMARK(BM_mpi_allreduce)->Arg(64 << 20)->Iterations(10)->Repetitions(5)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_tenet_all_reduce)->Arg(64 << 20)->Iterations(10)->Repetitions(5)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ddp_logistic_step)->Arg(1 << 15)->Iterations(20)->Repetitions(5)->Unit(benchmark::kMillisecond)->UseRealTime();

int main(int argc, char** argv) {
    // The program calls MPI itself (BM_mpi_allreduce) beside tenet's MPI thread: MPI_THREAD_MULTIPLE,
    // and so it initializes MPI, with the all-reduce algorithm tenet picks when it does
    // (distributed/mpi_engine.hpp; MPI_Allreduce itself does not use it).
    setenv("OMPI_MCA_coll_libnbc_iallreduce_algorithm", "3", /*overwrite=*/0);
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    dist::init_process_group("mpi");
    benchmark::Initialize(&argc, argv);
    if (dist::get_rank() == 0) {
        benchmark::RunSpecifiedBenchmarks();
    } else {
        // The other ranks run the same iterations and report nothing.
        std::ofstream null("/dev/null");
        benchmark::ConsoleReporter quiet;
        quiet.SetOutputStream(&null);
        quiet.SetErrorStream(&null);
        benchmark::RunSpecifiedBenchmarks(&quiet);
    }
    if (const char* path = std::getenv("TENET_BENCH_TIMELINE")) write_timeline(path);
    dist::destroy_process_group();
    MPI_Finalize();
    return 0;
}
