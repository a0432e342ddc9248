#pragma once
// softmax, log_softmax and softmin along a dim, as torch.softmax & co.
//
// On the host each is one kernel over the input seen as [outer, n, inner] (n: the dim): per row,
// the maximum, then the sum of exp(x - max) (softmax keeps those exps and scales them), in the
// CPU's widest vectors (detail::exp: simd_exp in float). The backward is one pass of the same shape:
// softmax dx = y * (g - sum(g * y)), log_softmax dx = g - exp(y) * sum(g), as PyTorch's
// SoftmaxBackward0 and LogSoftmaxBackward0. Tensors on a device take the same formulas as
// expressions (amax, exp, sum), evaluated there, with the same node.

#include "tenet/config.hpp"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "tenet/backend/host/simd_dispatch.hpp"
#include "tenet/backend/host/strided_loop.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/core/hooks.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/expr/operators.hpp"
#include "tenet/expr/simd_exp.hpp"
#include "tenet/ops/reduce.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {

/// A contiguous tensor seen as [outer, n, inner] around one of its dims.
struct DimSplit {
    int64_t outer = 1, n = 1, inner = 1;
};
inline DimSplit split_at_dim(const IntArray& sizes, int64_t dim) {
    DimSplit s;
    for (int64_t d = 0; d < static_cast<int64_t>(sizes.size()); ++d) {
        if (d < dim) s.outer *= sizes[d];
        else if (d == dim) s.n = sizes[d];
        else s.inner *= sizes[d];
    }
    return s;
}

/// The type softmax computes in: float for float32 and the 16-bit floats, double for double.
template <class T>
using softmax_compute_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

enum class SoftmaxKind { Softmax, LogSoftmax };

/// Lanes of the row kernels: independent partial maxima and sums in a fixed order, so that the
/// loops vectorise (GCC vectorises a float reduction only with -ffast-math) and give the same
/// bits with any vector width.
inline constexpr int kSoftmaxLanes = 16;

template <class C>
TENET_ALWAYS_INLINE inline C lanes_max(const C (&m)[kSoftmaxLanes], const int32_t (&nan)[kSoftmaxLanes]) {
    C r = m[0];
    int32_t any_nan = nan[0];
    for (int l = 1; l < kSoftmaxLanes; ++l) r = m[l] > r ? m[l] : r, any_nan |= nan[l];
    return any_nan ? std::numeric_limits<C>::quiet_NaN() : r;  // NaN propagates
}
template <class C>
TENET_ALWAYS_INLINE inline C lanes_sum(const C (&z)[kSoftmaxLanes]) {
    C r = 0;
    for (int l = 0; l < kSoftmaxLanes; ++l) r += z[l];
    return r;
}

/// The maximum of sign * x over a contiguous row (NaN if the row has one).
template <class C, class T>
TENET_ALWAYS_INLINE inline C row_max(const T* x, int64_t n, C sign) {
    constexpr int L = kSoftmaxLanes;
    const int64_t full = n - n % L;
    C mx[L];
    int32_t nan[L] = {};
    for (int l = 0; l < L; ++l) mx[l] = -std::numeric_limits<C>::infinity();
    for (int64_t j = 0; j < full; j += L) {
        TENET_SIMD_LOOP
        for (int l = 0; l < L; ++l) {
            const C v = sign * static_cast<C>(x[j + l]);
            mx[l] = v > mx[l] ? v : mx[l];
            nan[l] |= v != v ? 1 : 0;
        }
    }
    for (int64_t j = full; j < n; ++j) {
        const C v = sign * static_cast<C>(x[j]);
        mx[0] = v > mx[0] ? v : mx[0];
        nan[0] |= v != v ? 1 : 0;
    }
    return lanes_max(mx, nan);
}

