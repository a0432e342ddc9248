// A check for a machine with a GPU (CI has none): indexing with tensors on the device
// (backend/device/device_index.hpp, kernels/tenet/cuda/index.cuh) against the same calls on the
// host (whose values the PyTorch-generated cases of tests/ops/index_cases.txt, masks_cases.txt
// and tests/core/advanced_index_cases.txt pin): index_select, gather, take with negative indices,
// scatter_add and index_put_(accumulate) with many duplicate targets (sums within 1e-5 relative
// in float32: the device folds a target's values first), a plain write through duplicates (the
// last wins, exactly), scatter_reduce, index_add/copy/fill, advanced indexing with index tensors
// and masks, masked_fill/select/scatter, nonzero, where(cond), count_nonzero, float32, float64
// and int64, the backward of an index, a gather and a masked_select, and the out-of-range
// index_error. Not part of a test binary. Build and run from the repository root:
//   nvcc -std=c++20 -O1 -Xptxas=-O1 -arch=sm_90 --expt-relaxed-constexpr -Xcompiler=-fopenmp -Iinclude -Ikernels \
//        -I/usr/include/eigen3 tests/device/index_on_gpu.cu -o index_on_gpu -lcublas
// Exit 0: every value within tolerance; 77: no GPU.
#include <tenet/tenet.hpp>
#include "gpu_check.hpp"
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
using namespace tenet;
using namespace tenet::indexing;

