// A check for a machine with a GPU (CI has none): sorting, selection, scans, searchsorted and the
// class-index losses on the CUDA device (kernels/tenet/cuda/order.cuh: CUB's radix sort under
// Thrust), against the same calls on the host (whose values the PyTorch-generated cases of
// tests/ops/stats_cases.txt pin): ties, NaNs, descending, dims 0 and last, float32, float64 and
// int64, forward and backward; also mode, quantile, histc, bincount and unique. Sort order, indices and selections must match exactly; sums within
// gpu_check.hpp's tolerance. Not part of a test binary. Build and run from the repository root:
//   /usr/local/cuda/bin/nvcc -std=c++20 -O1 -Xptxas=-O1 -arch=sm_90 --expt-relaxed-constexpr -Xcompiler=-fopenmp \
//        -Iinclude -Ikernels -I/usr/include/eigen3 tests/device/sort_on_gpu.cu -o /work/gpu_bins/sort_on_gpu -lcublas
// Exit 0: every value within tolerance; 77: no GPU.
#include <tenet/tenet.hpp>
#include "gpu_check.hpp"
#include <cmath>
#include <cstdio>
#include <vector>
using namespace tenet;
namespace F = tenet::nn::functional;

namespace {

/// Compares integer results (indices, int64 values) exactly.
template <class T>
void same(const char* what, const Tensor<T>& device, const Tensor<T>& host) {
    int bad = 0;
    if (!device.defined() || device.sizes() != host.sizes()) {
        bad = 1;
    } else {
        const auto d = device.cpu().contiguous().to_vector(), h = host.contiguous().to_vector();
        for (size_t k = 0; k < d.size(); ++k) bad += d[k] != h[k];
    }
    std::printf("%-40s %s: %d mismatches\n", what, sizeof(T) == 8 ? "int64" : "int32", bad);
    failures += bad != 0;
}

template <class T>
Tensor<T> from(const std::vector<T>& v, IntArray sizes) {
    return tensor(v, sizes);
}

/// The gradient of sum(op(x) * w) for x on x0's device (w: the result's shape, on that device).
template <class T, class Op>
Tensor<T> gradient(const Tensor<T>& x0, Op&& op) {
    Tensor<T> x = x0.detach().clone().requires_grad_();
    Tensor<T> y = op(x);
    const Tensor<T> w = arange(y.numel()).template to<T>().view(y.sizes()).cos().to(x0.device());
    (y * w).sum().backward();
    return x.grad();
}

template <class T>
void check(const Device& cuda) {
    const int64_t m = 37, n = 300;
    std::vector<T> xv(m * n), pv(m * n);
    for (int64_t k = 0; k < m * n; ++k) {
        xv[k] = static_cast<T>(std::round(std::sin(0.37 * k) * 8) / 4);  // many ties
        pv[k] = static_cast<T>(1 + 0.01 * std::sin(0.9 * k));             // products stay finite
    }
    for (int64_t k = 0; k < m * n; k += 13) xv[k] = static_cast<T>(NAN);
    pv[5] = pv[n + 7] = pv[2 * n] = T(0);  // zeros for cumprod's backward
    const Tensor<T> xh = from(xv, {m, n}), xd = xh.to(cuda);
    const Tensor<T> ph = from(pv, {m, n}), pd = ph.to(cuda);
    for (int64_t dim : {0, 1}) {
        for (bool descending : {false, true}) {
            const auto sd = sort(xd, dim, descending), sh = sort(xh, dim, descending);
            compare(descending ? "sort(descending): values" : "sort: values", sd.values, sh.values);
            same(descending ? "sort(descending): indices" : "sort: indices", sd.indices, sh.indices);
        }
        for (bool largest : {true, false}) {
            const auto td = topk(xd, 7, dim, largest), th = topk(xh, 7, dim, largest);
            compare(largest ? "topk(7, largest): values" : "topk(7, smallest): values", td.values, th.values);
            same(largest ? "topk(7, largest): indices" : "topk(7, smallest): indices", td.indices, th.indices);
        }
        const auto kd = kthvalue(xd, 5, dim, dim == 0), kh = kthvalue(xh, 5, dim, dim == 0);
        compare("kthvalue(5): values", kd.values, kh.values);
        same("kthvalue(5): indices", kd.indices, kh.indices);
        const auto md = median(xd, dim), mh = median(xh, dim);
        compare("median(dim): values", md.values, mh.values);
        same("median(dim): indices", md.indices, mh.indices);
        const auto nd = nanmedian(xd, dim), nh = nanmedian(xh, dim);
        compare("nanmedian(dim): values", nd.values, nh.values);
        same("nanmedian(dim): indices", nd.indices, nh.indices);
        compare("cumsum", cumsum(xd, dim), cumsum(xh, dim));
        compare("cumprod", cumprod(pd, dim), cumprod(ph, dim));
        const auto cd = cummax(xd, dim), ch = cummax(xh, dim);
        compare("cummax: values", cd.values, ch.values);
        same("cummax: indices", cd.indices, ch.indices);
        const auto ed = cummin(pd, dim), eh = cummin(ph, dim);
        compare("cummin: values", ed.values, eh.values);
        same("cummin: indices", ed.indices, eh.indices);
        compare("logcumsumexp", logcumsumexp(xd, dim), logcumsumexp(xh, dim));
        // Gradients through the indices and the scans' formulas.
        compare("sort backward", gradient(xd, [&](const auto& x) { return sort(x, dim, true).values; }),
                gradient(xh, [&](const auto& x) { return sort(x, dim, true).values; }));
        compare("topk backward", gradient(xd, [&](const auto& x) { return topk(x, 3, dim).values; }),
                gradient(xh, [&](const auto& x) { return topk(x, 3, dim).values; }));
        compare("median backward", gradient(pd, [&](const auto& x) { return median(x, dim).values; }),
                gradient(ph, [&](const auto& x) { return median(x, dim).values; }));
        compare("cummax backward", gradient(pd, [&](const auto& x) { return cummax(x, dim).values; }),
                gradient(ph, [&](const auto& x) { return cummax(x, dim).values; }));
        compare("cumsum backward", gradient(pd, [&](const auto& x) { return cumsum(x, dim); }),
                gradient(ph, [&](const auto& x) { return cumsum(x, dim); }));
        compare("cumprod backward (zeros)", gradient(pd, [&](const auto& x) { return cumprod(x, dim); }),
                gradient(ph, [&](const auto& x) { return cumprod(x, dim); }));
        compare("logcumsumexp backward", gradient(pd, [&](const auto& x) { return logcumsumexp(x, dim); }),
                gradient(ph, [&](const auto& x) { return logcumsumexp(x, dim); }));
    }
    compare("msort", msort(xd), msort(xh));
    same("argsort(descending)", argsort(xd, 1, true), argsort(xh, 1, true));
    compare("median(all)", median(xd), median(xh));
    compare("nanmedian(all)", nanmedian(xd), nanmedian(xh));

    // mode (PickSorted's runs), quantile (composed of device ops), histc and bincount (index_add).
    for (int64_t dim : {0, 1}) {
        const auto od = mode(xd, dim), oh = mode(xh, dim);
        compare("mode: values", od.values, oh.values);
        same("mode: indices", od.indices, oh.indices);
    }
    if constexpr (FloatingElement<T>) {
        const Tensor<T> qh = from(std::vector<T>{T(0), T(0.25), T(0.5), T(0.9), T(1)}, {5}), qd = qh.to(cuda);
        for (const char* how : {"linear", "lower", "higher", "nearest", "midpoint"}) {
            compare("quantile(q, dim 1)", quantile(pd, qd, 1, false, how), quantile(ph, qh, 1, false, how));
            compare("nanquantile(q, dim 0, keepdim)", nanquantile(xd, qd, 0, true, how),
                    nanquantile(xh, qh, 0, true, how));
        }
        compare("quantile(all)", quantile(pd, 0.3), quantile(ph, 0.3));
        compare("quantile backward", gradient(pd, [&](const auto& x) { return quantile(x, 0.3, 1); }),
                gradient(ph, [&](const auto& x) { return quantile(x, 0.3, 1); }));
        compare("histc(data range)", histc(pd, 50), histc(ph, 50));
        compare("histc(-1, 1)", histc(xd, 16, -1, 1), histc(xh, 16, -1, 1));
    } else {
        for (const auto& [dim, consecutive] : {std::pair{std::optional<int64_t>{}, false}, {std::optional<int64_t>{1}, false},
                                               {std::optional<int64_t>{}, true}, {std::optional<int64_t>{0}, true}}) {
            const auto ud = consecutive ? unique_consecutive(xd, true, true, dim) : unique(xd, true, true, true, dim);
            const auto uh = consecutive ? unique_consecutive(xh, true, true, dim) : unique(xh, true, true, true, dim);
            same("unique: output", ud.output, uh.output);
            same("unique: inverse", ud.inverse_indices, uh.inverse_indices);
            same("unique: counts", ud.counts, uh.counts);
        }
        // (Every 13th element of xh is NaN cast to an integer: clamped into the bins.)
        const Tensor<int64_t> ch = (xh.clamp(-2, 2) + 2).flatten().template to<int64_t>(), cd = ch.to(cuda);
        same("bincount", bincount(cd), bincount(ch));
        compare("bincount(weights)", bincount(cd, pd.flatten(), 9), bincount(ch, ph.flatten(), 9));
    }

    // Long rows: one row of 2^20 and [4096, 256] (the radix sort's multi-pass paths).
    {
        const int64_t big = int64_t{1} << 20;
        const Tensor<T> bh = arange(big).template to<T>().mul(0.61803398875).sin().mul(1000).round(), bd = bh.to(cuda);
        const auto sd = sort(bd), sh = sort(bh);
        compare("sort of 2^20: values", sd.values, sh.values);
        same("sort of 2^20: indices", sd.indices, sh.indices);
        const Tensor<T> rh = bh.view({4096, 256}), rd = rh.to(cuda);
        same("argsort [4096, 256] dim 0", argsort(rd, 0, true), argsort(rh, 0, true));
        same("argsort [4096, 256] dim 1", argsort(rd, 1), argsort(rh, 1));
        compare("cumsum of 2^20", cumsum(bd, 0), cumsum(bh, 0));
        // One row: a plain scan (no keys); reversed (the backward), through the scratch.
        const Tensor<T> qh = arange(big).template to<T>().mul(0.9).sin().mul(0.01).add(1), qd = qh.to(cuda);
        compare("cumprod of 2^20", cumprod(qd, 0), cumprod(qh, 0));
        compare("cumsum of 2^20 backward", gradient(bd, [&](const auto& x) { return cumsum(x, 0); }),
                gradient(bh, [&](const auto& x) { return cumsum(x, 0); }));
    }

    // searchsorted and bucketize: per row of a sorted sequence, left and right, with a sorter.
    {
        const Tensor<T> seq_h = sort(xh, 1).values, seq_d = seq_h.to(cuda);
        const Tensor<T> vh = from(pv, {m, n}).mul(3).sub(4), vd = vh.to(cuda);
        for (bool right : {false, true}) {
            same(right ? "searchsorted(right)" : "searchsorted(left)", searchsorted(seq_d, vd, right),
                 searchsorted(seq_h, vh, right));
            same(right ? "bucketize(right)" : "bucketize(left)", bucketize(vd, seq_d[0], right),
                 bucketize(vh, seq_h[0], right));
        }
        const Tensor<int64_t> order_h = argsort(xh, 1);
        same("searchsorted(sorter)", searchsorted(xd, vd, false, std::nullopt, order_h.to(cuda)),
             searchsorted(xh, vh, false, std::nullopt, order_h));
        same("searchsorted<int32>", searchsorted<int32_t>(seq_d, vd, true), searchsorted<int32_t>(seq_h, vh, true));
    }

    // nll_loss and cross_entropy with class indices: weights, ignore_index, every reduction,
    // forward and backward; [N, C] and [N, C, S].
    {
        const int64_t N = 64, C = 10;
        std::vector<int64_t> tv(N);
        for (int64_t k = 0; k < N; ++k) tv[k] = k % 7 == 3 ? -100 : (k * 7) % C;
        const Tensor<int64_t> th = tensor(tv, {N}), td = th.to(cuda);
        const Tensor<T> lh = ph.narrow(0, 0, 32).reshape({N, -1}).narrow(1, 0, C).mul(5).sin().contiguous(), ld = lh.to(cuda);
        const Tensor<T> wh = arange(C).template to<T>().add(1).sqrt(), wd = wh.to(cuda);
        for (const char* reduction : {"mean", "sum", "none"}) {
            compare("cross_entropy", F::cross_entropy(ld, td, wd, -100, reduction),
                    F::cross_entropy(lh, th, wh, -100, reduction));
            compare("cross_entropy backward",
                    gradient(ld, [&](const auto& x) { return F::cross_entropy(x, td, wd, -100, reduction).reshape({-1}); }),
                    gradient(lh, [&](const auto& x) { return F::cross_entropy(x, th, wh, -100, reduction).reshape({-1}); }));
            compare("cross_entropy(label_smoothing 0.1)", F::cross_entropy(ld, td, {}, -100, reduction, 0.1),
                    F::cross_entropy(lh, th, {}, -100, reduction, 0.1));
            compare("nll_loss backward",
                    gradient(ld, [&](const auto& x) { return F::nll_loss(log_softmax(x, 1), td, wd, -100, reduction).reshape({-1}); }),
                    gradient(lh, [&](const auto& x) { return F::nll_loss(log_softmax(x, 1), th, wh, -100, reduction).reshape({-1}); }));
        }
        const Tensor<T> l3h = lh.view({8, 8, C}).permute({0, 2, 1}).contiguous(), l3d = l3h.to(cuda);
        const Tensor<int64_t> t3h = th.view({8, 8}), t3d = t3h.to(cuda);
        compare("cross_entropy [N, C, S]", F::cross_entropy(l3d, t3d), F::cross_entropy(l3h, t3h));
        compare("cross_entropy [N, C, S] backward", gradient(l3d, [&](const auto& x) { return F::cross_entropy(x, t3d).reshape({-1}); }),
                gradient(l3h, [&](const auto& x) { return F::cross_entropy(x, t3h).reshape({-1}); }));
    }

    // int64 (once): sort, topk, cumsum, cumprod (wrapping), searchsorted.
    if constexpr (sizeof(T) == 4) {
        std::vector<int64_t> iv(m * n);
        for (int64_t k = 0; k < m * n; ++k) iv[k] = static_cast<int64_t>(std::lround(std::sin(0.37 * k) * 1e6)) * ((k % 5) - 2);
        const Tensor<int64_t> ih = tensor(iv, {m, n}), id = ih.to(cuda);
        for (int64_t dim : {0, 1}) {
            const auto sd = sort(id, dim, dim == 1), sh = sort(ih, dim, dim == 1);
            same("int64 sort: values", sd.values, sh.values);
            same("int64 sort: indices", sd.indices, sh.indices);
            same("int64 topk: indices", topk(id, 9, dim).indices, topk(ih, 9, dim).indices);
            same("int64 cumsum", cumsum(id, dim), cumsum(ih, dim));
            same("int64 cumprod (wraps)", cumprod(id, dim), cumprod(ih, dim));
            same("int64 cummin: indices", cummin(id, dim).indices, cummin(ih, dim).indices);
            same("int64 median: values", median(id, dim).values, median(ih, dim).values);
        }
    }
}

}  // namespace

int main() {
    return run_on_gpu([]<class T>(const Device& cuda) { check<T>(cuda); });
}
