// A check for a machine with a GPU (CI has none): threads sharing a device leaf through a fused
// sum, a cuBLAS matmul and a retained graph (issue 34), with exact gradients from calculus.
// Not part of a test binary. Build and run from the repository root (nvcc, Eigen's headers):
//   nvcc -std=c++20 -O1 -arch=sm_90 --expt-relaxed-constexpr -Xcompiler=-fopenmp -Iinclude -Ikernels \
//        -I/usr/include/eigen3 tests/device/threads_on_gpu.cu -o threads_on_gpu -lcublas && ./threads_on_gpu
// Exit 0: every gradient exact; 77: no GPU.
#include <tenet/tenet.hpp>
#include "gpu_check.hpp"
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>
using namespace tenet;

template <class W>
void run_threads(int n, W work) {
    std::vector<std::thread> pool;
    for (int t = 0; t < n; ++t) pool.emplace_back(work);
    for (auto& th : pool) th.join();
}

int main() {
    if (!cuda_is_available()) { std::printf("no GPU\n"); return 77; }
    set_num_threads(1);
    int failures = 0;
    const int threads = 4, passes = 200;
    const double total = double(threads) * passes;
    {
        auto w = ones({64}, Device("cuda")).requires_grad_();
        auto x = arange(64.0f).to(Device("cuda"));
        run_threads(threads, [&] { for (int i = 0; i < passes; ++i) (x * w).sum().backward(); });
        int bad = mismatches(w.grad(), [&](int64_t k) { return float(total * k); });
        std::printf("device fused sum, shared leaf: %d mismatches\n", bad);
        failures += bad != 0;
    }
    {
        auto W = ones({4, 3}, kFloat64, Device("cuda")).requires_grad_();
        auto A = arange(8.0, kFloat64).view({2, 4}).to(Device("cuda"));
        run_threads(threads, [&] { for (int i = 0; i < passes; ++i) A.mm(W).sum().backward(); });
        int bad = mismatches(W.grad(), [&](int64_t k) { return total * double(2 * (k / 3) + 4); });
        std::printf("device matmul (cuBLAS), shared leaf: %d mismatches\n", bad);
        failures += bad != 0;
    }
    {
        auto w = ones({32}, kFloat64, Device("cuda")).requires_grad_();
        auto x = arange(32.0, kFloat64).to(Device("cuda"));
        Tensor<double> h = x * w + 1.0;
        Tensor<double> loss = (h * h).sum();
        run_threads(threads, [&] { for (int i = 0; i < passes; ++i) loss.backward({}, true); });
        int bad = mismatches(w.grad(), [&](int64_t k) { return total * 2.0 * double(k + 1) * double(k); });
        std::printf("device retained graph walked by %d threads: %d mismatches\n", threads, bad);
        failures += bad != 0;
    }
    std::printf(failures ? "FAILED\n" : "all exact\n");
    return failures;
}
