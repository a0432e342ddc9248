#pragma once
// The scans along a dim, as PyTorch's: cumsum, cumprod, cummax, cummin, logcumsumexp; and diff.
//
// Integer and bool inputs give int64 (wrapping around as PyTorch's), floating inputs keep their
// type and accumulate in double; R names another result type (PyTorch's dtype
// argument: the input is converted to it first). The
// backward: cumsum's is the reversed cumsum of the gradient; cumprod's is PyTorch's formula,
// exact where the input has zeros (the first zero of a row gets the product of the others).
//
// Device tensors (where the device evaluator exists): cumsum and cumprod are one
// inclusive_scan_by_key over the rows, or a plain inclusive_scan when there is one row
// (backend/device/device_order.hpp), still accumulating in double; cummax, cummin and
// logcumsumexp and the backward passes one device thread per row running the host's row
// functor; every one with its gradient.

#include "tenet/config.hpp"
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>
#include <type_traits>

#include "tenet/core/hooks.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/ops/reducers.hpp"
#include "tenet/ops/join.hpp"
#include "tenet/ops/softmax.hpp"
#include "tenet/ops/sort.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {

enum class ScanKind { Sum, Prod };

/// The accumulator of a scan: double for floating results, int64 (wrapping) otherwise.
template <class R>
using scan_acc_t = std::conditional_t<FloatingElement<R>, double, int64_t>;

/// y[k] = x[0] (+ or *) ... x[k] along the middle dim of s; `reverse`: from the end instead.
template <class R, class T>
void scan_rows(const T* x, R* y, DimSplit s, ScanKind kind, bool reverse) {
    using A = scan_acc_t<R>;
    const int64_t inner = s.inner;
    if (inner == 1 && !reverse) {  // contiguous rows: one running value in a register
        for (int64_t o = 0; o < s.outer; ++o) {
            const T* xo = x + o * s.n;
            R* yo = y + o * s.n;
            A a = kind == ScanKind::Sum ? A(0) : A(1);
            if (kind == ScanKind::Sum) {
                for (int64_t k = 0; k < s.n; ++k) {
                    if constexpr (FloatingElement<R>) a += convert<A>(xo[k]);
                    else a = wrap_add(a, convert<A>(xo[k]));
                    yo[k] = convert<R>(a);
                }
            } else {
                for (int64_t k = 0; k < s.n; ++k) {
                    if constexpr (FloatingElement<R>) a *= convert<A>(xo[k]);
                    else a = wrap_mul(a, convert<A>(xo[k]));
                    yo[k] = convert<R>(a);
                }
            }
        }
        return;
    }
    std::vector<A> acc(static_cast<size_t>(inner));
    for (int64_t o = 0; o < s.outer; ++o) {
        const T* xo = x + o * s.n * inner;
        R* yo = y + o * s.n * inner;
        std::fill(acc.begin(), acc.end(), kind == ScanKind::Sum ? A(0) : A(1));
        for (int64_t step = 0; step < s.n; ++step) {
            const int64_t k = reverse ? s.n - 1 - step : step;
            for (int64_t i = 0; i < inner; ++i) {
                const A v = convert<A>(xo[k * inner + i]);
                A& a = acc[static_cast<size_t>(i)];
                if constexpr (FloatingElement<R>) a = kind == ScanKind::Sum ? a + v : a * v;
                else a = kind == ScanKind::Sum ? wrap_add(a, v) : wrap_mul(a, v);
                yo[k * inner + i] = convert<R>(a);
            }
        }
    }
}