namespace {

/// Compares an int64 (or bool) device result with the host's exactly.
template <class T>
void compare_exact(const char* what, const Tensor<T>& device, const Tensor<T>& host) {
    int bad = 0;
    if (!device.defined() || device.sizes() != host.sizes() || !device.device().is_cuda()) {
        bad = 1;
    } else {
        const auto d = device.cpu().contiguous().to_vector(), h = host.contiguous().to_vector();
        for (size_t k = 0; k < d.size(); ++k) bad += d[k] != h[k];
    }
    std::printf("%-40s %s: %d mismatches\n", what, std::string(dtype_of<T>.name()).c_str(), bad);
    failures += bad != 0;
}

/// Whether `call` throws index_error whose message holds every part.
template <class F>
void expect_index_error(const char* what, F&& call, std::vector<std::string> parts) {
    bool ok = false;
    try {
        call();
    } catch (const index_error& e) {
        ok = true;
        for (const auto& p : parts) ok = ok && std::string(e.what()).find(p) != std::string::npos;
        if (!ok) std::printf("  message: %s\n", e.what());
    } catch (const std::exception& e) {
        std::printf("  other error: %s\n", e.what());
    }
    std::printf("%-40s %s\n", what, ok ? "index_error as expected" : "WRONG");
    failures += !ok;
}

Tensor<int64_t> pseudo_indices(int64_t n, int64_t mod, int64_t seed, bool negatives) {
    std::vector<int64_t> v(n);
    for (int64_t k = 0; k < n; ++k) {
        v[k] = (k * 7919 + seed * 104729 + (k * k) % 13) % mod;
        if (negatives && k % 3 == 0) v[k] -= mod;  // the same place, counted from the end
    }
    return tensor(v);
}

template <class T>
void check(const Device& cuda) {
    const int64_t m = 67, n = 129;
    std::vector<T> xv(m * n);
    for (int64_t k = 0; k < m * n; ++k) xv[k] = static_cast<T>(std::sin(0.37 * k) * 3 + 1e-3 * (k % 7));
    const Tensor<T> xh = tensor(xv, {m, n}), xd = xh.to(cuda);
    const Tensor<int64_t> rows_h = pseudo_indices(500, m, 1, false), rows_d = rows_h.to(cuda);
    const Tensor<int64_t> cols_h = pseudo_indices(500, n, 2, true), cols_d = cols_h.to(cuda);

    // Reading through an index.
    compare("index_select(dim 0, duplicates)", index_select(xd, 0, rows_d), index_select(xh, 0, rows_h));
    compare("index_select(dim 1) of a transpose", index_select(xd.t(), 1, rows_d), index_select(xh.t(), 1, rows_h));
    const Tensor<int64_t> gi_h = pseudo_indices(m * 40, n, 3, false).reshape({m, 40}), gi_d = gi_h.to(cuda);
    compare("gather(dim 1)", gather(xd, 1, gi_d), gather(xh, 1, gi_h));
    compare("take(negative indices)", take(xd, cols_d), take(xh, cols_h));
    compare("take_along_dim(dim 1)", take_along_dim(xd, gi_d, 1), take_along_dim(xh, gi_h, 1));

    // Writing through an index: duplicates accumulate (500 writes into 67 rows).
    std::vector<T> sv(500 * n);
    for (int64_t k = 0; k < 500 * n; ++k) sv[k] = static_cast<T>(std::cos(0.23 * k) * 2 + 1e-3 * (k % 5));
    const Tensor<T> src_h = tensor(sv, {500, n}), src_d = src_h.to(cuda);
    const Tensor<int64_t> si_h = rows_h.reshape({500, 1}).expand({500, n}).contiguous(), si_d = si_h.to(cuda);
    compare("scatter_add(dim 0, duplicates)", scatter_add(xd, 0, si_d, src_d), scatter_add(xh, 0, si_h, src_h));
    compare("scatter(dim 0, duplicates: the last)", scatter(xd, 0, si_d, src_d), scatter(xh, 0, si_h, src_h));
    for (const char* r : {"sum", "prod", "mean", "amax", "amin"})
        compare((std::string("scatter_reduce ") + r).c_str(), scatter_reduce(xd, 0, si_d, src_d, r, false),
                scatter_reduce(xh, 0, si_h, src_h, r, false));
    compare("index_add(alpha 0.5, duplicates)", index_add(xd, 0, rows_d, src_d, 0.5),
            index_add(xh, 0, rows_h, src_h, 0.5));
    compare("index_copy(duplicates: the last)", index_copy(xd, 0, rows_d, src_d), index_copy(xh, 0, rows_h, src_h));
    compare("index_fill(negative indices)", index_fill(xd, 1, cols_d, -2.0), index_fill(xh, 1, cols_h, -2.0));
    {
        Tensor<T> ad = xd.clone(), ah = xh.clone();
        ad.index_put_({rows_d, cols_d}, T(0.25), true);
        ah.index_put_({rows_h, cols_h}, T(0.25), true);
        compare("index_put_(accumulate, duplicates)", ad, ah);
        ad.index_put_({rows_d}, src_d.narrow(1, 0, n), false);
        ah.index_put_({rows_h}, src_h.narrow(1, 0, n), false);
        compare("index_put_(rows, duplicates: the last)", ad, ah);
    }

    // Advanced indexing and masks.
    const Tensor<bool> mask_h = Tensor<bool>(xh > T(0.5)), mask_d = mask_h.to(cuda);
    compare("x[mask]", xd.index({mask_d}), xh.index({mask_h}));
    compare("x[rows, cols]", xd.index({rows_d, cols_d}), xh.index({rows_h, cols_h}));
    compare("x[:, cols] (int32 positions)", xd.index({Slice(), cols_d.to<int32_t>()}),
            xh.index({Slice(), cols_h.to<int32_t>()}));
    compare("x[rows[:, None], cols[:7]]",
            xd.index({rows_d.index({Slice(), None}), cols_d.narrow(0, 0, 7)}),
            xh.index({rows_h.index({Slice(), None}), cols_h.narrow(0, 0, 7)}));
    const Tensor<bool> row_mask_h = Tensor<bool>(arange(m) % 3 == int64_t(1)), row_mask_d = row_mask_h.to(cuda);
    compare("x[row mask, 5:9]", xd.index({row_mask_d, Slice(5, 9)}), xh.index({row_mask_h, Slice(5, 9)}));
    compare("masked_fill", masked_fill(xd, mask_d, -1.0), masked_fill(xh, mask_h, -1.0));
    compare("masked_select(broadcast mask)", masked_select(xd, mask_d.narrow(0, 0, 1)),
            masked_select(xh, mask_h.narrow(0, 0, 1)));
    compare("masked_scatter", masked_scatter(xd, mask_d, src_d), masked_scatter(xh, mask_h, src_h));
    // Strided and broadcast operands read directly (gather's and the mask selection's fast paths).
    const Tensor<int64_t> gti_h = pseudo_indices(n * 40, m, 4, false).reshape({40, n}).t(), gti_d = gti_h.to(cuda);
    compare("gather(dim 1) of a transpose, index a transpose", gather(xd.t(), 1, gti_d), gather(xh.t(), 1, gti_h));
    compare("take_along_dim(broadcast indices)", take_along_dim(xd, gi_d.narrow(0, 0, 1), 1),
            take_along_dim(xh, gi_h.narrow(0, 0, 1), 1));
    compare("x.t()[mask.t()]", xd.t().index({mask_d.t()}), xh.t().index({mask_h.t()}));
    compare("masked_select(x.t(), mask.t())", masked_select(xd.t(), mask_d.t()), masked_select(xh.t(), mask_h.t()));
    {
        const int64_t big = int64_t{1} << 22;  // many blocks of the compaction
        const Tensor<T> bh = arange(big).template to<T>().mul(0.61803398875).sin(), bd = bh.to(cuda);
        compare("x[x > 0] of 2^22", bd.index({Tensor<bool>(bd > T(0))}), bh.index({Tensor<bool>(bh > T(0))}));
        compare("gather of [2048, 2048]", gather(bd.view({2048, 2048}), 1, Tensor<int64_t>(arange(big) % 2047).view({2048, 2048}).to(cuda)),
                gather(bh.view({2048, 2048}), 1, Tensor<int64_t>(arange(big) % 2047).view({2048, 2048})));
    }
    compare_exact("nonzero(x > 0.5)", nonzero(mask_d), nonzero(mask_h));
    const auto wd = where(mask_d.t()), wh = where(mask_h.t());
    compare_exact("where(cond) of a transpose: rows", wd[0], wh[0]);
    compare_exact("where(cond) of a transpose: cols", wd[1], wh[1]);
    compare_exact("count_nonzero(dim 1)", count_nonzero(xd, 1), count_nonzero(xh, 1));

    // Gradients.
    auto gradient = [&](const Tensor<T>& x0, auto&& op) {
        Tensor<T> x = x0.detach().clone().requires_grad_();
        Tensor<T> out = op(x);
        Tensor<T> w = out.detach().cos();
        Tensor<T>((out * w).sum()).backward();
        return x.grad();
    };
    compare("x[rows, cols] backward (duplicates)",
            gradient(xd, [&](const auto& x) { return x.index({rows_d, cols_d}); }),
            gradient(xh, [&](const auto& x) { return x.index({rows_h, cols_h}); }));
    compare("x[mask] backward", gradient(xd, [&](const auto& x) { return x.index({mask_d}); }),
            gradient(xh, [&](const auto& x) { return x.index({mask_h}); }));
    compare("gather backward", gradient(xd, [&](const auto& x) { return gather(x, 1, gi_d); }),
            gradient(xh, [&](const auto& x) { return gather(x, 1, gi_h); }));
    compare("masked_select backward", gradient(xd, [&](const auto& x) { return masked_select(x, mask_d); }),
            gradient(xh, [&](const auto& x) { return masked_select(x, mask_h); }));
    compare("scatter_reduce amax backward (src)",
            gradient(src_d, [&](const auto& s) { return scatter_reduce(xd, 0, si_d, s, "amax"); }),
            gradient(src_h, [&](const auto& s) { return scatter_reduce(xh, 0, si_h, s, "amax"); }));
    compare("scatter_reduce mean backward (self)",
            gradient(xd, [&](const auto& x) { return scatter_reduce(x, 0, si_d, src_d, "mean"); }),
            gradient(xh, [&](const auto& x) { return scatter_reduce(x, 0, si_h, src_h, "mean"); }));

    // Out of range: index_error naming index, dim and size, and nothing launched past the check.
    expect_index_error("gather(index 67 of 67)", [&] { gather(xd, 0, tensor(std::vector<int64_t>{0, 67}).reshape({1, 2}).to(cuda)); },
                       {"index 67", "dimension 0", "size 67"});
    expect_index_error("x[:, -130]", [&] { xd.index({Slice(), tensor(std::vector<int64_t>{1, -130}).to(cuda)}); },
                       {"index -130", "dimension 1", "size 129"});
    expect_index_error("index_select(5000)", [&] { index_select(xd, 1, tensor(std::vector<int64_t>{5000}).to(cuda)); },
                       {"index 5000", "dimension 1", "size 129"});

    if constexpr (std::is_same_v<T, double>) {  // int64 once
        const Tensor<int64_t> lh = Tensor<int64_t>(arange(m * n) % 97 - 40).reshape({m, n}), ld = lh.to(cuda);
        compare_exact("int64 gather", gather(ld, 1, gi_d), gather(lh, 1, gi_h));
        compare_exact("int64 scatter_add (duplicates)", scatter_add(ld, 0, si_d, ld.narrow(0, 0, 60).repeat({9, 1}).narrow(0, 0, 500)),
                      scatter_add(lh, 0, si_h, lh.narrow(0, 0, 60).repeat({9, 1}).narrow(0, 0, 500)));
        compare_exact("int64 scatter_reduce mean (floor)", scatter_reduce(ld, 0, si_d, ld.narrow(0, 0, 60).repeat({9, 1}).narrow(0, 0, 500), "mean"),
                      scatter_reduce(lh, 0, si_h, lh.narrow(0, 0, 60).repeat({9, 1}).narrow(0, 0, 500), "mean"));
        compare_exact("int64 x[x > 3]", ld.index({Tensor<bool>(ld > int64_t(3))}), lh.index({Tensor<bool>(lh > int64_t(3))}));
        compare_exact("int64 nonzero", nonzero(ld), nonzero(lh));
    }
}

}  // namespace

int main() {
    return run_on_gpu([]<class T>(const Device& cuda) { check<T>(cuda); });
}
