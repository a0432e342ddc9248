#pragma once
// Counting: bincount, histc and histogram, as PyTorch's; not differentiable (as in PyTorch).
// bincount and histc also take device tensors: the bins are found by the same arithmetic as
// device expressions, then counted with index_add (as PyTorch, histogram is host-only).
//
// An element's bin is found as PyTorch finds it: from equal-width edges by division (histc), by
// division corrected against the edges (histogram with a bin count), or by binary search in the
// edges (histogram with edges); the arithmetic runs in the element type, so elements near an
// edge land where PyTorch puts them. The last bin includes its right edge; elements outside the
// edges and NaNs are not counted.

#include "tenet/config.hpp"
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <ostream>
#include <type_traits>

#include "tenet/core/tensor.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/gather.hpp"  // index_add: counting on devices

namespace tenet::inline TENET_ABI {

namespace return_types {
/// The results of histogram: the counts (or weights, or densities) and the bins' edges.
template <class T>
struct histogram {
    Tensor<T> hist;
    Tensor<T> bin_edges;
};
template <class T>
std::ostream& operator<<(std::ostream& os, const histogram<T>& r) {
    return os << "tenet.return_types.histogram(\nhist=" << r.hist << ",\nbin_edges=" << r.bin_edges << ")";
}
} // namespace return_types

/// bincount's result type with weights: float for float32 weights, double for any other.
template <class W>
using bincount_result_t = std::conditional_t<std::is_same_v<W, float>, float, double>;

namespace detail {

/// How histogram_fill finds an element's bin among the edges.
enum class BinSearch {
    Division,        // equal widths: (x - first) * bins / (last - first)   (histc)
    DivisionChecked, // the same, then moved to agree with the edges        (histogram with a bin count)
    Binary,          // binary search in the edges                          (histogram with edges)
};

/// Adds each element of x (times its weight, when weights are given) to its bin of `hist`.
template <class T>
void histogram_fill(const T* x, int64_t n, const T* edges, int64_t n_edges, const T* weights, T* hist,
                    BinSearch search) {
    const T first = edges[0], last = edges[n_edges - 1];
    const int64_t bins = n_edges - 1;
    for (int64_t i = 0; i < n; ++i) {
        const T v = x[i];
        if (!(v >= first && v <= last))
            continue; // outside, or NaN
        int64_t pos;
        if (search == BinSearch::Binary) {
            pos = std::upper_bound(edges, edges + n_edges, v) - edges - 1;
        } else {
            pos = static_cast<int64_t>((v - first) * static_cast<T>(bins) / (last - first));
            if (search == BinSearch::DivisionChecked) {
                const int64_t from = std::max<int64_t>(0, pos - 1), to = std::min(pos + 2, n_edges);
                pos = std::upper_bound(edges + from, edges + to, v) - edges - 1;
            }
        }
        if (pos == bins)
            pos -= 1; // the last bin includes its right edge
        hist[pos] += weights ? weights[i] : T(1);
    }
}

/// Refuses a non-floating input (then T is unused: its branch is discarded).
template <class T>
[[noreturn]] void refuse_histogram_input(const Tensor<T>& x, const char* op) {
    fail<dtype_error>(op, ": input tensor must be floating point, got ", x.dtype().name());
}

/// The data's [min, max] (as double), or `none` for no data.
template <class T>
std::array<double, 2> data_range(const Tensor<T>& x, std::array<double, 2> none) {
    if (x.numel() == 0)
        return none;
    double lo = convert<double>(x.data_ptr()[0]), hi = lo;
    for (int64_t i = 0; i < x.numel(); ++i) {
        const double v = convert<double>(x.data_ptr()[i]);
        if (v != v)
            return {v, v}; // NaN: the range is not finite
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    return {lo, hi};
}

template <class T>
return_types::histogram<T> histogram_of(const Tensor<T>& input, const Tensor<T>& edges, const Tensor<T>& weight,
                                        bool density, BinSearch search) {
    const char* op = "torch.histogram()";
    if (weight.defined() && weight.sizes() != input.sizes())
        fail<value_error>(op, ": if weight tensor is provided, it should have the same shape as the input tensor ",
                          input.sizes(), ", but got ", weight.sizes());
    const Tensor<T> x = input.contiguous();
    const Tensor<T> w = weight.defined() ? weight.contiguous() : Tensor<T>();
    const int64_t n_edges = edges.numel();
    Tensor<T> hist = zeros<T>({n_edges - 1});
    histogram_fill(x.data_ptr(), x.numel(), edges.data_ptr(), n_edges, w.defined() ? w.data_ptr() : nullptr,
                   hist.data_ptr(), search);
    if (density) { // as PyTorch: divided by the total, then by each bin's width
        T total = T(0);
        for (int64_t b = 0; b + 1 < n_edges; ++b)
            total += hist.data_ptr()[b];
        for (int64_t b = 0; b + 1 < n_edges; ++b) {
            hist.data_ptr()[b] /= total;
            hist.data_ptr()[b] /= edges.data_ptr()[b + 1] - edges.data_ptr()[b];
        }
    }
    return {hist, edges};
}

/// Adds `source` (a 1-D tensor of R) into `length` bins at the 1-D `bins`, on bins' device.
template <class R>
Tensor<R> add_into_bins(int64_t length, const Tensor<int64_t>& bins, const Tensor<R>& source) {
    return index_add(zeros<R>({length}, bins.device()), 0, bins, source);
}

template <class R, class I, class W>
Tensor<R> bincount_impl(const Tensor<I>& input, const Tensor<W>* weights, int64_t minlength) {
    const char* op = "bincount";
    if (minlength < 0)
        fail<value_error>(op, ": minlength should be >= 0, got ", minlength);
    if constexpr (!IntegralElement<I>) {
        fail<dtype_error>(op, ": only supports 1-d non-negative integral inputs, got ", input.dtype().name());
    } else {
        if (input.dim() != 1)
            fail<value_error>(op, ": only supports 1-d non-negative integral inputs, got a tensor of shape ",
                              input.sizes());
        if (weights) {
            if (weights->device() != input.device())
                fail<device_error>(op, ": input and weights must be on the same device, got ", input.device(), " and ",
                                   weights->device());
            if (weights->dim() != 1 || weights->size(0) != input.size(0))
                fail<value_error>(op, ": weights should be 1-d and have the same length as input ", input.sizes(),
                                  ", but got ", weights->sizes());
        }
        if (!input.is_cpu()) {
            if (input.is_meta()) fail_not_on_meta(op);
            const Tensor<int64_t> x = input.template to<int64_t>();
            int64_t length = minlength;
            if (x.numel() > 0) {
                if (x.min().item() < 0) {
                    const int64_t i = Tensor<int64_t>(x < 0).argmax().item();  // the first negative
                    fail<value_error>(op, ": only supports non-negative inputs, got ", x.narrow(0, i, 1).item(),
                                      " at index ", i);
                }
                length = std::max(length, x.max().item() + 1);
            }
            return add_into_bins(length, x, weights ? Tensor<R>(weights->template to<R>()) : ones<R>({x.numel()}, x.device()));
        }
        const Tensor<I> x = input.contiguous();
        int64_t length = minlength;
        for (int64_t i = 0; i < x.numel(); ++i) {
            const auto v = static_cast<int64_t>(x.data_ptr()[i]);
            if (v < 0)
                fail<value_error>(op, ": only supports non-negative inputs, got ", v, " at index ", i);
            length = std::max(length, v + 1);
        }
        Tensor<R> result = zeros<R>({length});
        R* r = result.data_ptr();
        if (weights) {
            const Tensor<W> w = weights->contiguous();
            for (int64_t i = 0; i < x.numel(); ++i)
                r[x.data_ptr()[i]] += convert<R>(w.data_ptr()[i]);
        } else {
            for (int64_t i = 0; i < x.numel(); ++i)
                r[x.data_ptr()[i]] += 1;
        }
        return result;
    }
}
} // namespace detail

/// torch.bincount(x): how often each value 0, 1, ..., max(x) occurs in the 1-D non-negative
/// integer tensor x (int64 counts; at least `minlength` of them).
template <class I>
Tensor<int64_t> bincount(const Tensor<I>& x, std::nullopt_t = std::nullopt, int64_t minlength = 0) {
    return detail::bincount_impl<int64_t, I, int64_t>(x, nullptr, minlength);
}
/// torch.bincount(x, weights, minlength): the weights summed per value instead of counts; the
/// result is float32 for float32 weights and float64 for any other (bincount_result_t).
template <class I, class W>
Tensor<bincount_result_t<W>> bincount(const Tensor<I>& x, const Tensor<W>& weights, int64_t minlength = 0) {
    if (!weights.defined())
        detail::fail<value_error>("bincount: the weights are undefined (pass std::nullopt for none)");
    return detail::bincount_impl<bincount_result_t<W>>(x, &weights, minlength);
}

namespace detail {
/// The edges of `bins` equal bins over [lo, hi] (a range of one value widened by `widen` each
/// way), in the element type, as PyTorch's linspace makes them.
template <class T>
Tensor<T> equal_bin_edges(int64_t bins, double lo, double hi, double widen, const char* op) {
    if (bins <= 0)
        fail<value_error>(op, ": bins must be > 0, but got ", bins);
    if (!std::isfinite(lo) || !std::isfinite(hi))
        fail<value_error>(op, ": range of [", lo, ", ", hi, "] is not finite");
    if (lo > hi)
        fail<value_error>(op, ": max must be larger than min, but got min ", lo, " max ", hi);
    if (lo == hi) {
        lo -= widen;
        hi += widen;
    }
    return linspace<T>(lo, hi, bins + 1);
}

/// histc of a device tensor: the data's range by device reductions, the edges on the host, and
/// each element's bin by the host loop's arithmetic (BinSearch::Division) as a device expression.
template <class T>
Tensor<T> histc_on_device(const Tensor<T>& input, int64_t bins, double min, double max, const char* op) {
    if (input.is_meta()) fail_not_on_meta(op);
    std::array<double, 2> range{min, max};
    if (min == max && input.numel() > 0) {  // the data's range; a NaN propagates into both ends
        const auto [lo, hi] = aminmax(input);
        range = {convert<double>(lo.item()), convert<double>(hi.item())};
    }
    const Tensor<T> edges = equal_bin_edges<T>(bins, range[0], range[1], 1.0, op);
    const T first = edges.data_ptr()[0], last = edges.data_ptr()[bins];
    const Tensor<T> x = input.reshape({-1});
    const Tensor<bool> inside = (x >= first) & (x <= last);  // NaN is outside
    // Outside elements go to bin 0 with weight 0 (their position is never converted).
    const Tensor<T> at = (where(inside, x, first) - first) * static_cast<T>(bins) / (last - first);
    const Tensor<int64_t> bin = minimum(at.template to<int64_t>(), bins - 1);  // the last bin includes its right edge
    return add_into_bins(bins, bin, inside.template to<T>());
}
} // namespace detail

/// torch.histc(x, bins = 100, min = 0, max = 0): the counts of x's elements in `bins` equal bins
/// over [min, max] (the data's range when min == max, widened by 1 each way when that is one
/// value); elements outside are not counted. Floating tensors.
template <class T>
Tensor<T> histc(const Tensor<T>& input, int64_t bins = 100, double min = 0, double max = 0) {
    const char* op = "torch.histc()";
    if constexpr (!FloatingElement<T>) {
        detail::refuse_histogram_input(input, op);
    } else {
        if (!input.is_cpu()) return detail::histc_on_device(input, bins, min, max, op);
        const auto [lo, hi] =
            min == max && input.numel() > 0 ? detail::data_range(input, {0.0, 0.0}) : std::array<double, 2>{min, max};
        return detail::histogram_of(input, detail::equal_bin_edges<T>(bins, lo, hi, 1.0, op), Tensor<T>(), false,
                                    detail::BinSearch::Division)
            .hist;
    }
}

/// torch.histogram(x, bins, range = nullopt, weight = {}, density = false): {hist, bin_edges}
/// with `bins` equal bins over `range` (default: the data's [min, max], [0, 1] for no data; a
/// range of one value is widened by 0.5 each way, as NumPy). weight: each element's weight (x's
/// shape); density: hist divided by its total and by the bins' widths. Floating tensors.
template <class T>
return_types::histogram<T> histogram(const Tensor<T>& input, int64_t bins = 100,
                                     std::optional<std::array<double, 2>> range = std::nullopt,
                                     const Tensor<T>& weight = {}, bool density = false) {
    const char* op = "torch.histogram()";
    detail::check_host_access(input, op);
    if constexpr (!FloatingElement<T>) {
        detail::refuse_histogram_input(input, op);
    } else {
        const auto [lo, hi] = range ? *range : detail::data_range(input, {0.0, 1.0});
        return detail::histogram_of(input, detail::equal_bin_edges<T>(bins, lo, hi, 0.5, op), weight, density,
                                    detail::BinSearch::DivisionChecked);
    }
}
/// torch.histogram(x, bins, weight = {}, density = false) with the bins' edges given (1-D,
/// increasing, at least one).
template <class T>
return_types::histogram<T> histogram(const Tensor<T>& input, const Tensor<T>& bins, const Tensor<T>& weight = {},
                                     bool density = false) {
    const char* op = "torch.histogram()";
    detail::check_host_access(input, op);
    detail::check_host_access(bins, op);
    if constexpr (!FloatingElement<T>) {
        detail::refuse_histogram_input(input, op);
    } else {
        if (bins.dim() != 1)
            detail::fail<value_error>(op, ": bins tensor should have one dimension, but got ", bins.dim(),
                                      " dimensions");
        if (bins.numel() == 0)
            detail::fail<value_error>(op, ": bins tensor should have at least 1 element");
        return detail::histogram_of(input, bins.contiguous().clone(), weight, density, detail::BinSearch::Binary);
    }
}

} // namespace tenet::inline TENET_ABI
