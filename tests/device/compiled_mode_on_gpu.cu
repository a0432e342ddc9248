// A check for a machine with a GPU (CI has none): a TU compiled by nvcc in compiled mode
// (TENET_COMPILED=1), linked with the compiled library built by the host compiler, runs the
// device paths that reach the library: sum_to of a bias's gradient on the device (through the
// slot nvcc TUs fill, autograd/gradient_pass.hpp), the view, copy and sum nodes, the engine and
// create_graph. Expected values from calculus with integer-valued inputs (exact).
// Not part of a test binary. Build and run from the repository root (nvcc, Eigen's headers):
//   for src in include/tenet/compiled/library.cpp <one walk TU per element type>; do
//       g++ -std=c++20 -O1 -fopenmp -DTENET_COMPILED=1 -Iinclude -Ikernels -I/usr/include/eigen3 -c ...; done
//   nvcc -std=c++20 -O1 -arch=sm_90 --expt-relaxed-constexpr -Xcompiler=-fopenmp -DTENET_COMPILED=1 -Iinclude \
//        -Ikernels -I/usr/include/eigen3 tests/device/compiled_mode_on_gpu.cu <the library's objects> -lcublas
// Exit 0: every value exact; 77: no GPU.
#include <tenet/tenet.hpp>
#include "gpu_check.hpp"
#include <cstdio>
#include <vector>
using namespace tenet;

static_assert(TENET_COMPILED == 1, "build this check in compiled mode");

int main() {
    if (!cuda_is_available()) { std::printf("no GPU\n"); return 77; }
    const Device cuda("cuda");
    int failures = 0;
    auto report = [&](const char* what, int bad) {
        std::printf("%s: %d mismatches\n", what, bad);
        failures += bad != 0;
    };
    const int64_t m = 37, n = 300;
    // x[i, j] = (i + 2 j) % 5 - 2
    std::vector<float> xv(m * n);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) xv[i * n + j] = float((i + 2 * j) % 5 - 2);
    auto sum_rows = [&](int64_t j) {
        double s = 0;
        for (int64_t i = 0; i < m; ++i) s += xv[i * n + j];
        return float(s);
    };
    const Tensor<float> x = tensor(xv, {m, n}).to(cuda);
    {
        auto w = ones({n}, cuda).requires_grad_();
        auto b = zeros({1, n}, cuda).requires_grad_();
        Tensor<float> y = x * w + b;  // FusedNode on the device; w, b summed back by sum_to
        y.backward(ones({m, n}, cuda));
        report("device bias: w.grad", mismatches(w.grad(), sum_rows));
        report("device bias: b.grad", mismatches(b.grad(), [&](int64_t) { return float(m); }));
    }
    {
        auto w = ones({n}, cuda).requires_grad_();
        auto v = w.view({3, 100}).t();  // ViewNode twice
        Tensor<float> z = v * 2.0f;
        z.sum().backward();
        report("device views: w.grad", mismatches(w.grad(), [](int64_t) { return 2.0f; }));
    }
    {
        auto h = arange(6.0f).requires_grad_();
        auto d = h.to(cuda);  // CopyNode host -> device
        Tensor<float> q = d * d;
        q.sum().backward();
        report("copy to the device: h.grad", mismatches(h.grad(), [](int64_t k) { return 2.0f * float(k); }));
    }
    {
        // create_graph: d/dw of sum(w^3) is 3 w^2; its gradient again, 6 w.
        auto w = arange(1.0f, 5.0f).to(cuda).requires_grad_();
        Tensor<float> c = w * w * w;
        auto g = autograd::grad<float>({c.sum()}, {w}, {}, true, true);
        g[0].sum().backward();
        report("device create_graph: w.grad", mismatches(w.grad(), [](int64_t k) { return 6.0f * float(k + 1); }));
    }
    std::printf(failures ? "FAILED\n" : "all exact\n");
    return failures ? 1 : 0;
}
