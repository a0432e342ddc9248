#pragma once
// torch.fft's helpers on real tensors: fftfreq and rfftfreq (the sample frequencies of an fft
// and an rfft of n points with spacing d; float32 unless a dtype is given) and fftshift and
// ifftshift (the zero frequency moved to the middle and back, along the given dims or all),
// as PyTorch 1.13 computes them (fftshift is roll by size / 2, ifftshift by (size + 1) / 2).
// A negative n throws value_error naming the function and n (PyTorch: fftfreq fails in arange;
// rfftfreq returns a meaningless tensor, tenet refuses it too).

#include "tenet/config.hpp"
#include <cstdint>
#include <optional>
#include <type_traits>

#include "tenet/core/tensor.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/join.hpp"
#include "tenet/ops/reshape_ops.hpp"

namespace tenet::inline TENET_ABI::fft {

namespace detail {
template <class T>
Tensor<T> freq(const char* op, int64_t n, int64_t count, double d, bool wrap, TensorOptions options) {
    static_assert(std::is_floating_point_v<T>,
                  "tenet::fft: fftfreq and rfftfreq require a floating point dtype (float32 or float64)");
    if (n < 0) tenet::detail::fail<value_error>(op, ": n must be non-negative, got n=", n);
    tenet::detail::check_device_supported(options.device(), op);
    Tensor<T> t = empty<T>({count});
    // As PyTorch: arange, the upper half from -(n / 2), then times the scalar 1 / (n d) rounded
    // to the element type.
    const T scale = static_cast<T>(1.0 / (static_cast<double>(n) * d));
    for (int64_t k = 0; k < count; ++k) {
        const int64_t v = wrap && k >= (n + 1) / 2 ? k - n : k;
        t.data_ptr()[k] = static_cast<T>(v) * scale;
    }
    return tenet::detail::on_device(t, options);
}

template <class T>
Tensor<T> shift(const char* op, const Tensor<T>& x, const std::optional<IntArray>& dims, bool inverse) {
    IntArray ds;
    if (dims) {
        for (int64_t d : *dims) ds.push_back(tenet::detail::wrap_dim(d, x.dim(), op));
    } else {
        for (int64_t d = 0; d < x.dim(); ++d) ds.push_back(d);
    }
    if (ds.empty())
        tenet::detail::fail<value_error>(op, ": `shifts` required: no dims to shift (", x.dim() == 0 ? "a 0-d tensor" : "dim=()",
                                         ")");
    IntArray shifts;
    for (int64_t d : ds) shifts.push_back(x.dim() == 0 ? 0 : (x.size(d) + (inverse ? 1 : 0)) / 2);
    return roll(x, shifts, ds);
}
}  // namespace detail

/// torch.fft.fftfreq: [0, 1, ..., (n - 1) / 2, -(n / 2), ..., -1] / (d n).
template <class T = float>
Tensor<T> fftfreq(int64_t n, double d = 1.0, TensorOptions options = {}) {
    return detail::freq<T>("fftfreq", n, n, d, true, options);
}
template <class T>
Tensor<T> fftfreq(int64_t n, dtype_t<T>, TensorOptions options = {}) {
    return fftfreq<T>(n, 1.0, options);
}
template <class T>
Tensor<T> fftfreq(int64_t n, double d, dtype_t<T>, TensorOptions options = {}) {
    return fftfreq<T>(n, d, options);
}

/// torch.fft.rfftfreq: [0, 1, ..., n / 2] / (d n).
template <class T = float>
Tensor<T> rfftfreq(int64_t n, double d = 1.0, TensorOptions options = {}) {
    return detail::freq<T>("rfftfreq", n, n < 0 ? 0 : n / 2 + 1, d, false, options);
}
template <class T>
Tensor<T> rfftfreq(int64_t n, dtype_t<T>, TensorOptions options = {}) {
    return rfftfreq<T>(n, 1.0, options);
}
template <class T>
Tensor<T> rfftfreq(int64_t n, double d, dtype_t<T>, TensorOptions options = {}) {
    return rfftfreq<T>(n, d, options);
}

/// torch.fft.fftshift: x rolled by size / 2 along dims (all dims when none are given).
template <class T>
Tensor<T> fftshift(const Tensor<T>& x, const std::optional<IntArray>& dims = std::nullopt) {
    return detail::shift("fftshift", x, dims, false);
}
template <class T>
Tensor<T> fftshift(const Tensor<T>& x, int64_t dim) {
    return fftshift(x, IntArray{dim});
}

/// torch.fft.ifftshift: the inverse of fftshift (rolled by (size + 1) / 2).
template <class T>
Tensor<T> ifftshift(const Tensor<T>& x, const std::optional<IntArray>& dims = std::nullopt) {
    return detail::shift("ifftshift", x, dims, true);
}
template <class T>
Tensor<T> ifftshift(const Tensor<T>& x, int64_t dim) {
    return ifftshift(x, IntArray{dim});
}

}  // namespace tenet::inline TENET_ABI::fft
