// A check for a machine with a GPU (CI has none): the activations with parameters (hardtanh,
// relu6, leaky_relu, elu, selu, celu, threshold) and clamp with tensor bounds, forward and
// backward, evaluated by the CUDA kernels, against the same calls on the host (whose values the
// PyTorch-generated cases of tests/ops/stats_cases.txt pin), within 1e-5 relative (float32) and
// 1e-12 (float64). Not part of a test binary. Build and run from the repository root:
//   nvcc -std=c++20 -O1 -Xptxas=-O1 -arch=sm_90 --expt-relaxed-constexpr -Xcompiler=-fopenmp -Iinclude -Ikernels \
//        -I/usr/include/eigen3 tests/device/activations_on_gpu.cu -lcublas
// Exit 0: every value within tolerance; 77: no GPU.
#include <tenet/tenet.hpp>
#include "gpu_check.hpp"
#include <cmath>
#include <cstdio>
#include <vector>
using namespace tenet;

namespace {

template <class T>
void check(const Device& cuda) {
    const int64_t m = 37, n = 300;
    std::vector<T> xv(m * n), lov(n), hiv(m);
    for (int64_t k = 0; k < m * n; ++k) xv[k] = static_cast<T>(std::sin(0.37 * k) * 3 + 1e-3 * (k % 7));
    for (int64_t k = 0; k < m * n; k += 13) xv[k] = static_cast<T>(NAN);
    for (int64_t k = 0; k < n; ++k) lov[k] = static_cast<T>(std::cos(0.11 * k) - 1);
    for (int64_t k = 0; k < m; ++k) hiv[k] = static_cast<T>(1 + 0.05 * k);
    const Tensor<T> xh = tensor(xv, {m, n}), xd = xh.to(cuda);
    const Tensor<T> loh = tensor(lov, {n}), lod = loh.to(cuda);
    const Tensor<T> hih = tensor(hiv, {m, 1}), hid = hih.to(cuda);
    compare("hardtanh(-1, 1)", Tensor<T>(hardtanh(xd)), Tensor<T>(hardtanh(xh)));
    compare("relu6", Tensor<T>(relu6(xd * 3)), Tensor<T>(relu6(xh * 3)));
    compare("leaky_relu(0.2)", Tensor<T>(leaky_relu(xd, 0.2)), Tensor<T>(leaky_relu(xh, 0.2)));
    compare("elu(0.5)", Tensor<T>(elu(xd, 0.5)), Tensor<T>(elu(xh, 0.5)));
    compare("selu", Tensor<T>(selu(xd)), Tensor<T>(selu(xh)));
    compare("celu(2)", Tensor<T>(celu(xd, 2.0)), Tensor<T>(celu(xh, 2.0)));
    compare("threshold(0.5, -1)", Tensor<T>(threshold(xd, 0.5, -1.0)), Tensor<T>(threshold(xh, 0.5, -1.0)));
    compare("clamp(x, lo[n], hi[m, 1])", Tensor<T>(clamp(xd, lod, hid)), Tensor<T>(clamp(xh, loh, hih)));
    compare("clamp(x, lo) (no max)", Tensor<T>(clamp(xd, lod)), Tensor<T>(clamp(xh, loh)));
    // Gradients of sum(op(x) * w), device vs host (NaN-free x).
    const Tensor<T> x0h = tensor(xv, {m, n}).nan_to_num(0.25), x0d = x0h.to(cuda);
    const Tensor<T> wh = x0h.cos(), wd = wh.to(cuda);
    auto gradient = [&](const Tensor<T>& x0, auto&& op) {
        Tensor<T> x = x0.detach().clone().requires_grad_();
        Tensor<T> loss = (op(x) * (x0.device().is_cpu() ? wh : wd)).sum();
        loss.backward();
        return x.grad();
    };
    compare("hardtanh backward", gradient(x0d, [](const auto& x) { return hardtanh(x, -0.5, 2.0); }),
            gradient(x0h, [](const auto& x) { return hardtanh(x, -0.5, 2.0); }));
    compare("elu backward", gradient(x0d, [](const auto& x) { return elu(x, 1.5); }),
            gradient(x0h, [](const auto& x) { return elu(x, 1.5); }));
    compare("leaky_relu backward", gradient(x0d, [](const auto& x) { return leaky_relu(x, 0.1); }),
            gradient(x0h, [](const auto& x) { return leaky_relu(x, 0.1); }));
    compare("clamp(x, lo, hi) backward, x", gradient(x0d, [&](const auto& x) { return clamp(x, lod, hid); }),
            gradient(x0h, [&](const auto& x) { return clamp(x, loh, hih); }));
    auto lo_gradient = [&](const Tensor<T>& x0, const Tensor<T>& lo0, const Tensor<T>& hi0, const Tensor<T>& w) {
        Tensor<T> lo = lo0.detach().clone().requires_grad_();
        Tensor<T> loss = (clamp(x0, lo, hi0) * w).sum();
        loss.backward();
        return lo.grad();
    };
    compare("clamp(x, lo, hi) backward, lo", lo_gradient(x0d, lod, hid, wd), lo_gradient(x0h, loh, hih, wh));
}

}  // namespace

int main() {
    return run_on_gpu([]<class T>(const Device& cuda) { check<T>(cuda); });
}