/// cumprod's input gradient along one row (first element at `row`, n elements `stride` apart),
/// for input x, result y and gradient g.
template <class T>
struct CumprodBackwardRow {
    const T *x, *y, *g;
    T* dx;
    TENET_HD void operator()(int64_t row, int64_t n, int64_t stride) const {
        auto at = [&](int64_t k) { return row + k * stride; };
        int64_t zero = n;  // the first zero of the row
        for (int64_t k = 0; k < n; ++k)
            if (x[at(k)] == T(0)) {
                zero = k;
                break;
            }
        // Before it: sum_{j >= k} g_j y_j / x_k (the terms from the zero on are 0).
        double tail = 0;
        for (int64_t k = n; k-- > 0;) {
            tail += convert<double>(g[at(k)]) * convert<double>(y[at(k)]);
            if (k < zero) dx[at(k)] = convert<T>(tail / convert<double>(x[at(k)]));
        }
        if (zero == n) return;
        // The zero itself: sum_{j >= zero} g_j * prod_{m <= j, m != zero} x_m; after it: 0.
        double prefix = zero == 0 ? 1.0 : convert<double>(y[at(zero - 1)]);
        double total = 0;
        for (int64_t j = zero; j < n; ++j) {
            if (j > zero) prefix *= convert<double>(x[at(j)]);
            total += convert<double>(g[at(j)]) * prefix;
        }
        dx[at(zero)] = convert<T>(total);
        for (int64_t k = zero + 1; k < n; ++k) dx[at(k)] = T(0);
    }
};

/// y = the scan of x along the middle dim of s, on x's device.
template <class R, class T>
void scan_rows_on(const Tensor<T>& x, const Tensor<R>& y, const DimSplit& s, ScanKind kind, bool reverse, const char* op) {
    if (x.numel() == 0) return;
    if (x.device().is_cpu()) return scan_rows(x.data_ptr(), y.data_ptr(), s, kind, reverse);
#if TENET_DEVICE_EVALUATOR
    (void)op;
    device_scan_rows(x, y, s, kind, reverse);
#else
    no_device_evaluator(op, x.device());
#endif
}

template <class R, class T>
Tensor<R> scan_impl(const Tensor<T>& input, int64_t dim, ScanKind kind, const char* op) {
    const int64_t d = wrap_dim(dim, input.dim(), op);
    const Tensor<T> x = input.contiguous();
    Tensor<R> y(make_contiguous_impl(x.sizes(), dtype_of<R>, x.device()));
    const DimSplit s = split_at_dim(x.sizes(), input.dim() == 0 ? 0 : d);
    scan_rows_on(x, y, s, kind, false, op);
    if constexpr (FloatingElement<R> && std::is_same_v<R, T>) {
        if (kind == ScanKind::Sum) {
            record_function("CumsumBackward0", y, {}, [s](const TensorBase& grad) {
                const Tensor<R> g = Tensor<R>(grad.impl_ptr()).contiguous();
                Tensor<R> dx(make_contiguous_impl(g.sizes(), dtype_of<R>, g.device()));
                scan_rows_on(g, dx, s, ScanKind::Sum, true, "CumsumBackward0");
                return std::array<TensorBase, 1>{dx};
            }, input);
        } else {
            const Tensor<R> saved_x = x.detach(), saved_y = y.detach();
            record_function("CumprodBackward0", y, {saved_x, saved_y}, [saved_x, saved_y, s](const TensorBase& grad) {
                const Tensor<R> g = Tensor<R>(grad.impl_ptr()).contiguous();
                Tensor<R> dx(make_contiguous_impl(g.sizes(), dtype_of<R>, g.device()));
                for_each_row_on(g.device(), s,
                                 CumprodBackwardRow<R>{saved_x.data_ptr(), saved_y.data_ptr(), g.data_ptr(), dx.data_ptr()},
                                 "CumprodBackward0");
                return std::array<TensorBase, 1>{dx};
            }, input);
        }
    }
    if (input.has_names()) set_names(y.impl(), input.names());  // a scan keeps every name
    return y;
}

/// cummax (IsMax) or cummin along one row: the running extreme and the index where it was last
/// reached (ties move the index forward, as PyTorch's >=); NaN, once seen, stays, at the index of
/// the latest NaN.
template <bool IsMax, class T>
struct CumulativeExtremeRow {
    const T* x;
    T* values;
    int64_t* indices;
    TENET_HD void operator()(int64_t row, int64_t n, int64_t stride) const {
        T best{};
        int64_t at = 0;
        for (int64_t k = 0; k < n; ++k) {
            const T v = x[row + k * stride];
            bool take = k == 0;
            if constexpr (FloatingElement<T>) take = take || v != v || (best == best && (IsMax ? v >= best : v <= best));
            else take = take || (IsMax ? v >= best : v <= best);
            if (take) best = v, at = k;
            values[row + k * stride] = best;
            indices[row + k * stride] = at;
        }
    }
};