/// sum(detail::exp(sign * x - m)) over a contiguous row; with `store`, each exp is written to y too.
template <class C, class T>
TENET_ALWAYS_INLINE inline C row_sum_exp(const T* x, T* y, int64_t n, C sign, C m) {
    constexpr int L = kSoftmaxLanes;
    const int64_t full = n - n % L;
    C z[L] = {};
    for (int64_t j = 0; j < full; j += L) {
        TENET_SIMD_LOOP
        for (int l = 0; l < L; ++l) {
            const C e = detail::exp(sign * static_cast<C>(x[j + l]) - m);
            z[l] += e;
            if (y) y[j + l] = static_cast<T>(e);
        }
    }
    for (int64_t j = full; j < n; ++j) {
        const C e = detail::exp(sign * static_cast<C>(x[j]) - m);
        z[0] += e;
        if (y) y[j] = static_cast<T>(e);
    }
    return lanes_sum(z);
}

/// logsumexp(sign * x) over a contiguous row, stably (log_softmax's shift, cross_entropy's rows).
template <class C, class T>
TENET_ALWAYS_INLINE inline C row_logsumexp(const T* x, int64_t n, C sign) {
    const C m = row_max<C>(x, n, sign);
    return m + std::log(row_sum_exp<C, T>(x, nullptr, n, sign, m));
}

/// One contiguous row of n elements: y = softmax (log: log_softmax) of sign * x.
template <class C, class T>
TENET_ALWAYS_INLINE inline void softmax_row(const T* x, T* y, int64_t n, bool log, C sign) {
    if (log) {
        const C shift = row_logsumexp<C>(x, n, sign);
        TENET_SIMD_LOOP
        for (int64_t j = 0; j < n; ++j) y[j] = static_cast<T>(sign * static_cast<C>(x[j]) - shift);
        return;
    }
    const C scale = C(1) / row_sum_exp<C>(x, y, n, sign, row_max<C>(x, n, sign));
    TENET_SIMD_LOOP
    for (int64_t j = 0; j < n; ++j) y[j] = static_cast<T>(static_cast<C>(y[j]) * scale);
}

/// One contiguous row's backward: dx = y * (g - sum(g * y)) (log: g - exp(y) * sum(g)), times sign.
template <class C, class T>
TENET_ALWAYS_INLINE inline void softmax_backward_row(const T* y, const T* g, T* dx, int64_t n, bool log, C sign) {
    constexpr int L = kSoftmaxLanes;
    const int64_t full = n - n % L;
    C d[L] = {};
    for (int64_t j = 0; j < full; j += L) {
        TENET_SIMD_LOOP
        for (int l = 0; l < L; ++l)
            d[l] += log ? static_cast<C>(g[j + l]) : static_cast<C>(g[j + l]) * static_cast<C>(y[j + l]);
    }
    for (int64_t j = full; j < n; ++j) d[0] += log ? static_cast<C>(g[j]) : static_cast<C>(g[j]) * static_cast<C>(y[j]);
    const C dot = lanes_sum(d);
    if (log) {
        TENET_SIMD_LOOP
        for (int64_t j = 0; j < n; ++j)
            dx[j] = static_cast<T>(sign * (static_cast<C>(g[j]) - detail::exp(static_cast<C>(y[j])) * dot));
    } else {
        TENET_SIMD_LOOP
        for (int64_t j = 0; j < n; ++j)
            dx[j] = static_cast<T>(sign * static_cast<C>(y[j]) * (static_cast<C>(g[j]) - dot));
    }
}

