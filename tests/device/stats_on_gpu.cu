// A check for a machine with a GPU (CI has none): the new reductions (nansum, nanmean, logsumexp,
// var, std, var_mean) and softmax/log_softmax/softmin with their backward, evaluated by the CUDA
// kernels, against the same calls on the host (whose values the PyTorch-generated cases of
// tests/ops/stats_cases.txt pin), within 1e-5 relative (float32: the device folds in another
// order) and 1e-12 (float64). Not part of a test binary. Build and run from the repository root:
//   nvcc -std=c++20 -O1 -Xptxas=-O1 -arch=sm_90 --expt-relaxed-constexpr -Xcompiler=-fopenmp -Iinclude -Ikernels \
//        -I/usr/include/eigen3 tests/device/stats_on_gpu.cu -lcublas
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
    std::vector<T> xv(m * n);
    for (int64_t k = 0; k < m * n; ++k) xv[k] = static_cast<T>(std::sin(0.37 * k) * 3 + 1e-3 * (k % 7));
    std::vector<T> nanv = xv;
    for (int64_t k = 0; k < m * n; k += 11) nanv[k] = static_cast<T>(NAN);
    const Tensor<T> xh = tensor(xv, {m, n}), xd = xh.to(cuda);
    const Tensor<T> nh = tensor(nanv, {m, n}), nd = nh.to(cuda);
    compare("nansum(dim 1)", nansum(nd, 1), nansum(nh, 1));
    compare("nanmean(dim 0, keepdim)", nanmean(nd, 0, true), nanmean(nh, 0, true));
    compare("logsumexp(dim 1)", logsumexp(xd, 1), logsumexp(xh, 1));
    compare("logsumexp(all)", logsumexp(xd), logsumexp(xh));
    compare("var(dim 1)", xd.var(1), xh.var(1));
    compare("std(dim 0, correction 0)", xd.std(0, 0), xh.std(0, 0));
    compare("var(all)", var(xd), var(xh));
    auto [vd, md] = var_mean(xd, 1);
    auto [vh, mh] = var_mean(xh, 1);
    compare("var_mean(dim 1): var", vd, vh);
    compare("var_mean(dim 1): mean", md, mh);
    for (int64_t dim : {0, 1}) {
        compare(dim ? "softmax(dim 1)" : "softmax(dim 0)", softmax(xd, dim), softmax(xh, dim));
        compare(dim ? "log_softmax(dim 1)" : "log_softmax(dim 0)", log_softmax(xd, dim), log_softmax(xh, dim));
        compare(dim ? "softmin(dim 1)" : "softmin(dim 0)", softmin(xd, dim), softmin(xh, dim));
    }
    // Gradients: of sum(op(x) * w) for the softmax family and var/logsumexp, device vs host.
    const Tensor<T> wh = tensor(xv, {m, n}).cos(), wd = wh.to(cuda);
    auto gradient = [&](const Tensor<T>& x0, auto&& op) {
        Tensor<T> x = x0.detach().clone().requires_grad_();
        Tensor<T> loss = (op(x) * (x0.device().is_cpu() ? wh : wd)).sum();
        loss.backward();
        return x.grad();
    };
    compare("softmax(dim 1) backward", gradient(xd, [](const auto& x) { return softmax(x, 1); }),
            gradient(xh, [](const auto& x) { return softmax(x, 1); }));
    compare("log_softmax(dim 0) backward", gradient(xd, [](const auto& x) { return log_softmax(x, 0); }),
            gradient(xh, [](const auto& x) { return log_softmax(x, 0); }));
    compare("var(dim 1, keepdim) backward", gradient(xd, [](const auto& x) { return x.var(1, 1, true); }),
            gradient(xh, [](const auto& x) { return x.var(1, 1, true); }));
    compare("logsumexp(dim 0, keepdim) backward", gradient(xd, [](const auto& x) { return logsumexp(x, 0, true); }),
            gradient(xh, [](const auto& x) { return logsumexp(x, 0, true); }));
}

}  // namespace

int main() {
    return run_on_gpu([]<class T>(const Device& cuda) { check<T>(cuda); });
}