/// log(exp(a) + exp(b)) without overflow (PyTorch's _log_add_exp_helper: equal infinities stay,
/// NaN propagates).
template <class A>
TENET_HD A log_add_exp(A a, A b) {
    if (a != a || b != b) return std::numeric_limits<A>::quiet_NaN();
    const A lo = std::min(a, b), hi = std::max(a, b);
    if (lo != hi || std::isfinite(lo)) return hi + std::log1p(std::exp(lo - hi));
    return a;
}

/// logcumsumexp along one row, in double.
template <class T>
struct LogcumsumexpRow {
    const T* x;
    T* y;
    TENET_HD void operator()(int64_t row, int64_t n, int64_t stride) const {
        double acc = -std::numeric_limits<double>::infinity();
        for (int64_t k = 0; k < n; ++k) {
            acc = log_add_exp(acc, convert<double>(x[row + k * stride]));
            y[row + k * stride] = convert<T>(acc);
        }
    }
};

/// logcumsumexp's input gradient along one row: dx_j = sum_{k >= j} g_k exp(x_j - y_k), summed in
/// log space (positive and negative g apart, as PyTorch's logcumsumexp_backward) so nothing
/// overflows.
template <class T>
struct LogcumsumexpBackwardRow {
    const T *x, *y, *g;
    T* dx;
    TENET_HD void operator()(int64_t row, int64_t n, int64_t stride) const {
        constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
        double pos = kMinusInf, neg = kMinusInf;
        for (int64_t k = n; k-- > 0;) {
            const int64_t j = row + k * stride;
            const double gk = convert<double>(g[j]), log_g = std::log(std::abs(gk)) - convert<double>(y[j]);
            pos = log_add_exp(pos, gk > 0 ? log_g : kMinusInf);
            neg = log_add_exp(neg, gk < 0 ? log_g : kMinusInf);
            const double xj = convert<double>(x[j]);
            dx[j] = convert<T>(std::exp(pos + xj) - std::exp(neg + xj));
        }
    }
};

/// cummax or cummin of a tensor along dim, recorded as PyTorch records them.
template <bool IsMax, class T>
auto cumulative_extreme(const Tensor<T>& input, int64_t dim) {
    const char* op = IsMax ? "cummax" : "cummin";
    const int64_t d = sort_dim(input, dim, op);
    const Tensor<T> x = input.contiguous();
    std::conditional_t<IsMax, return_types::cummax<T>, return_types::cummin<T>> r{
        Tensor<T>(make_contiguous_impl(x.sizes(), dtype_of<T>, x.device())),
        Tensor<int64_t>(make_contiguous_impl(x.sizes(), dtype_of<int64_t>, x.device()))};
    if (x.numel() > 0)
        for_each_row_on(x.device(), split_at_dim(x.sizes(), d),
                        CumulativeExtremeRow<IsMax, T>{x.data_ptr(), r.values.data_ptr(), r.indices.data_ptr()}, op);
    record_through_indices(IsMax ? "CummaxBackward0" : "CumminBackward0", input, r.values, r.indices, d);
    return r;
}

/// cumsum's and cumprod's result type: R when named, else int64 for integers and bool.
template <class R, class V>
using scan_result_t = std::conditional_t<std::is_void_v<R>, sum_result_t<V>, R>;

/// cumsum or cumprod of x (a tensor or an expression), converted to R first when R is named (as
/// PyTorch casts the input to dtype).
template <class R, class X>
auto scan_of(const X& x, int64_t dim, ScanKind kind, const char* op) {
    using V = typename expr::node_t<X>::value_type;
    using In = std::conditional_t<std::is_void_v<R>, V, R>;
    return scan_impl<scan_result_t<R, V>>(as_tensor_of<In>(x), dim, kind, op);
}

}  // namespace detail

/// torch.cumsum(x, dim): running sums along dim (host or device tensors). R: the result type.
template <class R = void, expr::TensorOperand X>
auto cumsum(const X& x, int64_t dim) {
    return detail::scan_of<R>(x, dim, detail::ScanKind::Sum, "cumsum");
}
/// torch.cumprod(x, dim): running products along dim (host or device tensors). R: the result type.
template <class R = void, expr::TensorOperand X>
auto cumprod(const X& x, int64_t dim) {
    return detail::scan_of<R>(x, dim, detail::ScanKind::Prod, "cumprod");
}