/// y = softmax or log_softmax of `sign * x` along the middle dim of s (x and y contiguous).
template <class T>
void softmax_forward(const T* x, T* y, DimSplit s, SoftmaxKind kind, bool negate) {
    using C = softmax_compute_t<T>;
    const C sign = negate ? C(-1) : C(1);
    const bool log = kind == SoftmaxKind::LogSoftmax;
    if (s.inner == 1) {  // contiguous rows: the lane kernel
        run_vectorised([&] {
            for (int64_t o = 0; o < s.outer; ++o) softmax_row<C>(x + o * s.n, y + o * s.n, s.n, log, sign);
        });
        return;
    }
    run_vectorised([&] {
        std::vector<C> max(static_cast<size_t>(s.inner)), sum(static_cast<size_t>(s.inner));
        for (int64_t o = 0; o < s.outer; ++o) {
            const T* xo = x + o * s.n * s.inner;
            T* yo = y + o * s.n * s.inner;
            C* m = max.data();
            C* z = sum.data();
            const int64_t inner = s.inner;
            for (int64_t i = 0; i < inner; ++i) m[i] = -std::numeric_limits<C>::infinity(), z[i] = 0;
            for (int64_t k = 0; k < s.n; ++k)
                for (int64_t i = 0; i < inner; ++i) {
                    const C v = sign * static_cast<C>(xo[k * inner + i]);
                    m[i] = (v > m[i] || v != v) ? v : m[i];  // NaN propagates
                }
            for (int64_t k = 0; k < s.n; ++k) {
                if (log) {
                    for (int64_t i = 0; i < inner; ++i) z[i] += detail::exp(sign * static_cast<C>(xo[k * inner + i]) - m[i]);
                } else {
                    for (int64_t i = 0; i < inner; ++i) {
                        const C e = detail::exp(sign * static_cast<C>(xo[k * inner + i]) - m[i]);
                        z[i] += e;
                        yo[k * inner + i] = static_cast<T>(e);
                    }
                }
            }
            if (log) {
                for (int64_t i = 0; i < inner; ++i) z[i] = m[i] + std::log(z[i]);
                for (int64_t k = 0; k < s.n; ++k)
                    for (int64_t i = 0; i < inner; ++i) yo[k * inner + i] = static_cast<T>(sign * static_cast<C>(xo[k * inner + i]) - z[i]);
            } else {
                for (int64_t i = 0; i < inner; ++i) z[i] = C(1) / z[i];
                for (int64_t k = 0; k < s.n; ++k)
                    for (int64_t i = 0; i < inner; ++i) yo[k * inner + i] = static_cast<T>(static_cast<C>(yo[k * inner + i]) * z[i]);
            }
        }
    });
}

/// dx from the result y and its gradient g (all contiguous): softmax dx = y * (g - sum(g * y)),
/// log_softmax dx = g - exp(y) * sum(g); softmin (negate) flips the sign.
template <class T>
void softmax_backward(const T* y, const T* g, T* dx, DimSplit s, SoftmaxKind kind, bool negate) {
    using C = softmax_compute_t<T>;
    const C sign = negate ? C(-1) : C(1);
    const bool log = kind == SoftmaxKind::LogSoftmax;
    if (s.inner == 1) {  // contiguous rows: the lane kernel
        run_vectorised([&] {
            for (int64_t o = 0; o < s.outer; ++o)
                softmax_backward_row<C>(y + o * s.n, g + o * s.n, dx + o * s.n, s.n, log, sign);
        });
        return;
    }
    run_vectorised([&] {
        std::vector<C> dot(static_cast<size_t>(s.inner));
        for (int64_t o = 0; o < s.outer; ++o) {
            const int64_t base = o * s.n * s.inner, inner = s.inner;
            C* d = dot.data();
            for (int64_t i = 0; i < inner; ++i) d[i] = 0;
            for (int64_t k = 0; k < s.n; ++k)
                for (int64_t i = 0; i < inner; ++i) {
                    const int64_t j = base + k * inner + i;
                    d[i] += log ? static_cast<C>(g[j]) : static_cast<C>(g[j]) * static_cast<C>(y[j]);
                }
            for (int64_t k = 0; k < s.n; ++k)
                for (int64_t i = 0; i < inner; ++i) {
                    const int64_t j = base + k * inner + i;
                    const C gy = static_cast<C>(g[j]), yy = static_cast<C>(y[j]);
                    dx[j] = static_cast<T>(sign * (log ? gy - detail::exp(yy) * d[i] : yy * (gy - d[i])));
                }
        }
    });
}


/// The backward on a device: the same formulas as expressions, evaluated there.
template <class T>
Tensor<T> softmax_backward_on_device(const Tensor<T>& y, const Tensor<T>& g, int64_t dim, SoftmaxKind kind,
                                     bool negate) {
    const Tensor<T> dx = kind == SoftmaxKind::LogSoftmax ? Tensor<T>(g - tenet::exp(y) * sum(g, dim, true))
                                                         : Tensor<T>(y * (g - sum(g * y, dim, true)));
    return negate ? Tensor<T>(-dx) : dx;
}