/// torch.cummax(x, dim): {values, indices} of the running maximum.
template <class T>
return_types::cummax<T> cummax(const Tensor<T>& x, int64_t dim) {
    return detail::name_values_indices(detail::cumulative_extreme<true>(x, dim), x, dim, true);
}
/// torch.cummin(x, dim): {values, indices} of the running minimum.
template <class T>
return_types::cummin<T> cummin(const Tensor<T>& x, int64_t dim) {
    return detail::name_values_indices(detail::cumulative_extreme<false>(x, dim), x, dim, true);
}

/// torch.logcumsumexp(x, dim): log(cumsum(exp(x))) computed stably (floating tensors).
template <class T>
Tensor<T> logcumsumexp(const Tensor<T>& input, int64_t dim) {
    static_assert(FloatingElement<T>, "tenet: logcumsumexp takes floating tensors (as PyTorch)");
    const char* op = "logcumsumexp";
    const int64_t d = detail::sort_dim(input, dim, op);
    const Tensor<T> x = input.contiguous();
    Tensor<T> y(detail::make_contiguous_impl(x.sizes(), dtype_of<T>, x.device()));
    const detail::DimSplit s = detail::split_at_dim(x.sizes(), d);
    if (x.numel() > 0) detail::for_each_row_on(x.device(), s, detail::LogcumsumexpRow<T>{x.data_ptr(), y.data_ptr()}, op);
    const Tensor<T> saved_x = x.detach(), saved_y = y.detach();
    detail::record_function(
        "LogcumsumexpBackward0", y, {saved_x, saved_y},
        [saved_x, saved_y, s](const TensorBase& grad) {
            const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
            Tensor<T> dx(detail::make_contiguous_impl(g.sizes(), dtype_of<T>, g.device()));
            if (dx.numel() > 0)
                detail::for_each_row_on(
                    g.device(), s,
                    detail::LogcumsumexpBackwardRow<T>{saved_x.data_ptr(), saved_y.data_ptr(), g.data_ptr(), dx.data_ptr()},
                    "LogcumsumexpBackward0");
            return std::array<TensorBase, 1>{dx};
        },
        input);
    if (input.has_names()) detail::set_names(y.impl(), input.names());  // a scan keeps every name
    return y;
}

/// torch.diff(x, n = 1, dim = -1, prepend, append): the n-th forward difference along dim, with
/// prepend and append (undefined: none) joined on first; bool tensors give x[i+1] != x[i].
template <class T>
Tensor<T> diff(const Tensor<T>& input, int64_t n = 1, int64_t dim = -1, const Tensor<T>& prepend = {},
               const Tensor<T>& append = {}) {
    if (input.dim() == 0) detail::fail<value_error>("diff expects input to be at least one-dimensional");
    if (n < 0) detail::fail<value_error>("order must be non-negative but got ", n);
    const int64_t d = detail::wrap_dim(dim, input.dim(), "diff");
    std::vector<Tensor<T>> parts;
    if (prepend.defined()) parts.push_back(prepend);
    parts.push_back(input);
    if (append.defined()) parts.push_back(append);
    Tensor<T> x = parts.size() == 1 ? input : cat(parts, d);
    for (int64_t step = 0; step < n && x.size(d) > 0; ++step) {
        const int64_t len = x.size(d) - 1;
        if constexpr (std::is_same_v<T, bool>) x = Tensor<bool>(x.narrow(d, 1, len) != x.narrow(d, 0, len));
        else x = Tensor<T>(x.narrow(d, 1, len) - x.narrow(d, 0, len));
    }
    return x;
}

// Methods of Tensor and of expressions (declared in core/value_methods.hpp).
template <class D>
auto ValueMethods<D>::cumsum(int64_t dim) const {
    return tenet::cumsum(self(), dim);
}
template <class D>
auto ValueMethods<D>::cumprod(int64_t dim) const {
    return tenet::cumprod(self(), dim);
}

}  // namespace tenet