template <class T>
Tensor<T> softmax_impl(const Tensor<T>& input, int64_t dim, SoftmaxKind kind, bool negate, const char* op) {
    static_assert(FloatingElement<T>, "softmax, log_softmax, softmin: the input must be a floating tensor (as in "
                                      "PyTorch); convert it first, or name a floating result type");
    const int64_t d = input.dim() == 0 ? 0 : wrap_dim(dim, input.dim(), op);
    if (input.dim() == 0) wrap_dim(dim, 1, op);  // a 0-d input takes dim 0 or -1, as PyTorch
    const bool host = input.device().is_cpu();
    const DimSplit s = split_at_dim(input.sizes(), d);
    Tensor<T> y(make_contiguous_impl(input.sizes(), dtype_of<T>, input.device()));
    if (input.numel() > 0) {
        if (host) {
            const Tensor<T> x = input.contiguous();
            softmax_forward(x.data_ptr(), y.data_ptr(), s, kind, negate);
        } else {
            // The same formulas as expressions, evaluated on the input's device (not recorded:
            // the node below is the op's one backward).
            NoGradGuard no_grad;
            const Tensor<T> plain(unnamed_alias(input.impl()));  // named inputs: the result is named below
            const Tensor<T> x = negate ? Tensor<T>(-plain) : plain;
            const Tensor<T> shifted = x - amax(x, d, true);
            if (kind == SoftmaxKind::LogSoftmax) {
                y = Tensor<T>(shifted - tenet::log(sum(tenet::exp(shifted), d, true)));
            } else {
                const Tensor<T> e = tenet::exp(shifted);
                y = Tensor<T>(e / sum(e, d, true));
            }
        }
    }
    const Tensor<T> saved = y.detach();
    record_function(
        kind == SoftmaxKind::LogSoftmax ? "LogSoftmaxBackward0" : "SoftmaxBackward0", y, {saved},
        [saved, s, d, kind, negate, host](const TensorBase& grad) {
            const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
            if (!host) return std::array<TensorBase, 1>{softmax_backward_on_device(saved, g, d, kind, negate)};
            Tensor<T> dx(make_contiguous_impl(saved.sizes(), dtype_of<T>, saved.device()));
            if (dx.numel() > 0) softmax_backward(saved.data_ptr(), g.data_ptr(), dx.data_ptr(), s, kind, negate);
            return std::array<TensorBase, 1>{dx};
        },
        input);
    if (input.has_names()) set_names(y.impl(), input.names());  // softmax keeps every name
    return y;
}

}  // namespace detail

/// torch.softmax(x, dim): exp(x) / sum(exp(x)) along dim, computed stably. R: the result type
/// (PyTorch's dtype argument; the input is converted to it first); floating inputs only.
template <class R = void, expr::TensorOperand X>
auto softmax(const X& x, int64_t dim) {
    using T = std::conditional_t<std::is_void_v<R>, typename expr::node_t<X>::value_type, R>;
    return detail::softmax_impl(detail::as_tensor_of<T>(x), dim, detail::SoftmaxKind::Softmax, false, "softmax");
}
/// torch.log_softmax(x, dim): x - logsumexp(x, dim), in one pass per row.
template <class R = void, expr::TensorOperand X>
auto log_softmax(const X& x, int64_t dim) {
    using T = std::conditional_t<std::is_void_v<R>, typename expr::node_t<X>::value_type, R>;
    return detail::softmax_impl(detail::as_tensor_of<T>(x), dim, detail::SoftmaxKind::LogSoftmax, false,
                                "log_softmax");
}
/// torch.nn.functional.softmin(x, dim): softmax(-x, dim).
template <class R = void, expr::TensorOperand X>
auto softmin(const X& x, int64_t dim) {
    using T = std::conditional_t<std::is_void_v<R>, typename expr::node_t<X>::value_type, R>;
    return detail::softmax_impl(detail::as_tensor_of<T>(x), dim, detail::SoftmaxKind::Softmax, true, "softmin");
}

// Methods of Tensor and of expressions (declared in core/value_methods.hpp).
template <class D>
auto ValueMethods<D>::softmax(int64_t dim) const {
    return tenet::softmax(self(), dim);
}
template <class D>
auto ValueMethods<D>::log_softmax(int64_t dim) const {
    return tenet::log_softmax(self(), dim);
}

}  // namespace tenet
